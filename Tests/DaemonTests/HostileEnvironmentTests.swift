import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the environment may do to a running loaderd: FIFOs at its file paths, a stand-in file cut
/// short, stray signals, closed standard streams, a low descriptor limit, a config file built to
/// exhaust the stack. The real binary each time; a hang shows as the harness's timeout.
@Suite struct HostileEnvironmentTests {
    func write(_ text: String, to path: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    // MARK: Config files

    @Test func aDeeplyNestedConfigIsAnErrorWithItsPlaceNotACrash() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("a" + String(repeating: ".a", count: 30_000) + " = 1\n", to: dir + "/deep.toml")
        let check = try Spawned(Paths.loaderd, ["--check-config", dir + "/deep.toml"], logPath: dir + "/check.log")
        #expect(try check.wait() == 1, "\(check.log)")
        #expect(check.log.contains("deep.toml:1:129: a key may be at most 64 tables deep"), "\(check.log)")
    }

    @Test func sighupWithADeeplyNestedConfigKeepsTheDaemonAndItsSettings() throws {
        let dir = try Paths.temporaryDirectory()
        let config = dir + "/loaderd.toml"
        try write("[loader]\nname = \"bar\"\n", to: config)
        let daemon = try DaemonProcess(arguments: ["--config", config])
        try write("[" + Array(repeating: "t", count: 30_000).joined(separator: ".") + "]\n", to: config)
        daemon.process.signal(SIGHUP)
        #expect(eventually { daemon.process.log.contains("tables deep") }, "\(daemon.process.log)")
        #expect(try daemon.client().request("ping") == "OK pong")
        #expect(try daemon.terminate() == 0)
    }

    @Test func aFIFOAtTheConfigPathIsRefusedNotWaitedOn() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/loaderd.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["--check-config", fifo], ["--config", fifo, "--socket", dir + "/s.sock", "--display", "image:path=\(dir)/f.ppm,size=8x8"]] {
            let p = try Spawned(Paths.loaderd, arguments, logPath: dir + "/log")
            #expect(try p.wait() == 1, "\(p.log)")
            #expect(p.log.contains("loaderd.toml: not a regular file"), "\(p.log)")
        }
    }

    @Test func sighupWithAFIFOAtTheConfigPathKeepsServing() throws {
        let dir = try Paths.temporaryDirectory()
        let config = dir + "/loaderd.toml"
        try write("[loader]\nname = \"bar\"\n", to: config)
        let daemon = try DaemonProcess(arguments: ["--config", config])
        unlink(config)
        #expect(mkfifo(config, 0o600) == 0)
        daemon.process.signal(SIGHUP)
        #expect(eventually { daemon.process.log.contains("not a regular file") }, "\(daemon.process.log)")
        #expect(try daemon.client().request("ping") == "OK pong")
        #expect(try daemon.terminate() == 0)
    }

    // MARK: Files the displays write

    /// A FIFO at the image's temporary path: the frame fails (logged), commands are still answered,
    /// and once the FIFO is gone the frame is written without any new command.
    @Test func aFIFOAtTheImageTemporaryPathDoesNotBlockTheDaemon() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/.f.ppm.tmp", 0o600) == 0)
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s.sock", "--display", "image:path=\(dir)/f.ppm,size=8x8",
                                            "--loader", "bar", "--progress", "50", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(dir + "/s.sock", p)
        #expect(eventually { p.log.contains("a FIFO, not a regular file") }, "\(p.log)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/f.ppm"))
        unlink(dir + "/.f.ppm.tmp")
        #expect(eventually { FileManager.default.fileExists(atPath: dir + "/f.ppm") }, "the failed frame was never written again")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }

    @Test func aFramebufferStandInThatIsASymlinkIsRefused() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/victim", contents: Data())
        #expect(symlink(dir + "/victim", dir + "/fb.raw") == 0)
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s.sock", "--display", "fb:device=\(dir)/fb.raw,geometry=16x8,format=xrgb8888,console=keep"],
                            logPath: dir + "/log")
        #expect(try p.wait() == 1)
        #expect(p.log.contains("symbolic link"), "\(p.log)")
        #expect((try? FileManager.default.attributesOfItem(atPath: dir + "/victim")[.size] as? Int) == 0, "the link's target was written")
    }

    /// The stand-in is truncated between frames: the daemon grows it back and redraws (it died of
    /// SIGBUS). Frozen time, so frames are drawn exactly when a command changes something.
    @Test func aFramebufferStandInTruncatedWhileShownDoesNotKillTheDaemon() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep",
                                            "--loader", "bar", "--progress", "10", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        for percent in [20, 40, 60, 80] {
            #expect(truncate(fb, 0) == 0)
            #expect(try c.request("progress \(percent)") == "OK progress \(percent)")
            #expect(try c.request("ping") == "OK pong")
        }
        #expect(eventually { (try? FileManager.default.attributesOfItem(atPath: fb)[.size] as? Int) == 64 * 16 * 4 })
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to mount a 64 KiB tmpfs"))
    func aFramebufferStandInOnAFullFileSystemIsAnErrorAtStart() throws {
        let dir = try Paths.temporaryDirectory()
        defer { umount2(dir, 2); try? FileManager.default.removeItem(atPath: dir) }
        #expect(mount("tmpfs", dir, "tmpfs", 0, "size=64k") == 0)
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s.sock", "--display", "fb:device=\(dir)/fb.raw,geometry=200x200,format=xrgb8888,console=keep",
                                            "--loader", "worm"], logPath: "/tmp/ldt-fullfs-\(getpid()).log")
        defer { unlink(p.logPath) }
        #expect(try p.wait() == 1, "\(p.log)")  // not 128 + SIGBUS
        #expect(p.log.contains("cannot reserve 160000 bytes"), "\(p.log)")
    }

    // MARK: Process state

    /// Started with 0, 1 and 2 closed: the framebuffer must not become fd 2 and receive the log.
    @Test func closedStandardStreamsDoNotSendTheLogIntoTheFramebuffer() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let command = "exec '\(Paths.loaderd)' --socket \(sock) --display fb:device=\(fb),geometry=64x16,format=xrgb8888,console=keep "
            + "--loader bar --freeze-time 0 --log-level debug <&- >&- 2>&-"
        let p = try Spawned("/bin/sh", ["-c", command], logPath: "/dev/null")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        for n in 1...5 { _ = try c.request("start bar fill=\(n == 3 ? "red" : "blue")") }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(p.pid)/fd/2")) ?? "?"
        #expect(target == "/dev/null", "fd 2 is \(target)")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fb))) ?? Data()
        #expect(bytes.range(of: Data("started".utf8)) == nil && bytes.range(of: Data("listening".utf8)) == nil, "log lines in video memory")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }

    /// SIGUSR1, SIGUSR2, SIGALRM and kin used to kill loaderd with the screen lit and the socket
    /// left behind; they are ignored, and SIGTERM still ends it cleanly.
    @Test func straySignalsAreIgnoredAndTheDaemonStillStopsCleanly() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", sock = dir + "/s.sock"
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,scale=1,console=keep",
                                            "--loader", "bar", "--progress", "50", "--freeze-time", "0"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        for s in [SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGXFSZ] {
            p.signal(s)
            #expect(try Client(path: sock).request("ping") == "OK pong", "signal \(s) ended the daemon: \(p.log)")
        }
        #expect(eventually { p.log.contains("signal SIGUSR1 ignored") && p.log.contains("signal SIGXFSZ ignored") }, "\(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: sock), "the socket was left behind")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fb))) ?? Data()
        #expect(!bytes.isEmpty && bytes.allSatisfy { $0 == 0 }, "the screen was not cleared")
    }

    /// Out of descriptors (EMFILE), the control listener stays readable: the daemon leaves the
    /// backlog alone for 100 ms at a time instead of spinning, says so once, and serves again
    /// when descriptors are free.
    @Test func theControlSocketBacksOffWhenOutOfDescriptors() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        // The test runner's descriptors closed first; the daemon opens 6 (standard streams,
        // signalfd, listener, timerfd): 7 leaves one spare.
        let command = "for f in /proc/$$/fd/*; do n=${f##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done; ulimit -n 7 && exec '\(Paths.loaderd)' --socket \(sock) --display image:path=\(dir)/f.ppm,size=8x8"
        let p = try Spawned("/bin/bash", ["-c", command], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        var held: [Client] = []
        for _ in 0..<10 { if let c = try? Client(path: sock, timeout: 1) { held.append(c) } }
        #expect(eventually { p.log.contains("accept: Too many open files") }, "\(p.log)")
        let before = PsplashFrontEndTests.cpuTicks(p.pid)
        usleep(1_000_000)
        let used = PsplashFrontEndTests.cpuTicks(p.pid) - before
        #expect(used < 30, "\(used) ticks of CPU in a second while the backlog waits: the loop spins")
        held.removeAll()
        #expect(eventually { (try? Client(path: sock).request("ping")) == "OK pong" })
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }

    /// max_clients above what RLIMIT_NOFILE allows is capped (and said so), so clients past the
    /// cap get `ERR busy` instead of the process running out of descriptors.
    @Test func maxClientsIsCappedByTheDescriptorLimit() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        let command = "ulimit -n 40 && exec '\(Paths.loaderd)' --socket \(sock) --display image:path=\(dir)/f.ppm,size=8x8 --max-clients 4096"
        let p = try Spawned("/bin/sh", ["-c", command], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        // What is left of 40 after the descriptors open (the test runner's inherited ones too).
        guard let capText = p.log.components(separatedBy: "max_clients 4096 capped to ").dropFirst().first?.prefix(while: { $0.isNumber }),
              let cap = Int(capText), p.log.contains("the open-file limit is 40") else {
            Issue.record("no cap logged: \(p.log)"); return
        }
        var clients: [Client] = []
        var served = 0, busy = 0
        #expect(eventually {  // the start-up check's connection may still be closing
            clients = []; served = 0; busy = 0
            for _ in 0..<(cap + 8) {
                guard let c = try? Client(path: sock) else { continue }
                clients.append(c)
                let reply = (try? c.request("ping")) ?? (try? c.readLine()) ?? nil
                if reply == "OK pong" { served += 1 } else if reply?.hasPrefix("ERR busy") == true { busy += 1 }
            }
            return served == cap
        }, "served \(served), busy \(busy)")
        #expect(served + busy == cap + 8)
        #expect(!p.log.contains("accept:"), "the process ran out of descriptors: \(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }
}
