import CLinux
import Raster
import Transports
import CompactText

/// N cascaded MAX7219 8x8 monochrome modules (`max7219:spi=/dev/spidev0.0,modules=8`).
///
/// Conventions follow luma.led_matrix, so settings carry over: the module nearest the controller
/// shows the top-left 8x8 block and the chain runs left to right, then row by row (`rows=` for a
/// grid; `reverse_order=true` reverses the chain); on a module, digit register d drives block
/// column d−1 and data bit b block row b (bit 0 at the top); `block_orientation` (0, 90, −90,
/// 180) rotates each block counter-clockwise before it is written, for modules mounted turned;
/// `rotate` turns the whole picture clockwise, `flip` mirrors it.
///
/// Open sends the initialisation (scan limit 7, decode 0, test 0, intensity, clear, shutdown 1).
/// The scene draws its monochrome design here (`isMonochrome`: lit parts white, unlit black), so
/// every loader reads at the default threshold. Each frame is reduced to one bit per LED by
/// `threshold` or 4x4 ordered dithering, and only the
/// digit registers (the "rows") that changed are sent: one message of N words each, farthest
/// module first. Nothing is sent when nothing changed. Encoding uses tables built at open and
/// buffers sized at open: no allocation per frame.
public final class MAX7219Display: Display {
    public enum Mono: String, Sendable, CaseIterable { case threshold, dither }

    public struct Configuration: Sendable {
        public var modules: Int = 4
        /// Rows of modules in the grid (modules must divide evenly).
        public var rows: Int = 1
        /// 0, 90, −90 or 180.
        public var blockOrientation: Int = 0
        public var reverseOrder = false
        public var rotation: MatrixRotation = .none
        public var flip: MatrixFlip = .none
        /// 0...100 %, mapped to intensity 0...15.
        public var brightness: Int = 50
        public var mono: Mono = .threshold
        /// A pixel is lit when its luma (0...255) is at least this (threshold mode).
        public var threshold: Int = 128
        public var framesPerSecond: Int = 60
        public init() {}
    }

    // Registers (PROTOCOLS.md).
    public static let noOp: UInt8 = 0x0, decodeMode: UInt8 = 0x9, intensity: UInt8 = 0xA, scanLimit: UInt8 = 0xB
    public static let shutdown: UInt8 = 0xC, displayTest: UInt8 = 0xF

    public let name: String
    public let configuration: Configuration
    public let canvasWidth: Int
    public let canvasHeight: Int
    public var framesPerSecond: Int { configuration.framesPerSecond }
    /// Each LED is on or off: scenes draw their lit/unlit design for it.
    public var isMonochrome: Bool { true }
    /// Where the bytes go (a capture transport with `dry-run=true`).
    public let bus: any SPIBus

    private let modules: Int
    /// For module m (chain position, 0 nearest the controller): where its digits and bits lie on
    /// the canvas. `limit[i]` is the luma at or above which canvas pixel i is lit, and `lit[i]`
    /// whether it is, this frame (1 or 0): a pass along the canvas, then each module's bytes
    /// gathered from the flags eight at a time (`ModuleBlock`).
    private let blocks: [ModuleBlock]
    private let limit: [UInt8]
    private var lit: [UInt8]
    /// The eight row messages, each `2 × modules` bytes (farthest module's word first), and what
    /// the modules hold now.
    private var frame: [UInt8]
    private var shown: [UInt8]
    private var rowValid: [Bool]
    private var closed = false

    public static let acceptedKeys = transportKeys + ["modules", "rows", "block_orientation", "reverse_order", "rotate", "flip",
                                                      "brightness", "mono", "threshold", "fps"]

    /// The spec's options read and checked, nothing opened (`open`, and `LEDDisplays.checkOptions`).
    static func readOptions(_ spec: DisplaySpec) throws(DisplaySpecError) -> (Configuration, LEDOptionReader, LEDTransportChoice) {
        let options = LEDOptionReader(spec, accepted: acceptedKeys)
        var c = Configuration()
        c.modules = options.int("modules", default: 4, in: 1...256)
        c.rows = options.int("rows", default: 1, in: 1...256)
        if c.modules % c.rows != 0 {
            options.fail(filled("'rows' must divide 'modules' evenly ({} modules cannot make {} equal rows)", String(c.modules), String(c.rows)))
        }
        c.blockOrientation = options.choice("block_orientation", default: 0, names: "0, 90, -90, 270, 180", [0, 90, -90, -90, 180])
        c.reverseOrder = options.bool("reverse_order", default: false)
        c.rotation = options.rotation()
        c.flip = options.flip()
        c.brightness = options.brightness(default: 50)
        c.mono = options.choice("mono", default: .threshold, names: "threshold, dither", [.threshold, .dither])
        c.threshold = options.int("threshold", default: 128, in: 1...255)
        c.framesPerSecond = options.framesPerSecond()
        // 10 MHz: the datasheet's fastest clock (tCP ≥ 100 ns).
        let choice = options.transport(defaultSpeed: 8_000_000, maximumSpeed: 10_000_000, needsLatch: true)
        try options.check()
        return (c, options, choice)
    }

    /// `canvas` as the LEDs show it in threshold mode: opaque white where a pixel's luma is at
    /// least `threshold`, opaque black elsewhere. `loaderctl render --mono` and `preview --mono`
    /// draw through it, so their pictures are what the modules light, not the grey edges under it.
    public static func lit(_ canvas: Canvas, threshold: Int = Configuration().threshold) -> Canvas {
        var lit = canvas
        let on = Color.white.premultiplied, off = Color.black.premultiplied
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let p = canvas[x, y]
                lit[x, y] = Int(LED8.luma(word: UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16)) >= threshold ? on : off
            }
        }
        return lit
    }

    /// Opens the display a spec names, e.g. `max7219:spi=/dev/spidev0.0,modules=8` or
    /// `max7219:gpiochip=gpiochip0,clock=11,data=10,latch=8,modules=4,dry-run=true`.
    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> MAX7219Display {
        let (c, options, choice): (Configuration, LEDOptionReader, LEDTransportChoice)
        do { (c, options, choice) = try readOptions(spec) } catch { throw .spec(error) }
        let bus = try options.openBus(choice, wire: .max7219(modules: c.modules, columns: c.modules / c.rows, blockOrientation: c.blockOrientation, reverseOrder: c.reverseOrder))
        do { return try MAX7219Display(configuration: c, bus: bus, name: spec.description) } catch { throw .device(error) }
    }

    /// A display over `bus`; sends the initialisation sequence.
    public init(configuration c: Configuration, bus: any SPIBus, name: String? = nil) throws(DisplayError) {
        precondition(c.modules >= 1 && c.rows >= 1 && c.modules % c.rows == 0)
        self.configuration = c
        self.bus = bus
        self.modules = c.modules
        self.name = name ?? filled("max7219:{}", bus.name)
        let columns = c.modules / c.rows
        let transform = MatrixTransform(physicalWidth: columns * 8, physicalHeight: c.rows * 8, rotation: c.rotation, flip: c.flip)
        canvasWidth = transform.canvasWidth
        canvasHeight = transform.canvasHeight
        var limit = [UInt8](repeating: UInt8(c.threshold), count: transform.canvasWidth * transform.canvasHeight)
        var blocks: [ModuleBlock] = []
        for m in 0..<c.modules {
            let block = c.reverseOrder ? c.modules - 1 - m : m
            let bx = (block % columns) * 8, by = (block / columns) * 8
            // Native (column = digit, row = bit) holds the visual block rotated counter-clockwise
            // by block_orientation; the canvas pixel of the visual (u, v) it shows.
            // Out of line: inlined at each of its calls (in ModuleBlock.init too), it was code many times over.
            @inline(never) func index(_ digit: Int, _ bit: Int) -> Int {
                let (u, v): (Int, Int)
                switch c.blockOrientation {
                case 90: (u, v) = (7 - bit, digit)
                case -90: (u, v) = (bit, 7 - digit)
                case 180: (u, v) = (7 - digit, 7 - bit)
                default: (u, v) = (digit, bit)
                }
                let p = transform.canvasPoint(x: bx + u, y: by + v)
                return p.y * transform.canvasWidth + p.x
            }
            guard let b = ModuleBlock(width: transform.canvasWidth, index) else { preconditionFailure(filled("module {} is not an 8x8 block of the canvas", String(m))) }
            blocks.append(b)
            if c.mono == .dither {
                for digit in 0..<8 {
                    for bit in 0..<8 {
                        let i = index(digit, bit), x = i % transform.canvasWidth, y = i / transform.canvasWidth
                        limit[i] = LED8.bayer4[(y & 3) * 4 + (x & 3)] * 16 + 8
                    }
                }
            }
        }
        self.blocks = blocks
        self.limit = limit
        lit = [UInt8](repeating: 0, count: limit.count)
        // Each word's register byte, in what is shown too: rows are compared whole.
        var rows = [UInt8](repeating: 0, count: 16 * c.modules)
        for digit in 0..<8 {
            for k in 0..<c.modules { rows[digit * 2 * c.modules + 2 * k] = UInt8(digit + 1) }
        }
        frame = rows
        shown = rows
        rowValid = [Bool](repeating: false, count: 8)
        if 2 * c.modules > bus.maximumMessageLength {
            throw DisplayError(display: self.name, SPIDevice.messageTooLong(device: bus.name, length: 2 * c.modules, bufsiz: bus.maximumMessageLength))
        }
        try initialise()
    }

    deinit { close() }

    /// 0...100 % → MAX7219 intensity 0...15 (0 is the dimmest lit level, not off).
    public static func intensity(forBrightness percent: Int) -> UInt8 { UInt8(LED8.level(percent: percent, maximum: 15)) }

    /// The `brightness` command's percent last applied (100: the configured intensity).
    private var dimmedTo = 100

    /// The `brightness` command on on/off LEDs: the intensity register at that share of the
    /// configured brightness (any share above 0 stays lit, at least at the dimmest level), and
    /// 0 % the shutdown register: all LEDs off, the picture kept for when it comes back.
    public func dim(to percent: Int) throws(DisplayError) -> Bool {
        let percent = Swift.max(0, Swift.min(100, percent))
        if percent == dimmedTo { return true }
        defer { bus.frameSent() }
        if percent == 0 {
            try writeAll(register: MAX7219Display.shutdown, value: 0)
        } else {
            try writeAll(register: MAX7219Display.intensity, value: MAX7219Display.intensity(forBrightness: configuration.brightness * percent / 100))
            if dimmedTo == 0 { try writeAll(register: MAX7219Display.shutdown, value: 1) }
        }
        dimmedTo = percent
        return true
    }

    /// Sends `register = value` to every module (one message).
    public func writeAll(register: UInt8, value: UInt8) throws(DisplayError) {
        var message = [UInt8](repeating: 0, count: 2 * modules)
        for k in 0..<modules { message[2 * k] = register; message[2 * k + 1] = value }
        do { try bus.send(message) } catch { throw DisplayError(display: name, error) }
    }

    /// Scan limit 7, decode 0, test 0, intensity, clear, shutdown 1 (PROTOCOLS.md).
    private func initialise() throws(DisplayError) {
        // What the writes below leave the modules holding (a failed write fails the open).
        for i in 0..<shown.count where i % 2 == 1 { shown[i] = 0 }
        for i in 0..<8 { rowValid[i] = true }
        // The thirteen writes in order from one call (for size): digits 1...8 at steps 4...11.
        for step in 0..<13 {
            var register = UInt8(truncatingIfNeeded: step - 3), value: UInt8 = 0
            switch step {
            case 0: register = MAX7219Display.scanLimit; value = 7
            case 1: register = MAX7219Display.decodeMode
            case 2: register = MAX7219Display.displayTest
            case 3: register = MAX7219Display.intensity; value = MAX7219Display.intensity(forBrightness: configuration.brightness)
            case 12: register = MAX7219Display.shutdown; value = 1
            default: break
            }
            try writeAll(register: register, value: value)
        }
        bus.frameSent()
    }

    public func show(_ canvas: Canvas) throws(DisplayError) {
        precondition(canvas.width == canvasWidth && canvas.height == canvasHeight, "canvas must be \(canvasWidth)x\(canvasHeight)")
        let n = modules
        canvas.pixels.withUnsafeBufferPointer { pixels in
            limit.withUnsafeBufferPointer { limit in
                lit.withUnsafeMutableBufferPointer { lit in
                    let words = UnsafeRawPointer(pixels.baseAddress!)
                    for i in 0..<lit.count {
                        let p = UInt32(littleEndian: words.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                        lit[i] = LED8.luma(word: p) >= limit[i] ? 1 : 0
                    }
                }
            }
        }
        lit.withUnsafeBufferPointer { lit in
            frame.withUnsafeMutableBufferPointer { frame in
                for m in 0..<n {
                    let word = n - 1 - m  // farthest module's word goes first
                    let digits = blocks[m].digits(lit.baseAddress!)
                    for digit in 0..<8 { frame[digit * 2 * n + 2 * word + 1] = UInt8(truncatingIfNeeded: digits >> UInt64(8 * digit)) }
                }
            }
        }
        defer { bus.frameSent() }
        try sendChangedRows()
    }

    /// All LEDs off (through the same changed-rows path).
    public func clear() throws(DisplayError) {
        for i in 0..<frame.count where i % 2 == 1 { frame[i] = 0 }
        defer { bus.frameSent() }
        try sendChangedRows()
    }

    private func sendChangedRows() throws(DisplayError) {
        let length = 2 * modules
        for digit in 0..<8 {
            let start = digit * length
            // The register bytes never change, so a row is the same when all its bytes are.
            if rowValid[digit] && MAX7219Display.same(frame, shown, start, length) { continue }
            rowValid[digit] = false
            let result: Result<Void, TransportError> = frame.withUnsafeBytes { raw in
                do throws(TransportError) {
                    try bus.send(UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)]))
                    return .success(())
                } catch { return .failure(error) }
            }
            if case .failure(let error) = result { throw DisplayError(display: name, error) }
            frame.withUnsafeBytes { from in
                shown.withUnsafeMutableBytes { to in (to.baseAddress! + start).copyMemory(from: from.baseAddress! + start, byteCount: length) }
            }
            rowValid[digit] = true
        }
    }

    /// Whether `a` and `b` hold the same `count` bytes from `start` (memcmp: a word at a time).
    private static func same(_ a: [UInt8], _ b: [UInt8], _ start: Int, _ count: Int) -> Bool {
        a.withUnsafeBytes { a in b.withUnsafeBytes { b in memcmp(a.baseAddress! + start, b.baseAddress! + start, count) == 0 } }
    }

    /// Blanks the modules and puts them in shutdown; the bus is released with the display.
    public func close() {
        if closed { return }
        closed = true
        try? writeAll(register: MAX7219Display.shutdown, value: 0)
        bus.frameSent()
    }
}
