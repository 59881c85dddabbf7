import Foundation
import ImageCodecs
import Testing

/// Signals, systemd integration, the socket file and start-up errors.
@Suite struct LifecycleTests {
    @Test func sigtermClearsAndRemovesTheSocket() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "linkedin", "--set", "fill=red"])
        let c = try daemon.client()
        #expect(try c.request("ping") == "OK pong")
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(try daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        // The display was cleared: every pixel is the background.
        let image = try ImageFile.read(path: daemon.imagePath)
        #expect(image.bytes.allSatisfy { $0 == 0 })
        #expect(daemon.process.log.contains("<5>signal SIGTERM"))
    }

    /// `--pid-file`: the initramfs script starts loaderd in the background and needs no loop: the
    /// file exists once the socket is served, holds the pid, and goes at exit.
    @Test func thePidFileIsWrittenOnceServingAndRemovedAtExit() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pidPath = dir + "/l.pid"
        let daemon = try DaemonProcess(arguments: ["--pid-file", pidPath])
        #expect(eventually { (try? String(contentsOfFile: pidPath, encoding: .utf8)) == "\(daemon.process.pid)\n" }, "\(daemon.process.log)")
        #expect(!FileManager.default.fileExists(atPath: pidPath + ".new"))
        #expect(try daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: pidPath), "the pid file outlived the process")
    }

    /// A loaderd that cannot start writes none, so loaderd.service is not kept from starting one.
    @Test func aLoaderdThatCannotStartWritesNoPidFile() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Spawned(Paths.loaderd, ["--pid-file", dir + "/l.pid", "--socket", dir + "/missing/s.sock",
                                            "--display", "image:path=\(dir)/f.ppm,size=8x8"], logPath: dir + "/log")
        #expect(try p.wait() == 1, "\(p.log)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/l.pid"))
    }

    @Test func sigintStopsToo() throws {
        let daemon = try DaemonProcess()
        daemon.process.signal(SIGINT)
        #expect(try daemon.process.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func sighupKeepsServing() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "bar"])
        let c = try daemon.client()
        #expect(try c.request("progress 30") == "OK progress 30")
        daemon.process.signal(SIGHUP)
        #expect(eventually { daemon.process.log.contains("SIGHUP") })
        #expect(try c.request("ping") == "OK pong")
        #expect(try c.request("status").contains("\"progress\":30.0"))
        #expect(try daemon.client().request("ping") == "OK pong")
        #expect(try daemon.terminate() == 0)
    }

    @Test func socketActivationUsesFd3() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/activated.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = Client.address(path)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 16) == 0)
        // As systemd does: the socket as fd 3, LISTEN_PID = the daemon's own pid.
        let process = try Spawned("/bin/sh", ["-c", "LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=loaderd.socket exec \"$0\" \"$@\"",
                                              Paths.loaderd, "--socket", dir + "/unused.sock",
                                              "--display", "image:path=\(dir)/f.ppm,size=16x8"],
                                  logPath: dir + "/log", fd3: fd)
        let c = try Client(path: path)
        #expect(try c.request("ping") == "OK pong")
        #expect(!FileManager.default.fileExists(atPath: dir + "/unused.sock"))
        process.signal(SIGTERM)
        #expect(try process.wait() == 0)
        #expect(process.log.contains("passed by systemd"))
        // systemd owns the file of an activated socket: it stays.
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [false, true])
    func sdNotifyReadyStatusStopping(abstract: Bool) throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = abstract ? "@loaderd-test-\(getpid())-\(UUID().uuidString.prefix(8))" : dir + "/notify.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var addr = Client.address(name)
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        if abstract {
            withUnsafeMutableBytes(of: &addr.sun_path) { $0[0] = 0 }
            length = socklen_t(MemoryLayout<sa_family_t>.size + name.utf8.count)
        }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        #expect(bound == 0)
        var tv = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }
        let daemon = try DaemonProcess(arguments: ["--loader", "worm"], environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "200000"])
        var seen: [String] = []
        #expect(eventually { if let m = receive() { seen.append(m) }; return seen.contains("READY=1") && seen.contains("STATUS=worm") && seen.contains("WATCHDOG=1") })
        #expect(try daemon.client().request("stop now") == "OK stopped")
        #expect(eventually { if let m = receive() { seen.append(m) }; return seen.contains("STATUS=idle") })
        #expect(try daemon.terminate() == 0)
        #expect(eventually { if let m = receive() { seen.append(m) }; return seen.contains("STOPPING=1") })
    }

    @Test func symlinkAtTheSocketPathIsRefused() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/s.sock", withDestinationPath: dir + "/target")
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s.sock", "--display", "image:path=\(dir)/f.ppm,size=8x8"], logPath: dir + "/log")
        #expect(try p.wait() == 1)
        #expect(p.log.contains("symbolic link"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/target"))
    }

    @Test func liveSocketRefusedStaleSocketReplaced() throws {
        let first = try DaemonProcess()
        let dir = first.directory
        let second = try Spawned(Paths.loaderd, ["--socket", first.socketPath, "--display", "image:path=\(dir)/g.ppm,size=8x8"], logPath: dir + "/log2")
        #expect(try second.wait() == 1)
        #expect(second.log.contains("another loaderd is listening on \(first.socketPath)"))
        #expect(try first.client().request("ping") == "OK pong")
        // A stale socket file: killed without cleanup.
        first.process.signal(SIGKILL)
        _ = try first.process.wait()
        #expect(FileManager.default.fileExists(atPath: first.socketPath))
        let third = try Spawned(Paths.loaderd, ["--socket", first.socketPath, "--display", "image:path=\(dir)/h.ppm,size=8x8"], logPath: dir + "/log3")
        #expect(eventually { (try? Client(path: first.socketPath).request("ping")) == "OK pong" })
        third.signal(SIGTERM)
        #expect(try third.wait() == 0)
        // Something that is not a socket is left alone.
        _ = FileManager.default.createFile(atPath: dir + "/plain", contents: Data("x".utf8))
        let fourth = try Spawned(Paths.loaderd, ["--socket", dir + "/plain", "--display", "image:path=\(dir)/h.ppm,size=8x8"], logPath: dir + "/log4")
        #expect(try fourth.wait() == 1)
        #expect(fourth.log.contains("is not a socket"))
    }

    @Test func socketModeIs0660() throws {
        let daemon = try DaemonProcess()
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o660)
        _ = try daemon.terminate()
    }

    @Test func badDisplaysAndMissingDisplayAreExplained() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func run(_ args: [String]) throws -> (Int32, String) {
            let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s.sock"] + args, logPath: dir + "/log-\(UUID().uuidString)")
            return (try p.wait(), p.log)
        }
        // No display named and no terminal: `auto` (DRM, else the first framebuffer), as a boot
        // splash; here there is neither: it waits, saying what it looked at and what to do, and
        // gives up after the display timeout (status 4, DisplayWaitTests has the rest).
        var (status, log) = try run(["--display-timeout", "0.1"])
        if !FileManager.default.fileExists(atPath: "/dev/fb0") && !FileManager.default.fileExists(atPath: "/dev/dri") {
            #expect(status == 4)
            #expect(log.contains("auto: no display device") && log.contains("is the display driver loaded") && log.contains("waiting for /dev/dri/card* or /dev/fb*"))
        }
        // A bad display spec is a usage error (2), found before the socket is made.
        func refusedBeforeListening(_ log: String) -> Bool {
            log.hasPrefix("Error: invalid display '") && log.contains("Usage: loaderd") && !log.contains("listening")
                && !FileManager.default.fileExists(atPath: dir + "/s.sock")
        }
        (status, log) = try run(["--display", "bogus:x=1"])
        #expect(status == 2 && refusedBeforeListening(log) && log.contains("unknown display type 'bogus'") && log.contains("image, terminal"))
        (status, log) = try run(["--display", "image:path=\(dir)/a.ppm,size=8x8,speed=3"])
        #expect(status == 2 && refusedBeforeListening(log) && log.contains("unknown key 'speed'") && log.contains("path, size, background, fps"))
        (status, log) = try run(["--display", "image:path=\(dir)/a.gif,size=8x8"])
        #expect(status == 2 && refusedBeforeListening(log) && log.contains(".ppm or .png"))
        (status, log) = try run(["--display", "image:path=\(dir)/a.ppm,size=8by8"])
        #expect(status == 2 && refusedBeforeListening(log) && log.contains("size='8by8'"))
        (status, log) = try run(["--display", "image:path=\(dir)/a.ppm,size=8x8,fps=0"])
        #expect(status == 2 && refusedBeforeListening(log) && log.contains("fps='0'"))
        (status, log) = try run(["--display", "image:size=8x8"])
        #expect(status == 2 && refusedBeforeListening(log) && log.contains("missing path"))
        (status, log) = try run(["--display", "image:path=\(dir)/a.ppm,size=8x8", "--socket-group", "no-such-group-xyz"])
        #expect(status == 1 && log.contains("no group 'no-such-group-xyz' on this machine for the control socket (--socket-group, or [daemon] socket_group in the config)"))
        (status, log) = try run(["--display", "image:path=\(dir)/a.ppm,size=8x8", "--progress", "nan"])
        #expect(status != 0 && log.contains("--progress"))
    }
}
