import Displays
import Raster
import Testing
import Transports

@Suite struct MAX7219Tests {
    func display(_ c: MAX7219Display.Configuration) throws -> (MAX7219Display, SPICapture) {
        let capture = SPICapture()
        let d = try MAX7219Display(configuration: c, bus: capture)
        return (d, capture)
    }

    @Test func initialisationSequence() throws {
        var c = MAX7219Display.Configuration()
        c.modules = 3; c.brightness = 100
        let (d, capture) = try display(c)
        defer { withExtendedLifetime(d) {} }
        let words: [(UInt8, UInt8)] = [(0x0B, 7), (0x09, 0), (0x0F, 0), (0x0A, 15)] + (1...8).map { (UInt8($0), 0) } + [(0x0C, 1)]
        #expect(capture.messages.count == words.count)
        for (message, (register, value)) in zip(capture.messages, words) {
            #expect(message == Array([[register, value], [register, value], [register, value]].joined()))
        }
        var chain = MAX7219Chain(modules: 3)
        capture.messages.forEach { chain.message($0) }
        for m in 0..<3 {
            #expect(chain.registers[m][0x0B] == 7 && chain.registers[m][0x09] == 0 && chain.registers[m][0x0F] == 0)
            #expect(chain.registers[m][0x0C] == 1 && chain.registers[m][0x0A] == 15)
        }
    }

    /// The `brightness` command dims on/off LEDs with the chip's registers (their pixels cannot
    /// be dimmed: a threshold turns a dimmed frame off): the intensity at that share of the
    /// configured brightness, 0 % the shutdown register, and back.
    @Test func dimmingUsesTheRegisters() throws {
        var c = MAX7219Display.Configuration()
        c.modules = 2; c.brightness = 80
        let (d, capture) = try display(c)
        func sent(_ percent: Int) throws -> [[UInt8]] {
            capture.removeAll()
            #expect(try d.dim(to: percent))
            return capture.messages
        }
        #expect(try sent(100).isEmpty, "already at 100 %: nothing to send")
        #expect(try sent(50) == [[0x0A, 6, 0x0A, 6]], "50 % of 80 % is intensity 6 of 15")
        #expect(try sent(50).isEmpty, "unchanged: nothing sent")
        #expect(try sent(1) == [[0x0A, 0, 0x0A, 0]], "1 % is still lit, at the dimmest level")
        #expect(try sent(0) == [[0x0C, 0, 0x0C, 0]], "0 % shuts the chips down: every LED off")
        #expect(try sent(100) == [[0x0A, 12, 0x0A, 12], [0x0C, 1, 0x0C, 1]], "back to the configured intensity, out of shutdown")
    }

    @Test func brightnessToIntensity() {
        #expect(MAX7219Display.intensity(forBrightness: 0) == 0)
        #expect(MAX7219Display.intensity(forBrightness: 50) == 8)
        #expect(MAX7219Display.intensity(forBrightness: 100) == 15)
        for p in 0...100 { #expect(Int(MAX7219Display.intensity(forBrightness: p)) == Int((Double(p) * 15 / 100).rounded())) }
    }

    /// Every loader, every orientation option: decode the wire into the lit LEDs and compare with
    /// the frame turned, mirrored and thresholded.
    @Test(arguments: [(4, 1), (8, 2), (6, 3)])
    func everyLoaderEveryOrientation(modules: Int, rows: Int) throws {
        let columns = modules / rows
        var framesBySize: [String: [(String, Canvas)]] = [:]
        var litTotal = 0
        defer { #expect(litTotal > 1000, "the loaders light LEDs, so the comparison means something") }
        for orientation in [0, 90, -90, 180] {
            for rotation in MatrixRotation.allCases {
                for reverse in [false, true] {
                    for flip in [MatrixFlip.none, .horizontal, .vertical] {
                        var c = MAX7219Display.Configuration()
                        c.modules = modules; c.rows = rows; c.blockOrientation = orientation
                        c.reverseOrder = reverse; c.rotation = rotation; c.flip = flip
                        let (d, capture) = try display(c)
                        let key = "\(d.canvasWidth)x\(d.canvasHeight)"
                        if framesBySize[key] == nil { framesBySize[key] = try loaderFrames(width: d.canvasWidth, height: d.canvasHeight) }
                        var chain = MAX7219Chain(modules: modules)
                        capture.messages.forEach { chain.message($0) }
                        for (label, canvas) in framesBySize[key]! {
                            capture.removeAll()
                            try d.show(canvas)
                            capture.messages.forEach { chain.message($0) }
                            for message in capture.messages { #expect(message.count == 2 * modules) }
                            let seen = chain.picture(columns: columns, blockOrientation: orientation, reverseOrder: reverse)
                            let expected = Picture(canvas).rotated(clockwise: rotation.rawValue).flipped(flip)
                            let lit = Picture(width: expected.width, height: expected.height, fill: false)
                            var want = lit
                            for i in want.values.indices { want.values[i] = luma(expected.values[i]) >= 128 }
                            litTotal += want.values.filter { $0 }.count
                            #expect(seen == want, "\(label) orientation \(orientation) rotate \(rotation.rawValue) reverse \(reverse) flip \(flip)")
                        }
                    }
                }
            }
        }
    }

    @Test func ditherFollowsBayer() throws {
        var c = MAX7219Display.Configuration()
        c.modules = 4; c.mono = .dither
        let (d, capture) = try display(c)
        var chain = MAX7219Chain(modules: 4)
        capture.messages.forEach { chain.message($0) }
        let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        for (label, canvas) in try loaderFrames(width: 32, height: 8) {
            capture.removeAll()
            try d.show(canvas)
            capture.messages.forEach { chain.message($0) }
            let seen = chain.picture(columns: 4, blockOrientation: 0, reverseOrder: false)
            var want = Picture(width: 32, height: 8, fill: false)
            for y in 0..<8 { for x in 0..<32 { want[x, y] = luma(canvas[x, y]) >= bayer[(y % 4) * 4 + x % 4] * 16 + 8 } }
            #expect(seen == want, "\(label)")
        }
        // A flat 50 % grey lights half the LEDs of every 4x4 cell.
        var grey = Canvas(width: 32, height: 8)
        grey.clear(to: Color(r: 128, g: 128, b: 128))
        capture.removeAll()
        try d.show(grey)
        capture.messages.forEach { chain.message($0) }
        #expect(chain.picture(columns: 4, blockOrientation: 0, reverseOrder: false).values.filter { $0 }.count == 128)
    }

    @Test func onlyChangedRowsAndNothingWhenUnchanged() throws {
        var c = MAX7219Display.Configuration()
        c.modules = 4
        let (d, capture) = try display(c)
        var canvas = Canvas(width: 32, height: 8)
        capture.removeAll()
        try d.show(canvas)
        #expect(capture.messages.isEmpty, "a blank frame after the init clear sends nothing")
        canvas[5, 3] = Color.white.premultiplied
        try d.show(canvas)
        // Pixel (5, 3) is column 5 of the first module: digit register 6, bit 3.
        #expect(capture.messages.count == 1)
        var expected = [UInt8](repeating: 0, count: 8)
        for k in 0..<4 { expected[2 * k] = 6 }
        expected[2 * 3 + 1] = 1 << 3  // module 0 (nearest) is the last word
        #expect(capture.messages[0] == expected)
        capture.removeAll()
        try d.show(canvas)
        #expect(capture.messages.isEmpty)
        canvas[5, 3] = .transparent; canvas[30, 0] = Color.white.premultiplied; canvas[31, 7] = Color.white.premultiplied
        try d.show(canvas)
        #expect(capture.messages.count == 3, "column 5 cleared, columns 30 and 31 lit: digits 6, 7, 8")
        capture.removeAll()
        try d.clear()
        #expect(capture.messages.count == 2)
        try d.clear()
        #expect(capture.messages.count == 2)
    }

    @Test func failedSendIsRetriedNextFrame() throws {
        final class Flaky: SPIBus {
            var fail = false
            var sent: [[UInt8]] = []
            var name: String { "flaky" }
            var maximumMessageLength: Int { 4096 }
            func send(_ message: UnsafeRawBufferPointer) throws(TransportError) {
                if fail { throw TransportError(device: "flaky", message: "unplugged") }
                sent.append(Array(message))
            }
        }
        let bus = Flaky()
        let d = try MAX7219Display(configuration: .init(), bus: bus)
        var canvas = Canvas(width: 32, height: 8)
        canvas[0, 0] = Color.white.premultiplied
        bus.fail = true
        #expect(throws: DisplayError.self) { try d.show(canvas) }
        bus.fail = false
        bus.sent.removeAll()
        try d.show(canvas)
        #expect(bus.sent.count == 1)
    }

    @Test func closeShutsDown() throws {
        let (d, capture) = try display(.init())
        capture.removeAll()
        d.close()
        d.close()
        #expect(capture.messages == [[0x0C, 0, 0x0C, 0, 0x0C, 0, 0x0C, 0]])
    }

    @Test func bitBangedOverGPIO() throws {
        let lines = GPIOCapture(lineNames: ["clock", "data", "latch"], initial: BitBangSPI.idleState(hasLatch: true))
        let bus = BitBangSPI(lines: lines, hasLatch: true)
        var c = MAX7219Display.Configuration()
        c.modules = 4; c.blockOrientation = -90
        let d = try MAX7219Display(configuration: c, bus: bus)
        var chain = MAX7219Chain(modules: 4)
        for (label, canvas) in try loaderFrames(width: 32, height: 8) {
            try d.show(canvas)
            let messages = decodeBitBang(lines.states, hasLatch: true)
            var fresh = MAX7219Chain(modules: 4)
            messages.forEach { fresh.message($0) }
            chain = fresh
            var want = Picture(width: 32, height: 8, fill: false)
            for y in 0..<8 { for x in 0..<32 { want[x, y] = luma(canvas[x, y]) >= 128 } }
            #expect(chain.picture(columns: 4, blockOrientation: -90, reverseOrder: false) == want, "\(label)")
        }
    }
}
