import Displays
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing
import Transports

/// `dry-run=FILE`: the picture the LEDs would show, decoded from the wire bytes, one pixel per LED.
@Suite struct DryRunFileTests {
    static func path(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-dry-\(getpid())-\(name)").path
    }

    @Test("max7219: lit LEDs white, unlit black, in the physical layout; rewritten when the picture changes")
    func max7219() throws {
        let file = Self.path("max.png")
        let display = try MAX7219Display.open(try DisplaySpec(parsing: "max7219:modules=4,block_orientation=90,dry-run=\(file)"))
        defer { display.close() }
        #expect(display.isMonochrome)
        var canvas = Canvas(width: 32, height: 8)
        canvas.fill(Rectangle(FixedRect(x: 3, y: 1, width: 10, height: 4)), with: .solid(.white))
        try display.show(canvas)
        let image = try PNG.read(path: file)
        #expect(image.width == 32 && image.height == 8)
        for y in 0..<8 { for x in 0..<32 {
            let on = x >= 3 && x < 13 && y >= 1 && y < 5
            #expect(image[x, y] == (on ? Color.white : Color.black), "(\(x), \(y))")
        } }
        canvas.clear()
        try display.show(canvas)
        #expect(try PNG.read(path: file)[5, 2] == .black)
    }

    /// The sRGB byte a screen shows linear light `duty`/255 with (IEC 61966-2-1), from libm.
    static func screen(_ duty: Int) -> UInt8 {
        let light = Double(duty) / 255
        let value = light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055
        return UInt8((value * 255).rounded())
    }

    @Test("apa102 and ws2812: each LED's light after brightness and gamma, as a screen shows it; PPM or PNG by extension")
    func strips() throws {
        let ppm = Self.path("apa.ppm"), png = Self.path("ws.png")
        // gamma=1: the wire carries the frame's bytes, which LEDs give as linear light.
        let apa = try APA102Display.open(try DisplaySpec(parsing: "apa102:size=4x2,layout=serpentine,brightness=100,gamma=1,dry-run=\(ppm)"))
        let ws = try WS2812Display.open(try DisplaySpec(parsing: "ws2812:size=4x2,layout=serpentine,brightness=100,gamma=1,dry-run=\(png)"))
        defer { apa.close(); ws.close() }
        var canvas = Canvas(width: 4, height: 2)
        canvas[0, 0] = Color(r: 255, g: 0, b: 0).premultiplied
        canvas[3, 1] = Color(r: 0, g: 128, b: 255).premultiplied
        canvas[1, 1] = Color(r: 10, g: 20, b: 30).premultiplied
        try apa.show(canvas)
        try ws.show(canvas)
        for image in [try PPM.read(path: ppm), try PNG.read(path: png)] {
            #expect(image.width == 4 && image.height == 2)
            #expect(image[0, 0] == Color(r: 255, g: 0, b: 0))
            #expect(image[3, 1] == Color(r: 0, g: Self.screen(128), b: 255))
            #expect(image[3, 1].g == 188, "an LED at half duty looks like sRGB 188, not 128")
            #expect(image[1, 1] == Color(r: Self.screen(10), g: Self.screen(20), b: Self.screen(30)))
            #expect(image[2, 0] == .black)
        }
        // Half brightness halves APA102's 5-bit current (15/31), so its light.
        let dim = try APA102Display.open(try DisplaySpec(parsing: "apa102:size=4x2,brightness=50,gamma=1,dry-run=\(ppm)"))
        try dim.show(canvas)
        let expected = Self.screen(255 * Int(APA102Display.globalBrightness(percent: 50)) / 31)
        #expect(try PPM.read(path: ppm)[0, 0] == Color(r: expected, g: 0, b: 0))
        dim.close()
    }

    @Test("apa102 and ws2812 at the default gamma and full brightness: the picture looks like the frame drawn")
    func stripsLookLikeTheFrame() throws {
        let png = Self.path("ws-default.png"), ppm = Self.path("apa-default.ppm")
        let ws = try WS2812Display.open(try DisplaySpec(parsing: "ws2812:size=16x16,brightness=100,dry-run=\(png)"))
        let apa = try APA102Display.open(try DisplaySpec(parsing: "apa102:size=16x16,brightness=100,dry-run=\(ppm)"))
        defer { ws.close(); apa.close() }
        var canvas = Canvas(width: 16, height: 16)
        for i in 0..<256 { canvas[i % 16, i / 16] = Color(r: UInt8(i), g: UInt8(255 - i), b: UInt8(i / 2)).premultiplied }
        try ws.show(canvas)
        try apa.show(canvas)
        for image in [try PNG.read(path: png), try PPM.read(path: ppm)] {
            var worst = 0, worstBright = 0
            for i in 0..<256 {
                let p = image[i % 16, i / 16]
                for (shown, drawn) in [(Int(p.r), i), (Int(p.g), 255 - i), (Int(p.b), i / 2)] {
                    worst = max(worst, abs(shown - drawn))
                    if drawn >= 64 { worstBright = max(worstBright, abs(shown - drawn)) }
                }
            }
            // Gamma 2.2 against sRGB's curve, each rounded to a byte on the way: a few units apart
            // from 64 up; the darkest values most (drawn 14 is duty 0: eight bits of PWM have no
            // finer step there). Written as the wire bytes were, 128 showed as 56.
            #expect(worstBright <= 3, "worst difference from 64 up: \(worstBright)")
            #expect(worst <= 14, "worst difference: \(worst)")
        }
    }

    @Test("max7219: the file shows whole frames; rows sent of a frame not yet finished do not reach it")
    func max7219WholeFrames() throws {
        let file = Self.path("rows.png")
        let preview = try WirePreview(path: file, format: .max7219(modules: 1, columns: 1, blockOrientation: 0, reverseOrder: false))
        // A chip powers up shut down, showing nothing whatever its registers hold: out of it first.
        try preview.send([3, 0xFF])
        preview.frameSent()
        #expect(try PNG.read(path: file)[2, 4] == .black, "a chip still in shutdown shows nothing")
        try preview.send([0x0C, 1])
        preview.frameSent()
        #expect(try PNG.read(path: file)[2, 4] == .white, "out of shutdown, the register kept shows")
        try preview.send([3, 0x00])
        preview.frameSent()
        // Digit 3 (block column 2) all lit, then digit 5 (column 4): two of a frame's row messages.
        try preview.send([3, 0xFF])
        #expect(try PNG.read(path: file)[2, 4] == .black, "one row of a frame in the file before the frame is sent whole")
        try preview.send([5, 0xFF])
        preview.frameSent()
        let image = try PNG.read(path: file)
        for y in 0..<8 { #expect(image[2, y] == .white && image[4, y] == .white && image[3, y] == .black, "row \(y)") }
        // A display's frame: the file is written once the frame is sent, as its last row is.
        var one = MAX7219Display.Configuration()
        one.modules = 1
        let display = try MAX7219Display(configuration: one, bus: preview)
        var canvas = Canvas(width: 8, height: 8)
        canvas.fill(Rectangle(FixedRect(x: 0, y: 0, width: 8, height: 8)), with: .solid(.white))
        try display.show(canvas)
        #expect(try PNG.read(path: file)[7, 7] == .white)
    }

    @Test("a dry-run file that is neither .png nor .ppm, or cannot be written, is refused at open naming what is accepted")
    func refusals() throws {
        #expect(throws: DisplayOpenError.self) { try MAX7219Display.open(try DisplaySpec(parsing: "max7219:dry-run=/tmp/leds.jpg")) }
        #expect(throws: DisplayOpenError.self) { try MAX7219Display.open(try DisplaySpec(parsing: "max7219:dry-run=/nonexistent/dir/leds.png")) }
        // A WS2812 frame longer than this machine's spidev bufsiz (4096 where spidev is not
        // loaded, as on a stock Pi) is refused with the fix, as the real device refuses it.
        let big = "ws2812:size=32x32,dry-run=" + Self.path("ws-big.png")
        if SPIDevice.readBufsiz() < 32 * 32 * 9 {
            do {
                _ = try WS2812Display.open(try DisplaySpec(parsing: big))
                Issue.record("a 9.2 KB WS2812 frame was accepted with bufsiz \(SPIDevice.readBufsiz())")
            } catch {
                #expect("\(error)".contains("spidev bufsiz is \(SPIDevice.readBufsiz()): add spidev.bufsiz=65536"), "\(error)")
            }
        }
        // true keeps its meaning: frames recorded in memory, no file.
        let d = try MAX7219Display.open(try DisplaySpec(parsing: "max7219:dry-run=true"))
        #expect(d.bus is SPICapture)
        d.close()
    }
}
