import CLinux
import ImageCodecs
import Raster
import Transports
import CompactText

/// How an LED display's wire bytes become the picture its LEDs show. Written from the protocols
/// (PROTOCOLS.md) in the forward direction: what each chip does with the bytes it receives.
public enum WireFormat: Sendable {
    /// MAX7219 chain: `modules` in rows of `columns`; each message is one 16-bit word per module,
    /// the farthest module's first; register d (1...8) holds block column d−1, bit b block row b,
    /// the block turned by `blockOrientation` (0, 90, −90, 180) as luma.led_matrix does.
    case max7219(modules: Int, columns: Int, blockOrientation: Int, reverseOrder: Bool)
    /// APA102/SK9822: a start frame of 32 zero bits, then per LED 0b111 + 5-bit brightness and
    /// three colour bytes in `order`, then zeros. Frames may arrive split into several messages.
    case apa102(width: Int, height: Int, layout: StripLayout, origin: StripOrigin, order: ColorOrder)
    /// WS2812/SK6812 over SPI: each LED bit is `encoding` SPI bits (3: 110/100, 8: 0xF0/0xC0),
    /// colour bytes in `order`, the whole frame one message.
    case ws2812(width: Int, height: Int, layout: StripLayout, origin: StripOrigin, order: ColorOrder, encoding: Int)

    /// Width and height of the panel in LEDs.
    var size: (width: Int, height: Int) {
        switch self {
        case .max7219(let modules, let columns, _, _): return (columns * 8, modules / columns * 8)
        case .apa102(let w, let h, _, _, _): return (w, h)
        case .ws2812(let w, let h, _, _, _, _): return (w, h)
        }
    }
}

/// An SPI bus for `dry-run=FILE`: nothing is sent; the bytes are decoded as the LEDs would take
/// them and the picture (one pixel per LED: lit MAX7219 LEDs white, unlit black; RGB LEDs the
/// light they would give, after brightness and gamma, as a screen shows it) is written to FILE,
/// PNG or PPM by its extension, replaced
/// atomically (written beside it, then renamed) when a frame that changed it has been sent
/// whole (`frameSent`): a MAX7219 frame is up to eight messages, one a digit row.
public final class WirePreview: SPIBus {
    public let name: String
    public let maximumMessageLength: Int
    public let path: String
    public let format: WireFormat
    /// The picture now, RGB, one pixel per LED; and whether it changed since it was written.
    public private(set) var image: RGBImage
    private var dirty = true
    /// MAX7219: the digit registers of each module, 8 per module, and whether each module is out
    /// of shutdown (a chip powers up shut down; in shutdown it shows nothing, registers kept).
    private var registers: [UInt8]
    private var running: [Bool]
    /// APA102 stream state: zero bytes seen since the last LED frame, LED and byte being read.
    private var zeros = 0
    private var led = -1
    private var ledBytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    private var ledByte = 0
    private let isPNG: Bool
    /// An RGB LED's light (its PWM duty: light in proportion) to the sRGB byte a screen shows
    /// that light with. An LED's byte is linear light and a screen's is not: written as they are,
    /// the bytes gamma correction made would look darker on a screen than the LEDs do (an LED at
    /// 50 % duty, 128, looks like sRGB 188), and gamma=1 would not look washed out as it does on
    /// the LEDs. With the default gamma 2.2 a full-brightness picture comes back within a few
    /// units of the frame drawn.
    private let screenByte: [UInt8] = WirePreview.lightToScreen()

    /// Why `path` cannot be a dry run's picture (not .png or .ppm), or nil.
    static func pathProblem(_ path: String) -> String? {
        let lower = path.asciiLowercased()
        if lower.hasSuffix(".png") || lower.hasSuffix(".ppm") { return nil }
        return filled("dry-run= takes true, false, or a file ending in .png or .ppm, got '{}'", path)
    }

    /// Fails when `path` names no PNG or PPM file or cannot be written (the first, dark picture
    /// is written at once, so a bad path is found when the display opens).
    public init(path: String, format: WireFormat, maximumMessageLength: Int = 1 << 20) throws(DisplaySpecError) {
        self.path = path
        self.format = format
        self.name = filled("dry-run {}", path)
        self.maximumMessageLength = maximumMessageLength
        // The one error thrown at the end, for either problem (for size).
        var problem = Self.pathProblem(path)
        isPNG = path.asciiLowercased().hasSuffix(".png")
        let size = format.size
        image = RGBImage(width: size.width, height: size.height, fill: .black)
        if case .max7219(let modules, _, _, _) = format { registers = [UInt8](repeating: 0, count: modules * 8) } else { registers = [] }
        running = [Bool](repeating: false, count: registers.count / 8)
        if problem == nil {
            do { try write() } catch { problem = filled("cannot write the dry-run picture: {}", error.description) }
        }
        if let problem { throw DisplaySpecError(spec: path, message: problem) }
    }

    public func send(_ message: UnsafeRawBufferPointer) throws(TransportError) {
        switch format {
        case .max7219(let modules, let columns, let orientation, let reverse):
            decodeMAX7219(message, modules: modules, columns: columns, orientation: orientation, reverse: reverse)
        case .apa102(let w, let h, let layout, let origin, let order):
            decodeAPA102(message, width: w, height: h, layout: layout, origin: origin, order: order)
        case .ws2812(let w, let h, let layout, let origin, let order, let encoding):
            decodeWS2812(message, width: w, height: h, layout: layout, origin: origin, order: order, encoding: encoding)
        }
    }

    public func frameSent() {
        if dirty { try? write() }
    }

    // MARK: Decoders

    private func decodeMAX7219(_ message: UnsafeRawBufferPointer, modules: Int, columns: Int, orientation: Int, reverse: Bool) {
        guard message.count == 2 * modules else { return }
        for word in 0..<modules {
            // The first word shifts furthest along the chain.
            let module = modules - 1 - word
            let register = Int(message[2 * word] & 0x0F), value = message[2 * word + 1]
            if register == Int(MAX7219Display.shutdown) {
                let on = value & 1 == 1
                if running[module] == on { continue }
                running[module] = on
                for digit in 0..<8 { drawMAX7219(module: module, digit: digit, columns: columns, orientation: orientation, reverse: reverse, modules: modules) }
                continue
            }
            guard (1...8).contains(register) else { continue }
            let digit = register - 1
            if registers[module * 8 + digit] == value { continue }
            registers[module * 8 + digit] = value
            if running[module] { drawMAX7219(module: module, digit: digit, columns: columns, orientation: orientation, reverse: reverse, modules: modules) }
        }
    }

    /// One digit row of a module as it shows: its register, or unlit in shutdown.
    private func drawMAX7219(module: Int, digit: Int, columns: Int, orientation: Int, reverse: Bool, modules: Int) {
        let value = running[module] ? registers[module * 8 + digit] : 0
        let block = reverse ? modules - 1 - module : module
        let bx = (block % columns) * 8, by = (block / columns) * 8
        for bit in 0..<8 {
            let (u, v): (Int, Int)
            switch orientation {
            case 90: (u, v) = (7 - bit, digit)
            case -90: (u, v) = (bit, 7 - digit)
            case 180: (u, v) = (7 - digit, 7 - bit)
            default: (u, v) = (digit, bit)
            }
            let lit: UInt8 = (value >> UInt8(bit)) & 1 == 1 ? 255 : 0
            set(x: bx + u, y: by + v, lit, lit, lit)
        }
    }

    private func decodeAPA102(_ message: UnsafeRawBufferPointer, width: Int, height: Int, layout: StripLayout, origin: StripOrigin, order: ColorOrder) {
        let count = width * height
        for byte in message {
            if led < 0 {
                if byte == 0 { zeros += 1; continue }
                guard zeros >= 4, byte & 0xE0 == 0xE0 else { zeros = 0; continue }
                led = 0; ledByte = 0
            }
            switch ledByte {
            case 0: ledBytes.0 = byte
            case 1: ledBytes.1 = byte
            case 2: ledBytes.2 = byte
            default: ledBytes.3 = byte
            }
            ledByte += 1
            if ledByte < 4 { continue }
            let brightness = Int(ledBytes.0 & 0x1F)
            var rgb: (UInt8, UInt8, UInt8) = (0, 0, 0)
            WirePreview.place(ledBytes.1, channel: order.channels.0, &rgb)
            WirePreview.place(ledBytes.2, channel: order.channels.1, &rgb)
            WirePreview.place(ledBytes.3, channel: order.channels.2, &rgb)
            let p = StripGeometry.position(of: led, width: width, height: height, layout: layout, origin: origin)
            // The 5-bit global brightness scales the LED's current, so its light.
            setLight(x: p.x, y: p.y, UInt8(Int(rgb.0) * brightness / 31), UInt8(Int(rgb.1) * brightness / 31), UInt8(Int(rgb.2) * brightness / 31))
            led += 1; ledByte = 0
            if led == count { led = -1; zeros = 0 }
        }
    }

    private func decodeWS2812(_ message: UnsafeRawBufferPointer, width: Int, height: Int, layout: StripLayout, origin: StripOrigin,
                              order: ColorOrder, encoding: Int) {
        let count = width * height
        guard message.count >= count * 3 * encoding else { return }
        // LED bit k of the frame: encoding 8, byte k (0xF0 is a one); encoding 3, SPI bits 3k...3k+2
        // (110 is a one: the middle bit decides).
        func bit(_ k: Int) -> Bool {
            if encoding == 8 { return message[k] & 0x20 != 0 }
            let s = 3 * k + 1
            return (message[s / 8] >> UInt8(7 - s % 8)) & 1 == 1
        }
        for i in 0..<count {
            var rgb: (UInt8, UInt8, UInt8) = (0, 0, 0)
            for c in 0..<3 {
                var v: UInt8 = 0
                for b in 0..<8 { v = v << 1 | (bit((i * 3 + c) * 8 + b) ? 1 : 0) }
                WirePreview.place(v, channel: c == 0 ? order.channels.0 : c == 1 ? order.channels.1 : order.channels.2, &rgb)
            }
            let p = StripGeometry.position(of: i, width: width, height: height, layout: layout, origin: origin)
            setLight(x: p.x, y: p.y, rgb.0, rgb.1, rgb.2)
        }
    }

    private static func place(_ value: UInt8, channel: UInt8, _ rgb: inout (UInt8, UInt8, UInt8)) {
        switch channel {
        case 0: rgb.0 = value
        case 1: rgb.1 = value
        default: rgb.2 = value
        }
    }

    /// sRGB's encoding of linear light L: 12.92 L up to 0.0031308, else 1.055 L^(1/2.4) − 0.055.
    /// Filled in a loop rather than mapped from a range, whose map is inlined (for size).
    static func lightToScreen() -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 256)
        for i in 0..<256 {
            let light = Double(i) / 255
            let value = light <= 0.0031308 ? 12.92 * light : 1.055 * GammaMath.power(light, 1 / 2.4) - 0.055
            table[i] = UInt8(Swift.max(0, Swift.min(255, (value * 255).rounded())))
        }
        return table
    }

    private func setLight(x: Int, y: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        set(x: x, y: y, screenByte[Int(r)], screenByte[Int(g)], screenByte[Int(b)])
    }

    private func set(x: Int, y: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let i = (y * image.width + x) * 3
        if image.bytes[i] == r && image.bytes[i + 1] == g && image.bytes[i + 2] == b { return }
        image.bytes[i] = r; image.bytes[i + 1] = g; image.bytes[i + 2] = b
        dirty = true
    }

    // MARK: Output

    /// Writes the picture beside `path` and renames it over `path`, so a reader never sees half a file.
    private func write() throws(ImageCodecError) {
        let temporary = path + ".tmp"
        if isPNG { try PNG.write(image, to: temporary) } else { try PPM.write(image, to: temporary) }
        if rename(temporary, path) != 0 {
            throw ImageCodecError(.write, path: path, reason: filled("could not rename {} over it", temporary))
        }
        dirty = false
    }
}
