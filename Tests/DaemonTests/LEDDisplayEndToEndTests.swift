import Foundation
import ImageCodecs
import Raster
import Testing

/// Every LED display type driven by the real daemon (the shipped Embedded build when
/// LOADERD_BINARIES is set), with `dry-run=FILE` decoding its wire bytes into a picture. The
/// library tests drive the same displays in-process with ordinary Swift; this is what caught the
/// shipped loaderd dying with SIGILL on its first MAX7219 or APA102 frame (an SPIBus extension
/// method that Embedded Swift had compiled to a trap).
@Suite struct LEDDisplayEndToEndTests {
    @Test(arguments: ["max7219:modules=4", "apa102:size=8x8", "sk9822:size=16x4", "ws2812:size=8x8", "sk6812:size=8x8,layout=serpentine"])
    func theDaemonDrivesTheDisplayAndLightsLEDs(_ spec: String) throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let leds = dir + "/leds.png"
        let daemon = try DaemonProcess(arguments: ["--display", "\(spec),dry-run=\(leds)", "--loader", "linkedin"])
        #expect(eventually { FileManager.default.fileExists(atPath: leds) }, "no LED picture written:\n\(daemon.process.log)")
        // Some frames later the daemon is still there and answering.
        usleep(500_000)
        #expect((try? daemon.process.wait(timeout: 0.05)) == nil, "loaderd ended while driving \(spec):\n\(daemon.process.log)")
        #expect(try daemon.client().request("ping") == "OK pong")
        let picture = try PNG.read(path: leds)
        var lit = 0
        for y in 0..<picture.height { for x in 0..<picture.width where picture[x, y] != .black { lit += 1 } }
        #expect(lit > 0, "no LED lit on \(spec)")
        #expect(try daemon.terminate() == 0)
    }

    /// `brightness` on on/off LEDs: dimmed through the chips' intensity, so they stay lit (a
    /// frame's colours scaled below the threshold turned every LED off from 50 % down); 0 is off,
    /// and 100 brings the picture back.
    @Test func brightnessDimsAMAX7219WithoutTurningItOff() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let leds = dir + "/leds.png"
        let daemon = try DaemonProcess(arguments: ["--display", "max7219:modules=8,dry-run=\(leds)", "--loader", "linkedin", "--freeze-time", "0.6"])
        func litCount() -> Int { (try? PNG.read(path: leds)).map { $0.bytes.filter { $0 == 255 }.count } ?? 0 }
        #expect(eventually { litCount() > 0 }, "no LED lit:\n\(daemon.process.log)")
        let full = litCount()
        let c = try daemon.client()
        #expect(try c.request("brightness 30") == "OK brightness 30")
        usleep(300_000)
        #expect(litCount() == full, "dimmed to 30 %, the same LEDs stay lit")
        #expect(try c.request("brightness 0") == "OK brightness 0")
        #expect(eventually { litCount() == 0 }, "brightness 0 turns the LEDs off")
        #expect(try c.request("brightness 100") == "OK brightness 100")
        #expect(eventually { litCount() == full }, "brightness 100 brings the picture back")
        #expect(try daemon.terminate() == 0)
    }

    /// What `loaderctl render --mono` promises: the picture a MAX7219 chain lights, pixel for
    /// pixel; here the daemon's own MAX7219 (its wire bytes decoded by `dry-run=FILE`) against
    /// loaderctl's render of the same moment. Before, the render showed the grey edges drawn
    /// under the LEDs' threshold, and a failure mark the modules show as a dotted cross was a
    /// ring with a square hole in it.
    @Test(arguments: [("linkedin", "0.6", "modules=8", "64x8"), ("worm", "0.3", "modules=1", "8x8"), ("quizup", "1.0", "modules=4", "32x8")])
    func renderMonoIsWhatTheModulesLight(_ loader: String, _ at: String, _ modules: String, _ size: String) throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let leds = dir + "/leds.png", rendered = dir + "/render.png"
        let daemon = try DaemonProcess(arguments: ["--display", "max7219:\(modules),dry-run=\(leds)", "--loader", loader, "--freeze-time", at])
        #expect(eventually { (try? PNG.read(path: leds)).map { $0.bytes.contains(255) } ?? false }, "no LED lit:\n\(daemon.process.log)")
        let render = try Spawned(Paths.products + "/loaderctl", ["render", loader, "--size", size, "--at", at, "--mono", "--output", rendered], logPath: dir + "/render.log")
        #expect(try render.wait() == 0, "\(render.log)")
        let lit = try PNG.read(path: leds), shown = try PNG.read(path: rendered)
        #expect(shown == lit, "loaderctl render --mono differs from the LEDs")
        #expect(shown.bytes.allSatisfy { $0 == 0 || $0 == 255 }, "a grey pixel in a picture of on/off LEDs")
        #expect(try daemon.terminate() == 0)
    }
}

