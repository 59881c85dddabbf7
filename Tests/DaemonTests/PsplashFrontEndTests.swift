import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing

/// The psplash front end: the real loaderd reading `psplash_fifo` as psplash-write writes it.
@Suite struct PsplashFrontEndTests {
    /// psplash-write: open non-blocking (nothing happens without a reader), write strlen+1 bytes.
    @discardableResult
    static func psplashWrite(_ fifo: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
    static func psplashWrite(_ fifo: String, _ command: String) -> Bool { psplashWrite(fifo, Array(command.utf8) + [0]) }

    func status(_ daemon: DaemonProcess) throws -> [String: Any] {
        let line = try daemon.client().request("status")
        return try JSONSerialization.jsonObject(with: Data(line.dropFirst(3).utf8)) as? [String: Any] ?? [:]
    }
    func progress(_ d: DaemonProcess) -> Double? { ((try? status(d))?["progress"] as? NSNumber)?.doubleValue }
    func message(_ d: DaemonProcess) -> String? { (try? status(d))?["message"] as? String }

    func bar(_ percent: Int, _ assignments: [(key: String, value: String)] = []) throws -> RGBImage {
        var scene = Scene(loader: try Catalog.make("bar", assignments: assignments), width: 32, height: 8)
        scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed.ratio(Int64(percent), 100))))
        return RGBImage(canvas: scene.canvas, background: .black)
    }

    /// CPU ticks (user + system) the process has used.
    static func cpuTicks(_ pid: pid_t) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// psplash-systemd and boot scripts write PROGRESS all through the boot: after a client's
    /// `stop` (a script ended the splash early) it does not bring the bar back; a client's start
    /// lets it through again.
    @Test func progressDoesNotUndoAClientsStop() throws {
        let fifoDir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fifoDir) }
        let daemon = try DaemonProcess(arguments: ["--psplash-fifo=\(fifoDir)", "--loader", "bar"])
        let fifo = fifoDir + "/psplash_fifo"
        #expect(try daemon.client().request("stop") == "OK stopping")
        #expect(eventually { (try? daemon.client().request("status").contains("\"loader\":null")) == true })
        #expect(Self.psplashWrite(fifo, "PROGRESS 40"))
        #expect(Self.psplashWrite(fifo, "MSG Starting kiosk"))
        #expect(eventually { message(daemon) == "Starting kiosk" })
        #expect(!(try daemon.client().request("status").contains("\"loader\":\"bar\"")), "PROGRESS restarted the bar after a stop")
        #expect(try daemon.client().request("start bar") == "OK started bar")
        #expect(Self.psplashWrite(fifo, "PROGRESS 70"))
        #expect(eventually { progress(daemon) == 70 })
    }

    @Test func commandsAsPsplashWriteSendsThem() throws {
        let fifoDir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fifoDir) }
        let daemon = try DaemonProcess(arguments: ["--psplash-fifo=\(fifoDir)", "--log-level", "debug"])
        let fifo = fifoDir + "/psplash_fifo"
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO && (st.st_mode & 0o777) == 0o660)

        #expect(Self.psplashWrite(fifo, "PROGRESS 40"))
        #expect(eventually { progress(daemon) == 40 })
        #expect(try daemon.client().request("status").contains("\"loader\":\"bar\""))
        // psplash goes backwards when told to.
        #expect(Self.psplashWrite(fifo, "PROGRESS 20"))
        #expect(eventually { progress(daemon) == 20 })
        // A command written without a separator is taken as it is, as psplash takes it
        // (`echo -n`, `printf`): it waited for the next write and ran into it.
        #expect(Self.psplashWrite(fifo, Array("MSG Mounting filesystems".utf8)))
        #expect(eventually { message(daemon) == "Mounting filesystems" })
        #expect(Self.psplashWrite(fifo, Array("PROGRESS 45".utf8)))
        #expect(eventually { progress(daemon) == 45 && message(daemon) == "Mounting filesystems" })
        // Several in one write, \n and \0 separators, empty ones.
        #expect(Self.psplashWrite(fifo, Array("PROGRESS 55\n\n\0MSG Starting network\0BOGUS thing\nPROGRESS 250\n".utf8)))
        #expect(eventually { progress(daemon) == 100 && message(daemon) == "Starting network" })
        #expect(eventually { daemon.process.log.contains("<7>psplash front end: ignored 'BOGUS thing'") })
        // Over-long commands are dropped whole; the next one works.
        #expect(Self.psplashWrite(fifo, "MSG " + String(repeating: "x", count: 5000)))
        #expect(Self.psplashWrite(fifo, "MSG after"))
        #expect(eventually { message(daemon) == "after" })
        #expect(daemon.process.log.contains("dropped a command longer than 1024 bytes"))
        // Negative progress fills from the right.
        #expect(Self.psplashWrite(fifo, "PROGRESS -30"))
        #expect(eventually { progress(daemon) == 30 })
        #expect(Self.psplashWrite(fifo, "MSG"))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == (try? bar(30, [("direction", "right")])) })
        #expect(Self.psplashWrite(fifo, "PROGRESS 30"))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) == (try? bar(30)) })

        // Writers come and go: no end-of-file, no busy loop.
        let before = Self.cpuTicks(daemon.process.pid)
        usleep(500_000)
        #expect(Self.cpuTicks(daemon.process.pid) - before <= 5)

        #expect(Self.psplashWrite(fifo, "QUIT"))
        #expect(try daemon.process.wait() == 0)
        #expect(lstat(fifo, &st) != 0)
        #expect(try ImageFile.read(path: daemon.imagePath).bytes.allSatisfy { $0 == 0 })
    }

    @Test func bareFlagUsesPSPLASH_FIFO_DIRAndReusesAFIFO() throws {
        let fifoDir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fifoDir) }
        #expect(mkfifo(fifoDir + "/psplash_fifo", 0o600) == 0)
        let daemon = try DaemonProcess(arguments: ["--psplash-fifo"], environment: ["PSPLASH_FIFO_DIR": fifoDir])
        #expect(Self.psplashWrite(fifoDir + "/psplash_fifo", "MSG hello"))
        #expect(eventually { message(daemon) == "hello" })
        #expect(try daemon.terminate() == 0)
    }

    /// Bare, without $PSPLASH_FIFO_DIR, the flag turns the front end on where the config file
    /// puts the FIFO (`psplash_fifo_dir`), as `psplash_fifo = true` would; not in /run.
    @Test func bareFlagUsesTheConfigsDirectory() throws {
        let fifoDir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fifoDir) }
        let config = fifoDir + "/loaderd.toml"
        try "[boot]\npsplash_fifo_dir = \"\(fifoDir)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", config, "--psplash-fifo"], environment: ["PSPLASH_FIFO_DIR": ""])
        var st = stat()
        #expect(lstat(fifoDir + "/psplash_fifo", &st) == 0 && st.st_mode & S_IFMT == S_IFIFO, "log: \(daemon.process.log)")
        #expect(Self.psplashWrite(fifoDir + "/psplash_fifo", "MSG hello"))
        #expect(eventually { message(daemon) == "hello" })
        #expect(try daemon.terminate() == 0)
    }

    @Test func aRegularFileOrSymlinkIsRefused() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/psplash_fifo", contents: Data("x".utf8))
        let a = try Spawned(Paths.loaderd, ["--socket", dir + "/s", "--display", "image:path=\(dir)/f.ppm,size=8x8", "--psplash-fifo=\(dir)"], logPath: dir + "/a.log")
        #expect(try a.wait() == 1)
        #expect(a.log.contains("\(dir)/psplash_fifo is a regular file, not a FIFO; refusing to use it for the psplash FIFO (remove it)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/s"), "the failed start leaves no socket behind")

        let other = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(mkfifo(other + "/target", 0o600) == 0)
        #expect(symlink(other + "/target", other + "/psplash_fifo") == 0)
        let b = try Spawned(Paths.loaderd, ["--socket", dir + "/s2", "--display", "image:path=\(dir)/f.ppm,size=8x8", "--psplash-fifo=\(other)"], logPath: dir + "/b.log")
        #expect(try b.wait() == 1)
        #expect(b.log.contains("is a symbolic link; refusing to follow it"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/s2"))
        #expect(Self.psplashWrite(dir + "/nonexistent", "x") == false)
    }
}
