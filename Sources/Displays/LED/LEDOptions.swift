import Raster
import Transports
import CompactText

/// Reads the `key=value` options of an LED display spec, refusing unknown keys and bad values
/// with a message naming the key and what it accepts. Input boundary: runs once, at open.
///
/// A value's reader does not throw: it records the first bad value's message and returns its
/// default, and `check()` throws that message once every option is read. The first bad value, in
/// the order the options are read, is the one named, as when each read threw; a read is a plain
/// call rather than a call and a branch to an error path (for size). A class for size too: each
/// read is passed one reference rather than the spec's and the accepted keys' several words.
final class LEDOptionReader {
    let spec: DisplaySpec
    let accepted: [String]
    /// The first bad value's message, or nil.
    private var problem: String?

    /// An unknown key is the first problem, so it is the one `check()` throws.
    init(_ spec: DisplaySpec, accepted: [String]) {
        self.spec = spec
        self.accepted = accepted
        for option in spec.options where !accepted.contains(option.key) {
            fail(filled("unknown option '{}'; {} accepts: {}", option.key, spec.type, accepted.joined(separator: ", ")))
            break
        }
    }

    func error(_ message: String) -> DisplaySpecError { DisplaySpecError(spec: spec.description, message: message) }

    /// Records a bad value's message, unless an earlier one was recorded.
    func fail(_ message: String) { if problem == nil { problem = message } }

    /// Throws the first bad value's error, if a read found one: once every option is read.
    func check() throws(DisplaySpecError) { if let problem { throw error(problem) } }

    func string(_ key: String) -> String? { spec[key] }

    func int(_ key: String, default value: Int, in range: ClosedRange<Int>) -> Int {
        guard let text = spec[key] else { return value }
        guard let n = Int(text), range.contains(n) else {
            fail(filled("'{}' must be an integer in {}...{}, got '{}'", key, String(range.lowerBound), String(range.upperBound), text))
            return value
        }
        return n
    }

    func double(_ key: String, default value: Double, in range: ClosedRange<Double>) -> Double {
        guard let text = spec[key] else { return value }
        guard let n = Double(text), range.contains(n) else {
            fail(filled("'{}' must be a number in {}...{}, got '{}'", key, range.lowerBound.decimalText, range.upperBound.decimalText, text))
            return value
        }
        return n
    }

    func bool(_ key: String, default value: Bool) -> Bool {
        guard let text = spec[key] else { return value }
        guard let flag = parseYesNo(text) else {
            fail(filled("'{}' must be true or false (or yes/no, on/off, 1/0), got '{}'", key, text))
            return value
        }
        return flag
    }

    /// The value at the position in `names` (lower case, separated by ", ") of the name the key's
    /// value gives, in ASCII any case; `value` when the key is not given or names none of them.
    func choice<T>(_ key: String, default value: T, names: String, _ values: [T]) -> T {
        guard let index = choiceIndex(key, names: names) else { return value }
        return values[index]
    }

    /// Which of `names` (separated by ", ") the key's value names (nil: the key is not given, or
    /// names none of them). The part of `choice` that does not depend on the values' type, so it
    /// is in the binary once. The names are one string read over its bytes, as the message lists
    /// them, rather than an array of (name, value) pairs built at each call (for size).
    @inline(never) func choiceIndex(_ key: String, names: String) -> Int? {
        guard let text = spec[key] else { return nil }
        // The value's bytes lowered as they are compared, not a lowered copy made first (for size).
        let given = Array(text.utf8), bytes = Array(names.utf8)
        var index = 0, start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
            var k = 0
            while k < given.count && start + k < end
                    && bytes[start + k] == (given[k] &- UInt8(ascii: "A") < 26 ? given[k] | 0x20 : given[k]) { k += 1 }
            if k == given.count && start + k == end { return index }
            index += 1
            start = end + 2
        }
        fail(filled("'{}' must be one of {}, got '{}'", key, names, text))
        return nil
    }

    /// `WxH`, each side in `range`; (0, 0) when it is bad or missing without a default.
    func size(_ key: String, default value: (Int, Int)?, in range: ClosedRange<Int>) -> (width: Int, height: Int) {
        if let text = spec[key] {
            if let (w, h) = parseDimensions(text), range.contains(w), range.contains(h) { return (w, h) }
            fail(filled("'{}' must be WIDTHxHEIGHT with sides in {}...{}, got '{}'", key, String(range.lowerBound), String(range.upperBound), text))
        } else {
            if let value { return value }
            fail(filled("'{}' is required, e.g. {}=16x16", key, key))
        }
        return (0, 0)
    }

    func rotation(_ key: String = "rotate") -> MatrixRotation {
        choice(key, default: .none, names: "0, 90, 180, 270", [.none, .clockwise90, .half, .clockwise270])
    }

    func flip() -> MatrixFlip {
        choice("flip", default: .none, names: "none, false, horizontal, h, true, vertical, v, both",
               [.none, .none, .horizontal, .horizontal, .horizontal, .vertical, .vertical, .both])
    }

    /// 0...100 percent.
    func brightness(default value: Int = 100) -> Int {
        int("brightness", default: value, in: 0...100)
    }

    func framesPerSecond(default value: Int = 60) -> Int {
        int("fps", default: value, in: 1...240)
    }

    /// `order`: one of `ColorOrder.all`, whose names these are, in its order.
    func colorOrder(default value: ColorOrder) -> ColorOrder {
        guard let index = choiceIndex("order", names: "rgb, rbg, grb, gbr, brg, bgr") else { return value }
        return ColorOrder.all[index].1
    }

    func gamma() -> Double { double("gamma", default: 2.2, in: 0.1...5) }
}

/// Keys every LED display takes for its transport.
let transportKeys = ["spi", "speed", "gpiochip", "clock", "data", "latch", "dry-run"]

/// How an LED display reaches its chips, as given in the spec.
enum LEDTransportChoice {
    case spi(path: String, speed: UInt32)
    case gpio(chip: String, clock: UInt32, data: UInt32, latch: UInt32?)
}

extension LEDOptionReader {
    /// `spi=/dev/spidevB.C[,speed=HZ]` (the default, /dev/spidev0.0) or
    /// `gpiochip=CHIP,clock=N,data=N[,latch=N]`. `maximumSpeed`: the fastest clock the chip takes
    /// (docs/HARDWARE.md's table): a faster one is refused here, where it is a typo, rather than
    /// left to show garbage on the LEDs. `needsLatch`: the chip needs a chip select line
    /// (MAX7219). WS2812, whose timing bit-banging cannot meet, refuses `gpiochip=` before it
    /// gets here (`WS2812Display.readOptions`).
    func transport(defaultSpeed: UInt32, maximumSpeed: Int, needsLatch: Bool) -> LEDTransportChoice {
        var choice = LEDTransportChoice.spi(path: "", speed: 0)
        if let message = transportProblem(&choice, defaultSpeed: defaultSpeed, maximumSpeed: maximumSpeed, needsLatch: needsLatch) {
            fail(message)
        }
        return choice
    }

    /// `transport`'s checks in order: the first failing one's message, or nil with `choice` set.
    private func transportProblem(_ choice: inout LEDTransportChoice, defaultSpeed: UInt32, maximumSpeed: Int, needsLatch: Bool) -> String? {
        if let chip = spec["gpiochip"] {
            if spec["spi"] != nil { return "give either spi= or gpiochip=, not both" }
            if spec["speed"] != nil { return "'speed' applies to spi= only; a bit-banged bus runs as fast as libgpiod can toggle lines" }
            var badLine: String?
            func line(_ key: String) -> UInt32? {
                guard let text = spec[key] else { return nil }
                guard let n = UInt32(text), n < 1024 else { badLine = filled("'{}' must be a line offset on {} (0, 1, ...), got '{}'", key, chip, text); return nil }
                return n
            }
            guard let clock = line("clock"), let data = line("data") else {
                return badLine ?? "gpiochip= needs clock= and data= line offsets, e.g. gpiochip=gpiochip0,clock=11,data=10" + (needsLatch ? ",latch=8" : "")
            }
            let latch = line("latch")
            if let badLine { return badLine }
            // Either latch message, the type joined once (for size).
            if needsLatch == (latch == nil) {
                return spec.type + (needsLatch ? " over GPIO needs latch= (the line wired to LOAD/CS), e.g. latch=8" : " has no latch line; drop latch=")
            }
            choice = .gpio(chip: chip, clock: clock, data: data, latch: latch)
            return nil
        }
        // The first of clock, data and latch given, without an array of the three built (for size).
        if let key = spec["clock"] != nil ? "clock" : spec["data"] != nil ? "data" : spec["latch"] != nil ? "latch" : nil {
            return filled("'{}' needs gpiochip= (bit-banged SPI over GPIO)", key)
        }
        let path = spec["spi"] ?? "/dev/spidev0.0"
        guard path.hasPrefix("/") else { return filled("'spi' must be a device path such as /dev/spidev0.0, got '{}'", path) }
        var speed = defaultSpeed
        if let text = spec["speed"] {
            guard let n = Int(text), (10_000...maximumSpeed).contains(n) else {
                return filled("'speed' must be an integer in 10000...{}, got '{}' (in Hz; {}'s clock is at most {} MHz)", String(maximumSpeed), text, spec.type, String(maximumSpeed / 1_000_000))
            }
            speed = UInt32(n)
        }
        choice = .spi(path: path, speed: speed)
        return nil
    }

    /// `dry-run=`'s yes and no words; nil for anything else, which names a picture's path.
    static func dryRunFlag(_ text: String) -> Bool? { parseYesNo(text) }

    /// `dry-run=` as `openBus` reads it: a yes/no word or a picture's path (.png or .ppm).
    func checkDryRun() throws(DisplaySpecError) {
        guard let text = spec["dry-run"], Self.dryRunFlag(text) == nil else { return }
        if let problem = WirePreview.pathProblem(text) { throw error(problem) }
    }

    /// Opens the bus chosen by `transport`; with `dry-run=true` a capture transport that keeps
    /// the last messages in memory; with `dry-run=FILE.png` (or `.ppm`) a `WirePreview` that
    /// decodes the bytes as the LEDs would (`wire`) and keeps FILE showing what they show.
    /// A device error names the display by its spec, as the display does.
    func openBus(_ choice: LEDTransportChoice, wire: WireFormat) throws(DisplayOpenError) -> any SPIBus {
        var dryRun = false
        if let text = spec["dry-run"] {
            guard let flag = Self.dryRunFlag(text) else {
                // Over SPI, as long a message as the real device would take (as `dry-run=true`):
                // a frame too big for spidev's bufsiz is refused with the fix, as it would be.
                var maximum = 1 << 20
                if case .spi = choice { maximum = SPIDevice.readBufsiz() }
                do { return try WirePreview(path: text, format: wire, maximumMessageLength: maximum) } catch {
                    throw .spec(DisplaySpecError(spec: spec.description, message: error.message))
                }
            }
            dryRun = flag
        }
        do {
            switch choice {
            case .spi(let path, let speed):
                if dryRun {
                    // As long a message as the real device would take, so a dry run finds frames too big for bufsiz.
                    return SPICapture(name: filled("dry-run {}", path), maximumMessageLength: SPIDevice.readBufsiz(), recording: .last(64))
                }
                return try SPIDevice(path: path, mode: 0, speedHz: speed)
            case .gpio(let chip, let clock, let data, let latch):
                // One bus made over either kind of lines (for size).
                let lines: any GPIOOutputLines = dryRun
                    ? GPIOCapture(name: filled("dry-run {}", chip), lineNames: BitBangSPI.lineNames(hasLatch: latch != nil),
                                  initial: BitBangSPI.idleState(hasLatch: latch != nil), recording: .last(1 << 16))
                    : try BitBangSPI.requestLines(chip: chip, clock: clock, data: data, latch: latch)
                return BitBangSPI(lines: lines, hasLatch: latch != nil)
            }
        } catch {
            throw .device(DisplayError(display: spec.description, message: error.description))
        }
    }
}

extension DisplayError {
    init(display: String, _ error: TransportError) { self.init(display: display, message: error.description) }
}

extension SPIBus {
    /// Sends a strip display's whole frame buffer and reports a transport failure as the
    /// display's. `splitting`: in bufsiz pieces (APA102, which has no timing); otherwise as one
    /// message (WS2812, where a pause between messages would end the frame early). The Result
    /// carries the typed error out of `withUnsafeBytes`, whose `rethrows` would erase its type.
    func sendFrame(_ frame: [UInt8], splitting: Bool, display: String) throws(DisplayError) {
        let result: Result<Void, TransportError> = frame.withUnsafeBytes { raw in
            do throws(TransportError) {
                if splitting { try sendSplitting(raw) } else { try send(raw) }
                return .success(())
            } catch { return .failure(error) }
        }
        if case .failure(let error) = result { throw DisplayError(display: display, error) }
        frameSent()
    }
}
