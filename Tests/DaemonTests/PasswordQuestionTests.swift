import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A passphrase asked on the console during the splash (systemd's password agents: an
/// `ask.XXXXXX` file in /run/systemd/ask-password): the displays that share the screen with the
/// console step aside until it is answered, the others go on. The real binary, with the
/// directory moved to a temporary one (`LOADERD_ASK_PASSWORD_DIR`) and a regular file standing
/// in for /dev/fb0.
@Suite struct PasswordQuestionTests {
    func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }

    func states(_ c: Client) -> [String] {
        _ = try? c.request("ping")  // a turn of the loop: events queued before it are handled
        guard let reply = try? c.request("status"), let data = reply.dropFirst(3).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let displays = object["displays"] as? [[String: Any]] else { return [] }
        return displays.compactMap { $0["state"] as? String }
    }

    /// As systemd-ask-password writes a question: a temporary file renamed into place.
    func ask(_ directory: String, _ name: String, pid: Int32, message: String) throws {
        let text = "[Ask]\nPID=\(pid)\nSocket=\(directory)/sck.1\nAcceptCached=1\nEcho=0\nNotAfter=0\nMessage=\(message)\n"
        try text.write(toFile: directory + "/tmp.1", atomically: false, encoding: .utf8)
        #expect(rename(directory + "/tmp.1", directory + "/" + name) == 0)
    }

    @Test func theConsolesDisplayStepsAsideWhileAPasswordIsAsked() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fb = dir + "/fb.raw", image = dir + "/frame.ppm", sock = dir + "/s.sock"
        let questions = dir + "/run/ask-password"  // made after the start: its parent is watched until then
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display-timeout", "0.2",
                                            "--display", "fb:device=\(fb),geometry=64x16,format=xrgb8888,console=keep",
                                            "--display", "image:path=\(image),size=32x8", "--loader", "linkedin", "--progress", "40"],
                            environment: ["LOADERD_ASK_PASSWORD_DIR": questions], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(states(c) == ["ok", "ok"], "\(p.log)")
        #expect(eventually { bytes(fb).contains { $0 != 0 } }, "\(p.log)")

        // A question whose asker has died (its file left behind) is no question: nothing steps aside.
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        try FileManager.default.createDirectory(atPath: questions, withIntermediateDirectories: true)
        try ask(questions, "ask.stale", pid: dead.processIdentifier, message: "Left over")
        #expect(states(c) == ["ok", "ok"], "\(p.log)")

        try ask(questions, "ask.Xy12ab", pid: getpid(), message: "Please enter passphrase for disk data (home)")
        #expect(eventually { states(c) == ["aside", "ok"] }, "\(p.log)")
        #expect(p.log.contains("<5>a password is asked on the console (\"Please enter passphrase for disk data (home)\"): fb:\(fb) steps aside until it is answered"), "\(p.log)")
        // loaderctl status says why the display is not drawn (it showed the place holder's 1x1 at 1 fps).
        let human = try Spawned(Paths.products + "/loaderctl", ["status", "--socket", sock], logPath: dir + "/status.out")
        #expect(try human.wait() == 0)
        #expect(human.log.contains("fb:\(fb), stepped aside: a password is asked on the console\n"), "\(human.log)")
        // Aside, the framebuffer is not drawn (cleared here, it stays clear), while the image
        // display goes on and clients are served; longer than display_timeout, it is not given up.
        try Data(count: 64 * 16 * 4).write(to: URL(fileURLWithPath: fb))
        #expect(try c.request("progress 70") == "OK progress 70")
        #expect(try c.request("message Mounting /home") == "OK")
        let before = bytes(image)
        #expect(eventually { bytes(image) != before }, "the image display stopped: \(p.log)")
        usleep(400_000)
        #expect(states(c) == ["aside", "ok"], "\(p.log)")
        #expect(!bytes(fb).contains { $0 != 0 }, "the framebuffer was drawn while a password was asked")
        #expect(!p.log.contains("giving up"), "\(p.log)")

        // Answered (the asker removes its file): the screen comes back with the current frame.
        #expect(unlink(questions + "/ask.Xy12ab") == 0)
        #expect(eventually { states(c) == ["ok", "ok"] }, "\(p.log)")
        #expect(eventually { bytes(fb).contains { $0 != 0 } }, "the framebuffer was not drawn again: \(p.log)")
        #expect(p.log.contains("<5>the password questions are answered: drawing on fb:\(fb) again"), "\(p.log)")

        // The directory removed and made again is still followed; the daemon ends normally aside.
        try FileManager.default.removeItem(atPath: questions)
        _ = states(c)
        try FileManager.default.createDirectory(atPath: questions, withIntermediateDirectories: true)
        _ = states(c)
        try ask(questions, "ask.second", pid: getpid(), message: "Second")
        #expect(eventually { states(c) == ["aside", "ok"] }, "\(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
    }

    /// With no display on the console's screen (an LED matrix, an image) nothing is watched or logged.
    @Test func displaysOffTheConsoleDoNotStepAside() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = dir + "/frame.ppm", sock = dir + "/s.sock", questions = dir + "/ask"
        try FileManager.default.createDirectory(atPath: questions, withIntermediateDirectories: true)
        try ask(questions, "ask.a", pid: getpid(), message: "Passphrase")
        let p = try Spawned(Paths.loaderd, ["--socket", sock, "--display", "image:path=\(image),size=32x8", "--loader", "bar"],
                            environment: ["LOADERD_ASK_PASSWORD_DIR": questions], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        let c = try Client(path: sock)
        #expect(states(c) == ["ok"], "\(p.log)")
        p.signal(SIGTERM)
        #expect(try p.wait() == 0, "\(p.log)")
        #expect(!p.log.contains("password"), "\(p.log)")
    }
}
