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
}
