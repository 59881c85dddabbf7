import Foundation
import ImageCodecs
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--config`, `--check-config` and SIGHUP with a good and a bad file, on the real binary.
@Suite struct ConfigFileTests {
    func write(_ text: String, to path: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    /// How many of `count` fresh connections are served (`OK pong`) rather than refused busy.
    func served(_ daemon: DaemonProcess, count: Int) throws -> Int {
        var clients: [Client] = []
        var ok = 0
        for _ in 0..<count {
            let c = try daemon.client()
            clients.append(c)
            if (try? c.request("ping")) == "OK pong" { ok += 1 }
        }
        return ok
    }

    @Test func sighupAppliesAGoodFileAndKeepsEverythingOnABadOne() throws {
        let dir = try Paths.temporaryDirectory()
        let config = dir + "/loaderd.toml"
        try write("[daemon]\nmax_clients = 2\n[loader]\nname = \"bar\"\nprogress = 20\n", to: config)
        let daemon = try DaemonProcess(arguments: ["--config", config])
        #expect(try daemon.client().request("status").contains("\"loader\":\"bar\""), "the file's [loader] starts at launch")
        // (Earlier connections — the start-up check's — may still be closing: ask until settled.)
        #expect(eventually { (try? served(daemon, count: 3)) == 2 }, "max_clients = 2 from the file")

        try write("[daemon]\nmax_clients = 3\n", to: config)
        daemon.process.signal(SIGHUP)
        #expect(eventually { daemon.process.log.contains("SIGHUP: settings reloaded") })
        #expect(eventually { (try? served(daemon, count: 4)) == 3 }, "the reloaded limit applies")

        try write("[daemon]\nmax_clients = \"many\"\nmax_line = 1\n", to: config)
        daemon.process.signal(SIGHUP)
        #expect(eventually { daemon.process.log.contains("max_line: expected an integer") }, "every error of the file is logged")
        #expect(daemon.process.log.contains("max_clients: expected an integer"))
        #expect(daemon.process.log.contains("the running settings are kept"))
        // (The clients of the previous count may still be closing: ask until one is served.)
        #expect(eventually { (try? daemon.client().request("status"))?.contains("\"progress\":20.0") == true }, "what is on screen is kept")
        #expect(eventually { (try? served(daemon, count: 4)) == 3 }, "a bad file changes nothing")
        #expect(try daemon.terminate() == 0)
    }

    /// A reload applies the look of the screen at once, to the loader on screen and to displays the
    /// same reload brings (they were drawn with the previous file's look); a display that cannot
    /// open keeps the running ones but not the rest of the file back; and the log says what took
    /// effect and what waits for the next start.
    @Test func sighupAppliesTheScreenAtOnceAndTheRestDespiteABadDisplay() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/loaderd.toml", socket = dir + "/s.sock"
        func file(size: String, background: String, extra: String = "") -> String {
            "[daemon]\nsocket = \"\(socket)\"\n[[display]]\ntype = \"image\"\npath = \"\(dir)/f.ppm\"\nsize = \"\(size)\"\n\(extra)"
                + "[screen]\nbackground = \"\(background)\"\n"
        }
        /// The colour of the frame's top-left pixel (the loader draws in the middle).
        func corner(_ rgb: [UInt8]) -> Bool { eventually { (try? ImageFile.read(path: dir + "/f.ppm")).map { Array($0.bytes[0..<3]) } == rgb } }
        try write(file(size: "32x8", background: "#ff0000"), to: config)
        let daemon = try Spawned(Paths.loaderd, ["--config", config, "--loader", "bar"], logPath: dir + "/log")
        defer { daemon.signal(SIGTERM); _ = try? daemon.wait() }
        try waitUntilListening(socket, daemon)
        #expect(corner([255, 0, 0]))

        try write(file(size: "32x8", background: "#00ff00"), to: config)
        daemon.signal(SIGHUP)
        #expect(corner([0, 255, 0]), "[screen] applies to the loader on screen: \(daemon.log)")
        #expect(eventually { daemon.log.contains("SIGHUP: settings reloaded; applied: [screen]") }, "\(daemon.log)")

        try write(file(size: "24x8", background: "#0000ff"), to: config)
        daemon.signal(SIGHUP)
        #expect(eventually { (try? ImageFile.read(path: dir + "/f.ppm"))?.width == 24 }, "\(daemon.log)")
        #expect(corner([0, 0, 255]), "a new display is drawn with the new file's look, not the previous one's")

        let bad = "[[display]]\ntype = \"fb\"\ndevice = \"\(dir)\"\ngeometry = \"64x64\"\nformat = \"xrgb8888\"\n"
        try write(file(size: "24x8", background: "#ffffff", extra: bad) + "[boot]\npsplash_fifo = true\npsplash_fifo_dir = \"\(dir)\"\n", to: config)
        daemon.signal(SIGHUP)
        #expect(eventually { daemon.log.contains("the running displays are kept, the rest of the file applies") }, "\(daemon.log)")
        #expect(corner([255, 255, 255]), "the rest of the file applies with the running display")
        #expect(eventually { daemon.log.contains("SIGHUP: [boot] changed: applied at the next start of loaderd") }, "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/psplash_fifo"))
        #expect(try Client(path: socket).request("status").contains("\"loader\":\"bar\""), "what is on screen is kept")
    }

    @Test func checkConfigReportsLineColumnAndKey() throws {
        let dir = try Paths.temporaryDirectory()
        let bad = dir + "/bad.toml", good = dir + "/good.toml"
        try write("[daemon]\nmax_clients = 2\nfsp = 3\n", to: bad)
        try write("[loader]\nname = \"worm\"\n", to: good)
        let log = dir + "/out"
        let r1 = try Spawned(Paths.loaderd, ["--check-config", bad], logPath: log + "1")
        #expect(try r1.wait() == 1)
        #expect(r1.log.contains("bad.toml:3:1"), "\(r1.log)")
        #expect(r1.log.contains("fsp"))
        let r2 = try Spawned(Paths.loaderd, ["--check-config", good], logPath: log + "2")
        #expect(try r2.wait() == 0)
        #expect(r2.log.contains("good.toml: OK"))
        let display = dir + "/display.toml"
        try write("[[display]]\ntype = \"image\"\npath = \"/tmp/x.png\"\nsize = \"8x8\"\nfoo = 1\n", to: display)
        let r4 = try Spawned(Paths.loaderd, ["--check-config", display], logPath: log + "4")
        #expect(try r4.wait() == 1)
        #expect(r4.log.contains("unknown key 'foo'"), "\(r4.log)")
        let r3 = try Spawned(Paths.loaderd, ["--check-config", dir + "/missing.toml"], logPath: log + "3")
        #expect(try r3.wait() == 1)
        #expect(r3.log.contains("No such file or directory"))
    }

    /// loaderd-shutdown.service and loaderd-reboot.service start `--loader linkedin --mode
    /// shutdown` / `--mode reboot`: the loader the config (or --mode-loader) names for the mode
    /// is shown, else linkedin.
    @Test func aShutdownOrRebootStartShowsTheLoaderNamedForItsMode() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/loaderd.toml"
        try write("[boot]\nshutdown_loader = \"worm\"\n", to: config)
        for (extra, expected) in [(["--mode", "shutdown"], "worm"), (["--mode", "reboot"], "linkedin"), ([], "linkedin"),
                                  (["--mode", "reboot", "--mode-loader", "reboot=quizup"], "quizup")] {
            let daemon = try DaemonProcess(arguments: ["--config", config, "--loader", "linkedin"] + extra)
            #expect(try daemon.client().request("status").contains("\"loader\":\"\(expected)\""), "\(extra)")
            #expect(try daemon.terminate() == 0)
        }
    }

    /// Every error at once, a line each at its place: a display's values (here one whose device
    /// does not exist, so nothing would have looked at them before the device appeared), the
    /// socket group this machine lacks; and the daemon refuses the same file, naming each error.
    @Test func checkConfigListsEveryErrorAndTheDaemonRefusesTheSameFile() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/loaderd.toml"
        try write("""
            [daemon]
            socket = "\(dir)/s.sock"
            socket_group = "no-such-group-here"
            max_clients = 0
            [[display]]
            type = "fb"
            device = "\(dir)/never/fb0"
            rotate = 45
            [loader]
            name = "bar"
            parameters = { fill = "reddish" }

            """, to: file)
        let check = try Spawned(Paths.loaderd, ["--check-config", file], logPath: dir + "/check")
        #expect(try check.wait() == 1)
        let lines = check.log.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: ":").dropFirst(2).prefix(2).joined(separator: ":") } == ["3:16", "4:15", "8:10", "11:23"], "\(check.log)")
        #expect(lines.allSatisfy { $0.hasPrefix("<3>loaderd: \(file):") }, "\(check.log)")
        #expect(check.log.contains("no group \"no-such-group-here\" on this machine"))
        #expect(check.log.contains("display.rotate: rotate=45: expected 0, 90, 180 or 270"))
        #expect(check.log.contains("loader.parameters.fill"))
        // The group aside (the daemon finds it missing after reading the file), the start names the same errors.
        try write(try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "socket_group = \"no-such-group-here\"\n", with: ""), to: file)
        let start = try Spawned(Paths.loaderd, ["--config", file], logPath: dir + "/start")
        #expect(try start.wait() == 1)
        #expect(start.log.split(separator: "\n").count == 3, "\(start.log)")
        #expect(start.log.contains("rotate=45") && start.log.contains("max_clients") && start.log.contains("reddish"), "\(start.log)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.sock"))
    }
}
