import Raster
import Transports
import CompactText

/// A WS2812 / SK6812 (RGB) W×H matrix or strip driven through spidev
/// (`ws2812:spi=/dev/spidev0.0,size=32x8`).
///
/// The 800 kbit/s one-wire signal is made by the SPI's MOSI: each LED bit becomes 3 SPI bits at
/// 2.4 MHz (`encoding=3`: 1 → 110, 0 → 100; 9 bytes per LED) or 8 SPI bits at 6.4 MHz
/// (`encoding=8`: 1 → 0b11110000, 0 → 0b11000000; 24 bytes per LED), colour bytes in `order`
/// (GRB by default), most significant bit first, followed by zero bytes holding the line low for
/// the reset (`reset_us`, default 280 µs for newer parts; the original WS2812 needs 50 µs).
/// The whole frame must go out in one transfer — a pause between transfers would be taken as a
/// reset — so a frame longer than spidev's bufsiz is refused at open with the fix.
///
/// Gamma, brightness and the bit encoding are folded into one table built at open (colour byte →
/// encoded bits); the frame buffer is sized at open; an unchanged frame is not sent.
public final class WS2812Display: Display {
    public struct Configuration: Sendable {
        public var width = 8, height = 8
        public var layout: StripLayout = .rows
        public var origin: StripOrigin = .topLeft
        public var rotation: MatrixRotation = .none
        public var flip: MatrixFlip = .none
        /// 0...100 %, applied to each channel (WS2812 has no global brightness).
        public var brightness = 50
        public var gamma = 2.2
        public var order: ColorOrder = .grb
        /// 3 or 8 SPI bits per LED bit.
        public var encoding = 3
        public var resetMicroseconds = 280
        public var framesPerSecond = 60
        public init() {}
    }

    public let name: String
    public let configuration: Configuration
    public let canvasWidth: Int
    public let canvasHeight: Int
    public var framesPerSecond: Int { configuration.framesPerSecond }
    public let bus: any SPIBus

    private let map: [Int32]
    /// Colour byte → its encoded bits, right-aligned (24 bits for encoding 3, 64 for encoding 8).
    private let encode: [UInt64]
    private let bytesPerColor: Int
    private let order: (Int, Int, Int)
    private var frame: [UInt8]
    private var sent = false
    private var closed = false

    public static let acceptedKeys = ["spi", "dry-run", "size", "layout", "origin", "rotate", "flip", "brightness", "gamma", "order",
                                      "encoding", "reset_us", "fps"]

    /// SPI clock for an encoding: 3 × 800 kHz or 8 × 800 kHz.
    public static func speed(encoding: Int) -> UInt32 { encoding == 8 ? 6_400_000 : 2_400_000 }

    /// Zero bytes that keep the line low for `microseconds` at the encoding's clock.
    public static func resetLength(microseconds: Int, encoding: Int) -> Int {
        (microseconds * Int(speed(encoding: encoding)) + 7_999_999) / 8_000_000
    }

    /// The SPI pattern of one LED bit.
    public static func pattern(bit: Bool, encoding: Int) -> UInt8 {
        encoding == 8 ? (bit ? 0b1111_0000 : 0b1100_0000) : (bit ? 0b110 : 0b100)
    }

    /// The spec's options read and checked, nothing opened (`open`, and `LEDDisplays.checkOptions`).
    static func readOptions(_ spec: DisplaySpec) throws(DisplaySpecError) -> (Configuration, LEDOptionReader, LEDTransportChoice) {
        if spec["gpiochip"] != nil {
            throw DisplaySpecError(spec: spec.description, message: filled("{} cannot be bit-banged over GPIO (its 800 kHz timing needs the SPI hardware); use spi=/dev/spidevB.C", spec.type))
        }
        let options = LEDOptionReader(spec, accepted: acceptedKeys)
        var c = Configuration()
        options.stripSettings(into: &c)
        c.order = options.colorOrder(default: .grb)
        c.encoding = options.choice("encoding", default: 3, names: "3, 8", [3, 8])
        c.resetMicroseconds = options.int("reset_us", default: 280, in: 50...10_000)
        c.framesPerSecond = options.framesPerSecond()
        // No speed= (not among acceptedKeys): the clock is the encoding's, which the timing needs.
        let choice = options.transport(defaultSpeed: speed(encoding: c.encoding), maximumSpeed: Int(speed(encoding: 8)), needsLatch: false)
        try options.check()
        return (c, options, choice)
    }

    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> WS2812Display {
        let (c, options, choice): (Configuration, LEDOptionReader, LEDTransportChoice)
        do { (c, options, choice) = try readOptions(spec) } catch { throw .spec(error) }
        let bus = try options.openBus(choice, wire: .ws2812(width: c.width, height: c.height, layout: c.layout, origin: c.origin, order: c.order, encoding: c.encoding))
        do { return try WS2812Display(configuration: c, bus: bus, name: spec.description) } catch { throw .device(error) }
    }

    public init(configuration c: Configuration, bus: any SPIBus, name: String? = nil) throws(DisplayError) {
        precondition(c.encoding == 3 || c.encoding == 8)
        self.configuration = c
        self.bus = bus
        self.name = name ?? filled("ws2812:{}", bus.name)
        (canvasWidth, canvasHeight, map) = StripGeometry.resolve(c)
        let gamma = LED8.gammaTable(c.gamma)
        let scale = UInt8(LED8.level(percent: c.brightness, maximum: 255))
        // Filled in a loop rather than mapped from a range, whose map is inlined (for size).
        var encode = [UInt64](repeating: 0, count: 256)
        for value in 0..<256 {
            let level = LED8.scale8(gamma[value], scale)
            var bits: UInt64 = 0
            var b = 7
            while b >= 0 {
                let one = (level >> UInt8(b)) & 1 == 1
                bits = bits << UInt64(c.encoding) | UInt64(WS2812Display.pattern(bit: one, encoding: c.encoding))
                b -= 1
            }
            encode[value] = bits
        }
        self.encode = encode
        bytesPerColor = c.encoding  // 8 LED bits × encoding SPI bits / 8
        order = (Int(c.order.channels.0), Int(c.order.channels.1), Int(c.order.channels.2))
        let n = c.width * c.height
        let length = n * 3 * bytesPerColor + WS2812Display.resetLength(microseconds: c.resetMicroseconds, encoding: c.encoding)
        frame = [UInt8](repeating: 0, count: length)
        if length > bus.maximumMessageLength {
            let e = SPIDevice.messageTooLong(device: bus.name, length: length, bufsiz: bus.maximumMessageLength)
            throw DisplayError(display: self.name, message: e.description + " (a WS2812 frame cannot be split: the pause between transfers would end the frame early)")
        }
        // Start from the encoding of black so that the first comparison is meaningful.
        for channel in 0..<(n * 3) { put(encode[0], at: channel * bytesPerColor) }
    }

    deinit { close() }

    public var frameLength: Int { frame.count }

    private func put(_ bits: UInt64, at offset: Int) {
        var shift = (bytesPerColor - 1) * 8
        for k in 0..<bytesPerColor { frame[offset + k] = UInt8(truncatingIfNeeded: bits >> UInt64(shift)); shift -= 8 }
    }

    public func show(_ canvas: Canvas) throws(DisplayError) {
        precondition(canvas.width == canvasWidth && canvas.height == canvasHeight, "canvas must be \(canvasWidth)x\(canvasHeight)")
        let (o0, o1, o2) = order
        let width = bytesPerColor
        let changed = canvas.pixels.withUnsafeBufferPointer { pixels in
            map.withUnsafeBufferPointer { map in
                encode.withUnsafeBufferPointer { encode in
                    frame.withUnsafeMutableBufferPointer { frame -> Bool in
                        var changed = false
                        var offset = 0
                        for i in 0..<map.count {
                            let p = pixels[Int(map[i])]
                            let rgb = (p.r, p.g, p.b)
                            for c in 0..<3 {
                                let o = c == 0 ? o0 : c == 1 ? o1 : o2
                                let value = o == 0 ? rgb.0 : o == 1 ? rgb.1 : rgb.2
                                let bits = encode[Int(value)]
                                var shift = UInt64((width - 1) * 8)
                                for k in 0..<width {
                                    let byte = UInt8(truncatingIfNeeded: bits >> shift)
                                    if frame[offset + k] != byte { frame[offset + k] = byte; changed = true }
                                    shift &-= 8
                                }
                                offset += width
                            }
                        }
                        return changed
                    }
                }
            }
        }
        if changed || !sent { try send() }
    }

    public func clear() throws(DisplayError) {
        var changed = false
        let n = configuration.width * configuration.height * 3
        for ch in 0..<n {
            var shift = (bytesPerColor - 1) * 8
            for k in 0..<bytesPerColor {
                let byte = UInt8(truncatingIfNeeded: encode[0] >> UInt64(shift))
                if frame[ch * bytesPerColor + k] != byte { frame[ch * bytesPerColor + k] = byte; changed = true }
                shift -= 8
            }
        }
        if changed || !sent { try send() }
    }

    private func send() throws(DisplayError) {
        sent = false
        try bus.sendFrame(frame, splitting: false, display: name)
        sent = true
    }

    /// Turns every LED off; the bus is released with the display.
    public func close() {
        if closed { return }
        closed = true
        try? clear()
    }
}

extension WS2812Display.Configuration: StripConfiguration {}
