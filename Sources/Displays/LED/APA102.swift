import Raster
import Transports
import CompactText

/// An APA102 (or SK9822) W×H matrix or strip (`apa102:spi=/dev/spidev0.0,size=16x16` or
/// `apa102:gpiochip=gpiochip0,clock=11,data=10,size=16x16,layout=serpentine`).
///
/// Wire format per frame: a start frame of 32 zero bits; per LED `0b111` + 5-bit global
/// brightness, then blue, green, red (gamma-corrected); then an end frame of zeros giving at
/// least n/2 extra clock edges (⌈n/16⌉ bytes, at least 4) so the data reaches the chain's end.
/// The SK9822 variant adds a 32-bit zero "reset frame" before the end frame: an SK9822 moves new
/// colours to its PWM only after the next start frame, so without it each frame would show one
/// frame late (cpldcpu, "SK9822 – a clone of the APA102?"). Zeros are used for the end frame for
/// both: 0xFF bytes would read as a full-white LED frame on LEDs past the configured length.
///
/// The LED order (`layout`, `origin`, `rotate`) is resolved at open into an index table and the
/// whole frame lives in one buffer sized at open; a frame whose bytes did not change is not sent.
/// APA102 has no chip select and no timing, so a frame longer than spidev's bufsiz is sent in
/// pieces.
public final class APA102Display: Display {
    public enum Variant: String, Sendable { case apa102, sk9822 }

    public struct Configuration: Sendable {
        public var width = 8, height = 8
        public var layout: StripLayout = .rows
        public var origin: StripOrigin = .topLeft
        public var rotation: MatrixRotation = .none
        public var flip: MatrixFlip = .none
        /// 0...100 %, sent as the 5-bit global brightness 0...31.
        public var brightness = 50
        public var gamma = 2.2
        public var order: ColorOrder = .bgr
        public var variant: Variant = .apa102
        public var framesPerSecond = 60
        public init() {}
    }

    public let name: String
    public let configuration: Configuration
    public let canvasWidth: Int
    public let canvasHeight: Int
    public var framesPerSecond: Int { configuration.framesPerSecond }
    public let bus: any SPIBus

    /// LED index → canvas pixel index.
    private let map: [Int32]
    private let gamma: [UInt8]
    private let order: (Int, Int, Int)
    /// Start frame, LED frames, [reset frame,] end frame.
    private var frame: [UInt8]
    private var sent = false
    private var closed = false

    public static let acceptedKeys = transportKeys + ["size", "layout", "origin", "rotate", "flip", "brightness", "gamma", "order", "fps"]

    /// The spec's options read and checked, nothing opened (`open`, and `LEDDisplays.checkOptions`).
    static func readOptions(_ spec: DisplaySpec) throws(DisplaySpecError) -> (Configuration, LEDOptionReader, LEDTransportChoice) {
        let options = LEDOptionReader(spec, accepted: acceptedKeys)
        var c = Configuration()
        c.variant = spec.type == "sk9822" ? .sk9822 : .apa102
        options.stripSettings(into: &c)
        c.order = options.colorOrder(default: .bgr)
        c.framesPerSecond = options.framesPerSecond()
        // 20 MHz: the clock APA102 and SK9822 are commonly rated for (their datasheets give none);
        // faster, the clock each LED passes on degrades along the strip (PJRC: failures at 24 MHz).
        let choice = options.transport(defaultSpeed: 8_000_000, maximumSpeed: 20_000_000, needsLatch: false)
        try options.check()
        return (c, options, choice)
    }

    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> APA102Display {
        let (c, options, choice): (Configuration, LEDOptionReader, LEDTransportChoice)
        do { (c, options, choice) = try readOptions(spec) } catch { throw .spec(error) }
        let bus = try options.openBus(choice, wire: .apa102(width: c.width, height: c.height, layout: c.layout, origin: c.origin, order: c.order))
        return APA102Display(configuration: c, bus: bus, name: spec.description)
    }

    /// Bytes of the end frame for `count` LEDs: at least count/2 clock edges, at least 32 bits.
    public static func endFrameLength(leds count: Int) -> Int { Swift.max(4, (count + 15) / 16) }

    /// 0...100 % → the 5-bit global brightness.
    public static func globalBrightness(percent: Int) -> UInt8 { UInt8(LED8.level(percent: percent, maximum: 31)) }

    public init(configuration c: Configuration, bus: any SPIBus, name: String? = nil) {
        self.configuration = c
        self.bus = bus
        self.name = name ?? filled("{}:{}", c.variant.rawValue, bus.name)
        (canvasWidth, canvasHeight, map) = StripGeometry.resolve(c)
        gamma = LED8.gammaTable(c.gamma)
        order = (Int(c.order.channels.0), Int(c.order.channels.1), Int(c.order.channels.2))
        let n = c.width * c.height
        let tail = (c.variant == .sk9822 ? 4 : 0) + APA102Display.endFrameLength(leds: n)
        frame = [UInt8](repeating: 0, count: 4 + 4 * n + tail)
        let header = 0xE0 | APA102Display.globalBrightness(percent: c.brightness)
        for i in 0..<n { frame[4 + 4 * i] = header }
    }

    deinit { close() }

    public var frameLength: Int { frame.count }

    public func show(_ canvas: Canvas) throws(DisplayError) {
        precondition(canvas.width == canvasWidth && canvas.height == canvasHeight, "canvas must be \(canvasWidth)x\(canvasHeight)")
        let (o0, o1, o2) = order
        let changed = canvas.pixels.withUnsafeBufferPointer { pixels in
            map.withUnsafeBufferPointer { map in
                gamma.withUnsafeBufferPointer { gamma in
                    frame.withUnsafeMutableBufferPointer { frame -> Bool in
                        var changed = false
                        for i in 0..<map.count {
                            let p = pixels[Int(map[i])]
                            let rgb = (gamma[Int(p.r)], gamma[Int(p.g)], gamma[Int(p.b)])
                            let k = 5 + 4 * i
                            let a = o0 == 0 ? rgb.0 : o0 == 1 ? rgb.1 : rgb.2
                            let b = o1 == 0 ? rgb.0 : o1 == 1 ? rgb.1 : rgb.2
                            let c = o2 == 0 ? rgb.0 : o2 == 1 ? rgb.1 : rgb.2
                            if frame[k] != a || frame[k + 1] != b || frame[k + 2] != c {
                                changed = true
                                frame[k] = a; frame[k + 1] = b; frame[k + 2] = c
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
        for i in 0..<(configuration.width * configuration.height) {
            for k in (5 + 4 * i)..<(8 + 4 * i) where frame[k] != 0 { frame[k] = 0; changed = true }
        }
        if changed || !sent { try send() }
    }

    private func send() throws(DisplayError) {
        sent = false
        try bus.sendFrame(frame, splitting: true, display: name)
        sent = true
    }

    /// Turns every LED off; the bus is released with the display.
    public func close() {
        if closed { return }
        closed = true
        try? clear()
    }
}

extension APA102Display.Configuration: StripConfiguration {}
