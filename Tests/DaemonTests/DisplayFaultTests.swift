import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Displays that fail under a running loaderd: a stand-in file cut short while drawn, an image
/// directory that vanishes, the end of a session. The real binary each time.
@Suite struct DisplayFaultTests {
    func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }

    /// The `displays` array of a status reply.
    func displays(_ reply: String) -> [[String: Any]] {
        guard let data = reply.dropFirst(3).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object["displays"] as? [[String: Any]] ?? []
    }

    func state(_ reply: String) -> String? {
        guard let data = reply.dropFirst(3).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["state"] as? String
    }

    func lines(_ log: String, containing text: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// A stand-in truncated thousands of times while an animation redraws most of it at 120 fps.
    /// Frames reach the file with pwrite, never through a mapping, so no truncation can fault.
    @Test func aStandInTruncatedOverAndOverWhileAnimatingNeverKillsTheDaemon() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "fb:device=\(fb),geometry=320x200,format=xrgb8888,size=80x50,scale=4,console=keep,fps=120",
                                            "--loader", "worm"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        let before = (try? c.request("status")).flatMap { statusField($0, "frames_drawn") } ?? 0
        var truncations = 0
        let end = Date().addingTimeInterval(1.5)
        while Date() < end {
            #expect(truncate(fb, truncations % 2 == 0 ? 0 : 1000) == 0)
            truncations += 1
            usleep(200)
        }
        if let status = try? p.wait(timeout: 0) {
            Issue.record("loaderd exited with \(status) while the file was truncated (\(truncations) times): \(p.log)")
            return
        }
        #expect(try c.request("ping") == "OK pong", "\(p.log)")
        let after = (try? c.request("status")).flatMap { statusField($0, "frames_drawn") } ?? 0
        #expect(after > before, "no frame was drawn while the file was truncated")
        #expect(eventually { bytes(fb).count == 320 * 200 * 4 }, "the file was not written whole again")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(truncations > 100)
    }

    /// An image display whose directory vanishes: tried with back-off (not 50 times a second),
    /// logged once when it fails and once when it works again, shown in `status`, and the other
    /// display keeps drawing meanwhile.
    @Test func aFailingDisplayIsRetriedWithBackOffWhileTheOthersDraw() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let images = dir + "/images", fb = dir + "/fb.raw", sock = dir + "/s.sock"
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        let p = try Spawned(Paths.loaderd, ["--socket", sock,
                                            "--display", "image:path=\(images)/frame.ppm,size=16x8,fps=50",
                                            "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep,fps=50",
                                            "--loader", "bar", "--progress", "10", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(eventually { FileManager.default.fileExists(atPath: images + "/frame.ppm") })

        try FileManager.default.removeItem(atPath: images)
        #expect(try c.request("progress 60") == "OK progress 60")
        #expect(eventually { (displays((try? c.request("status")) ?? "").first?["state"] as? String) == "failing" }, "\(p.log)")
        let failingAt = Date()
        // The other display draws the new progress meanwhile.
        let bar = bytes(fb)
        #expect(try c.request("progress 90") == "OK progress 90")
        #expect(eventually { bytes(fb) != bar }, "the stand-in did not get the frame while the image display failed")

        // A second of failing: at 50 fps that was 50 tries; back-off from 0.1 s allows 5 at most.
        usleep(useconds_t(max(0, 1.0 - Date().timeIntervalSince(failingAt)) * 1_000_000))
        let status = try c.request("status")
        let image = displays(status).first ?? [:]
        #expect(image["state"] as? String == "failing", "\(status)")
        #expect((image["error"] as? String)?.contains("cannot create") == true, "\(status)")
        let tries = (image["failed_tries"] as? Int) ?? 0
        #expect(tries >= 2 && tries <= 6, "\(tries) failed tries in about a second: \(status)")
        #expect(displays(status).last?["state"] as? String == "ok", "\(status)")
        let ctl = try Spawned(Paths.products + "/loaderctl", ["status", "--socket", sock], logPath: dir + "/ctl.out")
        #expect(try ctl.wait() == 0)
        #expect(ctl.log.contains("frame.ppm, 16x8 at 50 fps, failing ("), "\(ctl.log)")
        #expect(ctl.log.contains("cannot create"), "\(ctl.log)")

        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        #expect(eventually { FileManager.default.fileExists(atPath: images + "/frame.ppm") }, "\(p.log)")
        #expect(eventually { (displays((try? c.request("status")) ?? "").first?["state"] as? String) == "ok" })
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(lines(p.log, containing: "cannot create") == 1, "\(p.log)")
        #expect(lines(p.log, containing: "drawing again") == 1, "\(p.log)")
    }

    /// `status` says idle only once the cleared frame is on the display: at 1 fps the next frame
    /// time is up to a second away, and the clear must not wait for it.
    @Test func idleIsReportedOnlyOnceTheClearedFrameIsDrawn() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep,fps=1"],
                            logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        let blank = bytes(fb)
        #expect(blank.count == 64 * 16 * 4)
        for stop in ["stop now", "stop"] {
            #expect(try c.request("start bar") == "OK started bar")
            #expect(try c.request("progress 70").hasPrefix("OK progress"))
            #expect(eventually { bytes(fb) != blank }, "the bar was never drawn")
            #expect(try c.request(stop).hasPrefix("OK stop"))
            var reply = ""
            #expect(eventually { reply = (try? c.request("status")) ?? ""; return state(reply) == "idle" }, "\(reply)")
            let cleared = bytes(fb) == blank
            #expect(cleared, "status said idle after '\(stop)' while the bar was still on the display")
        }
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
    }

    // MARK: Devices that are missing or vanish

    func displayState(_ c: Client) -> String? { displays((try? c.request("status")) ?? "").first?["state"] as? String }

    /// The device's directory does not exist at start (as /dev/dri before the DRM driver loads):
    /// loaderd serves its socket at once, shows the display as waiting, and draws on it as soon
    /// as the path can be opened, told by inotify.
    @Test func aDisplayMissingAtStartIsWaitedForAndDrawnWhenItAppears() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/later/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep",
                                            "--loader", "bar", "--progress", "50", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(displayState(c) == "waiting", "\(p.log)")
        #expect(!FileManager.default.fileExists(atPath: fb))

        try FileManager.default.createDirectory(atPath: dir + "/later", withIntermediateDirectories: false)
        #expect(eventually { bytes(fb).count == 64 * 16 * 4 && bytes(fb).contains { $0 != 0 } }, "no frame on the display that appeared: \(p.log)")
        #expect(displayState(c) == "ok")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(p.log.contains("waiting for it to appear"), "\(p.log)")
        #expect(p.log.contains("appeared; drawing on it"), "\(p.log)")
    }

    /// The device node is removed and made again (efifb's /dev/fb0 replaced by a DRM driver's):
    /// the display waits, then opens the new node and redraws the current frame on it at once.
    @Test func aDisplayRemovedAndRecreatedGetsTheCurrentFrame() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep",
                                            "--loader", "bar", "--progress", "50", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(eventually { bytes(fb).contains { $0 != 0 } })
        let frame = bytes(fb)

        #expect(unlink(fb) == 0)
        #expect(eventually { displayState(c) == "waiting" }, "\(p.log)")
        #expect(try c.request("ping") == "OK pong")
        #expect(FileManager.default.createFile(atPath: fb, contents: Data()))  // a new, empty node
        #expect(eventually { bytes(fb) == frame }, "the new file did not get the current frame: \(p.log)")
        #expect(displayState(c) == "ok")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(lines(p.log, containing: "was removed; waiting") == 1, "\(p.log)")
    }
}
