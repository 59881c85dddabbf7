import Foundation
import Testing

/// `loaderd --end-splash PIDFILE`, what loaderd-initramfs-quit.service runs to end the splash the
/// initramfs started: the shipped binary against a running daemon, a stale file and bad files.
@Suite struct SplashEndTests {
    @Test func itEndsTheDaemonAndReturnsOnceItHasGone() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pidPath = dir + "/initramfs.pid"
        let daemon = try DaemonProcess(arguments: ["--pid-file", pidPath, "--loader", "bar"])
        #expect(eventually { FileManager.default.fileExists(atPath: pidPath) }, "\(daemon.process.log)")
        let end = try Spawned(Paths.loaderd, ["--end-splash", pidPath], logPath: dir + "/end.log")
        #expect(try end.wait() == 0, "\(end.log)")
        // Returned only once the daemon had ended: it is a zombie or gone by now, not running.
        #expect(try daemon.process.wait(timeout: 0) == 0, "\(daemon.process.log)")
        #expect(daemon.process.log.contains("<5>signal SIGTERM"))
        #expect(!FileManager.default.fileExists(atPath: pidPath), "the daemon's pid file was left")
        #expect(end.log.isEmpty, "a clean end prints nothing: \(end.log)")
    }

    /// A process id the file names may belong to another program by now: it is not signalled,
    /// and the stale file goes.
    @Test func aProcessThatIsNotLoaderdIsLeftAlone() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let other = try Spawned("/bin/sleep", ["30"], logPath: dir + "/sleep.log")
        let pidPath = dir + "/initramfs.pid"
        try "\(other.pid)\n".write(toFile: pidPath, atomically: true, encoding: .utf8)
        let end = try Spawned(Paths.loaderd, ["--end-splash", pidPath], logPath: dir + "/end.log")
        #expect(try end.wait() == 0, "\(end.log)")
        // Still running: a signalled sleep would have exited (wait's one look would find it).
        #expect(throws: HarnessError.self, "sleep was signalled") { try other.wait(timeout: 0.2) }
        #expect(!FileManager.default.fileExists(atPath: pidPath), "the stale pid file was left")
    }

    @Test func noFileIsNothingToDo() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let end = try Spawned(Paths.loaderd, ["--end-splash", dir + "/none.pid"], logPath: dir + "/end.log")
        #expect(try end.wait() == 0)
        #expect(end.log.isEmpty, "\(end.log)")
    }

    @Test func aFileWithoutAProcessIDIsNamedAndRemoved() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for text in ["", "abc\n", "-5\n", "1\n", "99999999999\n"] {
            let pidPath = dir + "/initramfs.pid"
            try text.write(toFile: pidPath, atomically: true, encoding: .utf8)
            let end = try Spawned(Paths.loaderd, ["--end-splash", pidPath], logPath: dir + "/end-\(text.count).log")
            #expect(try end.wait() == 0, "\(text.debugDescription): \(end.log)")
            #expect(end.log.contains("initramfs.pid holds no process id"), "\(text.debugDescription): \(end.log)")
            #expect(!FileManager.default.fileExists(atPath: pidPath))
        }
    }
}

/// `loaderd --after-stop`, loaderd.service's ExecStopPost=. Its success path (the boot marked
/// finished, loaderd.socket stopped) needs systemd and /run: scripts/boot-test boots it (the
/// psplash install's QUIT, the crash test's restarts and start limit).
@Suite struct AfterStopTests {
    @Test func outsideSystemdItSaysWhatItIsFor() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Spawned(Paths.loaderd, ["--after-stop"], logPath: dir + "/log")
        #expect(try p.wait() == 2)
        #expect(p.log.contains("--after-stop is for loaderd.service's ExecStopPost= ($SERVICE_RESULT, which systemd sets there, is missing)"), "\(p.log)")
    }

    /// After a crash it puts the console back (here: already in text mode, or no virtual
    /// terminal at all, as on a board with only LEDs): exit 0 either way.
    @Test func afterAFailureItPutsTheConsoleBack() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Spawned(Paths.loaderd, ["--after-stop"], environment: ["SERVICE_RESULT": "signal"], logPath: dir + "/log")
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(p.log.isEmpty || p.log == "loaderd: the console is back in text mode\n", "\(p.log)")
    }
}
