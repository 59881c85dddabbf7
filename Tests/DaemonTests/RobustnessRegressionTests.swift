import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Problems a review found by feeding the real daemon what the environment may feed it.
@Suite struct RobustnessRegressionTests {
    /// 300 pipelined requests in one write: every reply arrives (the 64 KiB output limit is for
    /// clients that do not read, not for clients that ask a lot at once).
    @Test func manyPipelinedRequestsInOneWriteAreAllAnswered() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "bar"])
        let c = try daemon.client()
        try c.send(String(repeating: "status\n", count: 300))
        var replies = 0
        while replies < 300, let line = try c.readLine() {
            #expect(line.hasPrefix("OK {"))
            replies += 1
        }
        #expect(replies == 300)
        #expect(try daemon.terminate() == 0)
    }

    /// A timeline file with absurd times is history to ignore, not a reason to crash at start.
    @Test func anAbsurdBootTimelineDoesNotCrashTheDaemon() throws {
        let dir = try Paths.temporaryDirectory()
        let timeline = dir + "/timeline"
        try "loaderd-boot-timeline 1\ntotal 999999999\n999999999 a.service\n".write(toFile: timeline, atomically: true, encoding: .utf8)
        // The Plymouth sockets are abstract names: run in a private network namespace when we can.
        let unshare = FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        let sock = dir + "/s.sock"
        let args = ["--socket", sock, "--display", "image:path=\(dir)/f.ppm,size=8x8", "--plymouth", "--boot-timeline", timeline]
        let p = unshare ? try Spawned("/usr/bin/unshare", ["-n", Paths.loaderd] + args, logPath: dir + "/log")
                        : try Spawned(Paths.loaderd, args, logPath: dir + "/log")
        #expect(eventually { FileManager.default.fileExists(atPath: sock) || p.log.contains("loaderd:") }, "\(p.log)")
        #expect(FileManager.default.fileExists(atPath: sock), "loaderd did not come up: \(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
    }

    /// A second loaderd refused because one already listens must leave the first one's screen alone.
    @Test func aRefusedSecondDaemonDoesNotTouchTheScreen() throws {
        let dir = try Paths.temporaryDirectory()
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let args = ["--socket", sock, "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep",
                    "--loader", "bar", "--progress", "50", "--freeze-time", "0"]
        let first = try Spawned(Paths.loaderd, args, logPath: dir + "/first.log")
        #expect(eventually { (try? Client(path: sock).request("ping")) == "OK pong" }, "\(first.log)")
        let lit = { () -> Int in
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fb))) ?? Data()
            return stride(from: 0, to: bytes.count - 3, by: 4).filter { bytes[$0] > 128 }.count
        }
        #expect(eventually { lit() > 0 })
        let before = lit()
        let second = try Spawned(Paths.loaderd, args, logPath: dir + "/second.log")
        #expect(try second.wait() == 1)
        #expect(second.log.contains("listening"), "\(second.log)")
        #expect(lit() == before, "the refused daemon repainted the framebuffer")
        first.signal(SIGTERM)
        #expect(try first.wait() == 0)
    }
}

/// The terminal display on a pipe nobody reads: frames are dropped, commands are still answered.
@Suite struct TerminalDisplayBackPressureTests {
    @Test func aFullTerminalPipeNeverStallsTheLoop() throws {
        let dir = try Paths.temporaryDirectory()
        let sock = dir + "/s.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.loaderd)
        process.arguments = ["--socket", sock, "--display", "terminal:size=64x32,fps=60", "--loader", "worm"]
        let unread = Pipe()  // 64 KiB of frames fill it in well under a second
        process.standardOutput = unread
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // SIGKILL: a daemon stuck in write(2) (the bug this guards against) could not handle SIGTERM.
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        #expect(eventually { (try? Client(path: sock).request("ping")) == "OK pong" })
        usleep(1_500_000)  // long past the point where the pipe is full
        for _ in 0..<5 {
            let c = try Client(path: sock, timeout: 3)
            #expect(try c.request("ping") == "OK pong")
        }
        _ = unread
    }
}
