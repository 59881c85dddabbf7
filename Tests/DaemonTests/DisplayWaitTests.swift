import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Displays waited for with a timeout (`--display-timeout`, `display_timeout`), and `auto` waiting
/// for a device: the real binary each time.
@Suite struct DisplayWaitTests {
    func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }

    /// The `displays` array of a status reply.
    func displays(_ c: Client) -> [[String: Any]] {
        guard let reply = try? c.request("status"), let data = reply.dropFirst(3).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object["displays"] as? [[String: Any]] ?? []
    }

    static var hasDisplayDevice: Bool {
        FileManager.default.fileExists(atPath: "/dev/dri") || (0..<8).contains { FileManager.default.fileExists(atPath: "/dev/fb\($0)") }
    }

    /// One of two displays never appears: it alone is given up, with one line naming its device
    /// and the timeout; the daemon keeps drawing on the other and serving clients.
    @Test func aDisplayThatNeverAppearsIsGivenUpAndTheOthersGoOn() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/never/fb.raw", image = dir + "/frame.ppm", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display-timeout", "0.2",
                                            "--display", "fb:device=\(missing),geometry=64x16,format=xrgb8888,console=keep",
                                            "--display", "image:path=\(image),size=32x8", "--loader", "bar", "--progress", "40"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(eventually { displays(c).count == 1 }, "the missing display was not given up: \(p.log)")
        #expect(displays(c).first?["state"] as? String == "ok")
        #expect(try c.request("progress 70") == "OK progress 70")
        let before = bytes(image)
        #expect(eventually { bytes(image) != before }, "the image display stopped being drawn: \(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        let lines = p.log.split(separator: "\n").filter { $0.contains("giving up on this display") }
        #expect(lines == ["<3>fb:\(missing): \(missing) did not appear within 0.2 s (display_timeout); giving up on this display"], "\(p.log)")
        #expect(!p.log.contains("no display left"))
    }

    /// An LED display's SPI device is waited for as a screen's is: at boot /dev/spidev0.0 appears
    /// when the SPI driver is loaded, which may be after loaderd starts. Before, a missing one
    /// ended the daemon at start, the working displays with it.
    @Test func anLEDDisplayWhoseSPIDeviceIsMissingIsWaitedForAndTheOthersGoOn() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/later/spidev0.0", image = dir + "/frame.ppm", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display-timeout", "1",
                                            "--display", "image:path=\(image),size=32x8",
                                            "--display", "max7219:spi=\(missing),modules=4", "--loader", "linkedin"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(displays(c).map { $0["state"] as? String } == ["ok", "waiting"], "\(p.log)")
        // An spidev node appears only once SPI is enabled: both lines say how.
        let hint = " (if SPI is off it never will: enable SPI (dtparam=spi=on in /boot/firmware/config.txt"
        #expect(p.log.contains("max7219:\(missing): \(missing) does not exist (yet); waiting for it to appear" + hint), "\(p.log)")
        #expect(eventually { displays(c).count == 1 }, "the missing display was not given up: \(p.log)")
        #expect(try c.request("progress 70") == "OK progress 70")
        let before = bytes(image)
        #expect(eventually { bytes(image) != before }, "the image display stopped being drawn: \(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(p.log.contains("<3>max7219:\(missing): \(missing) did not appear within 1 s (display_timeout); giving up on this display" + hint), "\(p.log)")
        // A bad value is still an error at start, waited-for device or not.
        let bad = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "max7219:spi=\(missing),modules=0"], logPath: dir + "/log-bad")
        #expect(try bad.wait() != 0 && !bad.log.contains("waiting"), "\(bad.log)")
    }

    /// A display whose device is there but cannot be used (/dev/null is no spidev) is given up,
    /// said in the log, and the others go on; with no display left the start fails, naming each.
    @Test func anUnusableDisplayIsGivenUpAndTheOthersGoOn() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = dir + "/frame.ppm", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "image:path=\(image),size=16x16",
                                            "--display", "ws2812:spi=/dev/null,size=8x8", "--loader", "quizup"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(displays(c).map { $0["name"] as? String } == ["image:\(image)"], "\(p.log)")
        #expect(p.log.contains("<3>invalid display 'ws2812:spi=/dev/null,size=8x8': /dev/null: not an spidev device"), "\(p.log)")
        #expect(p.log.contains("; giving up on this display, the others go on"), "\(p.log)")
        #expect(eventually { FileManager.default.fileExists(atPath: image) }, "the working display is drawn: \(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        let none = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "ws2812:spi=/dev/null,size=8x8",
                                               "--display", "max7219:spi=/dev/zero"], logPath: dir + "/log-none")
        #expect(try none.wait() == 1, "\(none.log)")
        #expect(none.log.contains("ws2812:spi=/dev/null") && none.log.contains("max7219:spi=/dev/zero") && none.log.contains("(no display could be opened)"), "\(none.log)")
    }

    /// A display whose device is missing is waited for, but a bad value in its spec is an error
    /// at start, as for a display that exists: found at boot, not when the device appears.
    @Test func aWaitedDisplayWithABadValueIsRefusedAtStart() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        for spec in ["fb:device=\(dir)/later/fb0,rotate=45", "drm:device=\(dir)/later/card0,mode=big", "auto:size=9x"] {
            let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", spec, "--loader", "bar"], logPath: dir + "/log")
            #expect(try p.wait() == 2, "\(spec): \(p.log)")  // a usage error, before the socket is made
            #expect(p.log.contains("invalid display") && !p.log.contains("waiting"), "\(spec): \(p.log)")
            #expect(!FileManager.default.fileExists(atPath: sock))
        }
    }

    /// A display that appears within the timeout is drawn and not given up later.
    @Test func aDisplayThatAppearsInTimeIsDrawnAndKept() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/later/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display-timeout", "600",
                                            "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep",
                                            "--loader", "bar", "--progress", "50", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(displays(c).first?["state"] as? String == "waiting")
        let human = try Spawned(Paths.products + "/loaderctl", ["status", "--socket", sock], logPath: dir + "/status.out")
        #expect(try human.wait() == 0)
        #expect(human.log.contains("fb:\(fb), waiting for its device\n"), "\(human.log)")
        try FileManager.default.createDirectory(atPath: dir + "/later", withIntermediateDirectories: false)
        #expect(eventually { bytes(fb).count == 64 * 16 * 4 && bytes(fb).contains { $0 != 0 } }, "\(p.log)")
        #expect(displays(c).first?["state"] as? String == "ok")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(!p.log.contains("giving up"), "\(p.log)")
    }

    /// No display at all appears: loaderd says so and exits with status 4 (distinct from 1, so
    /// loaderd.service's RestartPreventExitStatus=4 does not start it again), its socket removed.
    @Test func withEveryDisplayGivenUpTheDaemonExitsWithStatus4() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display-timeout", "0.1",
                                            "--display", "fb:device=\(dir)/a/fb0,geometry=64x16,format=xrgb8888,console=keep",
                                            "--display", "fb:device=\(dir)/b/fb0,geometry=64x16,format=xrgb8888,console=keep"], logPath: dir + "/log")
        #expect(try p.wait() == 4, "\(p.log)")
        #expect(p.log.split(separator: "\n").filter { $0.contains("giving up on this display") }.count == 2, "\(p.log)")
        #expect(p.log.contains("<3>no display left: none appeared within display_timeout (0.1 s); exiting with status 4"), "\(p.log)")
        #expect(!FileManager.default.fileExists(atPath: sock), "the socket was left behind")
    }

    /// The config's `display_timeout` is the one used when no flag is given.
    @Test func theConfigsDisplayTimeoutApplies() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/loaderd.toml"
        try """
            [daemon]
            socket = "\(dir)/s.sock"
            display_timeout = 0.3
            [[display]]
            type = "fb"
            device = "\(dir)/none/fb0"
            geometry = "64x16"
            format = "xrgb8888"
            console = "keep"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let p = try Spawned(Paths.loaderd, ["--config", config], logPath: dir + "/log")
        #expect(try p.wait() == 4, "\(p.log)")
        #expect(p.log.contains("did not appear within 0.3 s (display_timeout)"), "\(p.log)")
    }

    /// `auto` on a machine with no display device waits (status `waiting`, one log line naming
    /// what it looked at and what it waits for) instead of failing; its timeout names both globs.
    @Test(.enabled(if: !hasDisplayDevice, "this machine has a display device"))
    func autoWithoutADeviceWaitsThenTimesOut() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "auto", "--display-timeout", "0", "--loader", "bar"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(displays(c).first?["state"] as? String == "waiting")
        #expect(displays(c).first?["name"] as? String == "auto", "\(displays(c))")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        let waits = p.log.split(separator: "\n").filter { $0.contains("waiting for") }
        #expect(waits.count == 1 && waits[0].hasPrefix("<4>auto: no display device: DRM: ")
            && waits[0].hasSuffix("; waiting for /dev/dri/card* or /dev/fb* to appear"), "\(p.log)")

        let timed = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "auto", "--display-timeout", "0.1"], logPath: dir + "/log2")
        #expect(try timed.wait() == 4, "\(timed.log)")
        #expect(timed.log.contains("<3>auto: /dev/dri/card* or /dev/fb* did not appear within 0.1 s (display_timeout); giving up on this display"), "\(timed.log)")
    }

    @Test func checkConfigChecksTheDisplayTimeout() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[daemon]\ndisplay_timeout = -2\n".write(toFile: dir + "/bad.toml", atomically: true, encoding: .utf8)
        let p = try Spawned(Paths.loaderd, ["--check-config", dir + "/bad.toml"], logPath: dir + "/log")
        #expect(try p.wait() == 1)
        #expect(p.log.contains("\(dir)/bad.toml:2:19: daemon.display_timeout: expected a number of seconds: 0 (wait forever) or from 0.1 to 86400, got -2"), "\(p.log)")
    }

    @Test func aBadDisplayTimeoutIsAUsageError() throws {
        let p = try Spawned(Paths.loaderd, ["--display-timeout", "0.01", "--display", "auto"], logPath: try Paths.temporaryDirectory() + "/log")
        #expect(try p.wait() == 2)
        #expect(p.log.contains("--display-timeout must be 0 (wait forever) or from 0.1 to 86400 seconds, got 0.01"), "\(p.log)")
    }
}
