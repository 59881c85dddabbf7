import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing

/// loaderctl features that take more than one request, against the real loaderd drawing into an
/// image file: `stop --wait` and psplash's negative progress.
@Suite("loaderctl against the real loaderd")
struct RealDaemonTests {
    /// What the image display shows for `bar` with these parameters at a still progress.
    private func expectedBar(_ assignments: [(key: String, value: String)], progress: Int) throws -> RGBImage {
        var scene = Scene(loader: try Catalog.make("bar", assignments: assignments), width: 32, height: 8)
        scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed(progress, over: 100))))
        return RGBImage(canvas: scene.canvas, background: .black)
    }

    private func frame(_ daemon: RealDaemon) -> RGBImage? { try? PPM.read(path: daemon.image) }

    /// At 5 fps the cleared frame comes up to 200 ms after the daemon reports `idle`: returning
    /// on `idle` alone would find the outcome mark still in the file.
    @Test func stopWaitReturnsOnlyOnceTheLastFrameIsDrawn() throws {
        let daemon = try RealDaemon(fps: 5)
        #expect(try daemon.ctl(["start", "bar"]).status == 0)
        #expect(try daemon.ctl(["progress", "60"]).status == 0)
        #expect(eventually { self.frame(daemon).map { $0.bytes.contains { $0 > 0 } } ?? false }, "the bar is drawn")
        // The exit animation, then the outcome mark for 1.5 s, then a clear display.
        let r = try daemon.ctl(["stop", "success", "--wait"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout == "stopping\nstopped\n")
        // On return the last frame is on the display: blank, and the daemon is idle.
        let last = try #require(frame(daemon))
        #expect(!last.bytes.contains { $0 != 0 })
        let after = try daemon.status()
        #expect(after["state"] as? String == "idle")
        // And no frame was still to come: the count stays put past a whole frame interval (200 ms).
        let drawn = try #require(after["frames_drawn"] as? Int)
        usleep(400_000)
        #expect(try daemon.status()["frames_drawn"] as? Int == drawn)
        // Nothing running: stop --wait returns at once, saying so once.
        let idle = try daemon.ctl(["stop", "--wait"])
        #expect(idle.status == 0 && idle.stdout == "stopped\n")
        let quiet = try daemon.ctl(["--quiet", "stop", "now", "--wait"])
        #expect(quiet.status == 0 && quiet.stdout == "")
    }

    /// With --freeze-time an exit never ends: --wait gives up at --wait-timeout, exit 1.
    @Test func stopWaitGivesUpAtItsTimeout() throws {
        let daemon = try RealDaemon(arguments: ["--freeze-time", "1"])
        #expect(try daemon.ctl(["start", "bar"]).status == 0)
        let r = try daemon.ctl(["stop", "--wait", "--wait-timeout", "0.3"])
        #expect(r.status == 1)
        #expect(r.stdout == "stopping\n")
        #expect(r.stderr == "loaderctl: loaderd at \(daemon.socket) was still drawing the exit (state 'exiting') after 0.3 s (raise --wait-timeout)\n")
    }

    /// `--max-clients 1` and one idle client holding it: every try is `ERR busy` until
    /// --timeout runs out. The request was never taken: exit 3, not 1 (the daemon refused it).
    @Test func busyUntilTheTimeoutExits3() throws {
        let daemon = try RealDaemon(arguments: ["--max-clients", "1"])
        let idle = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(idle) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in daemon.socket.utf8.enumerated() { raw[i] = b } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(idle, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(connected == 0)
        // Held once the daemon counts it.
        #expect(eventually { (try? daemon.ctl(["ping", "--timeout", "0.2"]))?.status != 0 })
        let r = try daemon.ctl(["--timeout", "1", "ping"])
        #expect(r.status == 3)
        #expect(r.stdout == "")
        #expect(r.stderr == "loaderctl: loaderd at \(daemon.socket) was busy for the whole --timeout of 1 s: too many clients (at most 1); try again later (raise --timeout)\n")
    }

    @Test func negativeProgressFillsTheBarFromTheRightAsPsplash() throws {
        let right = try expectedBar([(key: "direction", value: "right")], progress: 20)
        let left = try expectedBar([], progress: 20)
        #expect(right != left)

        let daemon = try RealDaemon()
        // No loader running: the bar starts, filling from the right.
        let r = try daemon.ctl(["progress", "-20"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout == "progress 20\n")
        var status = try daemon.status()
        #expect(status["loader"] as? String == "bar")
        #expect(status["progress"] as? Double == 20)
        #expect(eventually { self.frame(daemon) == right })

        // Forced, as psplash's: a lower negative value is taken.
        #expect(try daemon.ctl(["progress", "-10"]).stdout == "progress 10\n")
        #expect(try daemon.status()["progress"] as? Double == 10)

        // Another loader keeps running and shows the value.
        #expect(try daemon.ctl(["start", "linkedin"]).status == 0)
        #expect(try daemon.ctl(["progress", "-30"]).status == 0)
        status = try daemon.status()
        #expect(status["loader"] as? String == "linkedin")
        #expect(status["progress"] as? Double == 30)
    }
}
