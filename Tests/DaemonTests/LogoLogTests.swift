import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `[screen]` logo that cannot be shown is said in the log, naming the file and the reason, and
/// the screen draws without it (config/loaderd.toml promises both). Real binary, real stderr.
@Suite struct LogoLogTests {
    func lines(_ log: String, containing text: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    @Test func aMissingLogoIsLoggedOnceAndTheScreenStillDraws() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/no-such-logo.png"
        let config = dir + "/loaderd.toml"
        try "[screen]\nlogo = \"\(missing)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", config], size: "800x480")
        let client = try daemon.client()
        #expect(try client.request("start bar") == "OK started bar")
        let expected = "screen.logo not shown: cannot read \(missing): No such file or directory; the screen draws without it"
        #expect(eventually { daemon.process.log.contains(expected) }, "\(daemon.process.log)")
        #expect(eventually { FileManager.default.fileExists(atPath: daemon.imagePath) }, "a frame is drawn without the logo")
        // Boot scripts start loaders again and again: the same failure is not repeated.
        #expect(try client.request("start linkedin") == "OK started linkedin")
        #expect(try client.request("status").contains("\"loader\":\"linkedin\""))
        #expect(lines(daemon.process.log, containing: "screen.logo not shown") == 1, "\(daemon.process.log)")
        #expect(try daemon.terminate() == 0)
    }

    @Test func aFileThatIsNotAnImageIsLoggedWithItsReason() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = dir + "/logo.png"
        try "not a picture\n".write(toFile: text, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(size: "800x480")
        #expect(try daemon.client().request("start bar screen.logo=\(text)") == "OK started bar")
        let expected = "screen.logo not shown: cannot read \(text): neither a PNG nor a binary PPM (P6) file (it starts with neither's signature); the screen draws without it"
        #expect(eventually { daemon.process.log.contains(expected) }, "\(daemon.process.log)")
        #expect(try daemon.terminate() == 0)
    }
}
