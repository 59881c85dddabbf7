import Displays
import Glibc
import Loaders
import Raster
import Transports

// Decoders that turn captured wire traffic back into pixels, written from the protocol facts
// (PROTOCOLS.md) and in the forward direction (how a picture lands on the LEDs), independently of
// the displays' inverse index tables.

/// A monochrome or colour picture, row-major.
struct Picture<T: Equatable>: Equatable {
    var width: Int, height: Int
    var values: [T]
    init(width: Int, height: Int, fill: T) { self.width = width; self.height = height; values = Array(repeating: fill, count: width * height) }
    subscript(x: Int, y: Int) -> T {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }

    /// This picture turned clockwise by `degrees` (0, 90, 180, 270).
    func rotated(clockwise degrees: Int) -> Picture {
        var p = self
        for _ in 0..<((degrees / 90) % 4) {
            var r = Picture(width: p.height, height: p.width, fill: p.values[0])
            for y in 0..<p.height { for x in 0..<p.width { r[p.height - 1 - y, x] = p[x, y] } }
            p = r
        }
        return p
    }

    func flipped(_ flip: MatrixFlip) -> Picture {
        var r = self
        for y in 0..<height {
            for x in 0..<width {
                let sx = (flip == .horizontal || flip == .both) ? width - 1 - x : x
                let sy = (flip == .vertical || flip == .both) ? height - 1 - y : y
                r[x, y] = self[sx, sy]
            }
        }
        return r
    }
}

extension Picture where T == Pixel {
    init(_ canvas: Canvas) {
        self.init(width: canvas.width, height: canvas.height, fill: .transparent)
        values = canvas.pixels
    }
}

/// Frames of every loader at `width × height`, at a few times (with progress for the bar).
func loaderFrames(width: Int, height: Int, times: [Int64] = [0, 180_000, 650_000, 1_400_000]) throws -> [(String, Canvas)] {
    var frames: [(String, Canvas)] = []
    for name in Catalog.names {
        var scene = Scene(loader: try Catalog.make(name), width: width, height: height)
        for t in times {
            scene.render(FrameState(elapsed: t, progress: ProgressState(from: 0, to: 1, changedAt: 0)))
            frames.append(("\(name)@\(t)", scene.canvas))
        }
    }
    return frames
}

func luma(_ p: Pixel) -> Int { (54 * Int(p.r) + 183 * Int(p.g) + 19 * Int(p.b) + 128) >> 8 }

/// The reference gamma curve.
func referenceGamma(_ value: UInt8, _ gamma: Double) -> UInt8 {
    UInt8((pow(Double(value) / 255, gamma) * 255).rounded())
}

// MARK: MAX7219

/// A chain of MAX7219s as the silicon behaves: each 16-bit word shifts in at module 0 (nearest the
/// controller) and pushes the others one module along; when LOAD rises each module latches the
/// word it holds.
struct MAX7219Chain {
    var registers: [[UInt8]]
    var latches = 0
    init(modules: Int) { registers = Array(repeating: Array(repeating: 0xEE, count: 16), count: modules) }

    mutating func message(_ bytes: [UInt8]) {
        precondition(bytes.count % 2 == 0, "MAX7219 messages are whole 16-bit words")
        var shift = Array(repeating: UInt16(0), count: registers.count)
        for w in stride(from: 0, to: bytes.count, by: 2) {
            shift.insert(UInt16(bytes[w]) << 8 | UInt16(bytes[w + 1]), at: 0)
            shift.removeLast()
        }
        for m in registers.indices {
            let register = Int((shift[m] >> 8) & 0x0F)
            if register != 0 { registers[m][register] = UInt8(shift[m] & 0xFF) }
        }
        latches += 1
    }

    /// The lit LEDs as seen, for modules in a grid of `columns` per row, with luma.led_matrix's
    /// conventions: native column = digit − 1, native row = data bit; the native block is the
    /// visual block turned counter-clockwise by `blockOrientation`.
    func picture(columns: Int, blockOrientation: Int, reverseOrder: Bool) -> Picture<Bool> {
        let n = registers.count, rows = n / columns
        var p = Picture(width: columns * 8, height: rows * 8, fill: false)
        for m in 0..<n {
            var native = Picture(width: 8, height: 8, fill: false)
            for digit in 0..<8 { for bit in 0..<8 { native[digit, bit] = (registers[m][digit + 1] >> UInt8(bit)) & 1 == 1 } }
            let turns = [0: 0, 90: 90, -90: 270, 180: 180][blockOrientation]!
            let visual = native.rotated(clockwise: turns)
            let block = reverseOrder ? n - 1 - m : m
            let bx = (block % columns) * 8, by = (block / columns) * 8
            for y in 0..<8 { for x in 0..<8 { p[bx + x, by + y] = visual[x, y] } }
        }
        return p
    }
}

// MARK: Bit-banged SPI

/// Turns recorded GPIO states back into SPI messages: data sampled on each clock rising edge,
/// most significant bit first; with a latch line a message runs from its falling to its rising
/// edge, without one the whole trace is one stream.
func decodeBitBang(_ states: [UInt64], hasLatch: Bool) -> [[UInt8]] {
    var messages: [[UInt8]] = []
    var current: [UInt8] = [], byte: UInt8 = 0, bits = 0, inMessage = !hasLatch
    var previous = states.first ?? 0
    for s in states.dropFirst() {
        if hasLatch {
            let was = previous & BitBangSPI.latchBit != 0, now = s & BitBangSPI.latchBit != 0
            if was && !now { inMessage = true; current = []; bits = 0 }
            if !was && now { inMessage = false; messages.append(current) }
        }
        if inMessage && previous & BitBangSPI.clockBit == 0 && s & BitBangSPI.clockBit != 0 {
            byte = byte << 1 | (s & BitBangSPI.dataBit != 0 ? 1 : 0)
            bits += 1
            if bits == 8 { current.append(byte); bits = 0; byte = 0 }
        }
        previous = s
    }
    if !hasLatch { messages.append(current) }
    return messages
}

// MARK: Strips (APA102, WS2812)

/// Physical positions of the strip's LEDs in order, by walking the panel from the origin corner.
func walk(width: Int, height: Int, layout: StripLayout, origin: StripOrigin) -> [(Int, Int)] {
    let right = origin == .topLeft || origin == .bottomLeft
    let down = origin == .topLeft || origin == .topRight
    var out: [(Int, Int)] = []
    switch layout {
    case .rows, .serpentine:
        for r in 0..<height {
            let y = down ? r : height - 1 - r
            var forward = right
            if layout == .serpentine && r % 2 == 1 { forward.toggle() }
            for c in 0..<width { out.append((forward ? c : width - 1 - c, y)) }
        }
    case .columns, .columnSerpentine:
        for c in 0..<width {
            let x = right ? c : width - 1 - c
            var forward = down
            if layout == .columnSerpentine && c % 2 == 1 { forward.toggle() }
            for r in 0..<height { out.append((x, forward ? r : height - 1 - r)) }
        }
    }
    return out
}

struct APA102LED: Equatable { var brightness: UInt8; var r: UInt8, g: UInt8, b: UInt8 }

/// Parses one APA102/SK9822 frame: start frame, `count` LED frames, end frame.
func parseAPA102(_ bytes: [UInt8], count: Int, sk9822: Bool) throws -> [APA102LED] {
    struct Bad: Error, CustomStringConvertible { let description: String }
    guard bytes.count >= 4 + 4 * count else { throw Bad(description: "frame of \(bytes.count) bytes is too short for \(count) LEDs") }
    guard bytes[0..<4].allSatisfy({ $0 == 0 }) else { throw Bad(description: "start frame is not 32 zero bits") }
    var leds: [APA102LED] = []
    for i in 0..<count {
        let k = 4 + 4 * i
        guard bytes[k] & 0xE0 == 0xE0 else { throw Bad(description: "LED \(i) does not start with 0b111") }
        leds.append(APA102LED(brightness: bytes[k] & 0x1F, r: bytes[k + 3], g: bytes[k + 2], b: bytes[k + 1]))
    }
    let tail = bytes[(4 + 4 * count)...]
    guard tail.allSatisfy({ $0 == 0 }) else { throw Bad(description: "end frame is not zeros") }
    let needed = (sk9822 ? 32 : 0) + (count + 1) / 2  // extra clock edges
    guard tail.count * 8 >= needed, tail.count >= 4 else { throw Bad(description: "end frame of \(tail.count) bytes gives fewer than \(needed) clock edges") }
    return leds
}

/// Decodes a WS2812 SPI stream back to colour bytes in wire order, and the reset gap in bytes.
func decodeWS2812(_ bytes: [UInt8], encoding: Int, leds: Int) throws -> (colorBytes: [UInt8], trailingZeroBytes: Int) {
    struct Bad: Error, CustomStringConvertible { let description: String }
    var ledBits: [Bool] = []
    let body = leds * 3 * encoding
    guard bytes.count >= body else { throw Bad(description: "stream too short") }
    if encoding == 8 {
        for b in bytes[..<body] {
            switch b {
            case 0b1111_0000: ledBits.append(true)
            case 0b1100_0000: ledBits.append(false)
            default: throw Bad(description: "byte \(b) is not an 8-bit WS2812 pattern")
            }
        }
    } else {
        var spiBits: [Bool] = []
        for b in bytes[..<body] { for i in (0..<8).reversed() { spiBits.append((b >> UInt8(i)) & 1 == 1) } }
        for i in stride(from: 0, to: spiBits.count, by: 3) {
            switch (spiBits[i], spiBits[i + 1], spiBits[i + 2]) {
            case (true, true, false): ledBits.append(true)
            case (true, false, false): ledBits.append(false)
            default: throw Bad(description: "SPI bits \(i)... are not a 3-bit WS2812 pattern")
            }
        }
    }
    var colour: [UInt8] = []
    for i in stride(from: 0, to: ledBits.count, by: 8) {
        var v: UInt8 = 0
        for k in 0..<8 { v = v << 1 | (ledBits[i + k] ? 1 : 0) }
        colour.append(v)
    }
    let tail = bytes[body...]
    guard tail.allSatisfy({ $0 == 0 }) else { throw Bad(description: "reset gap is not low") }
    return (colour, tail.count)
}
