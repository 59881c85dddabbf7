import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a client (or a command line) may send that must be refused, and what the daemon must
/// never send back raw: the real binary over its real socket.
@Suite struct HostileClientTests {
    /// No control character of C0, DEL or C1 in `text`.
    static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test(arguments: ["\u{1B}[2J\u{1B}]0;owned\u{07}", "tab\there", "csi \u{9B}31m", "bell\u{07}", "del\u{7F}"])
    func aMessageWithControlCharactersIsRefusedAndNeverStored(text: String) throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "bar"])
        let c = try daemon.client()
        #expect(try c.request("message Booting") == "OK")
        let reply = try c.request("message " + text)
        #expect(reply.hasPrefix("ERR encoding a message is one line of printable text"), "\(reply)")
        #expect(Self.isPrintable(reply), "the reply echoes a control character raw: \(reply.debugDescription)")
        #expect(try c.request("status").contains("\"message\":\"Booting\""))
        #expect(try daemon.terminate() == 0)
    }

    /// Whatever a request or a parameter error echoes back comes out escaped.
    @Test(arguments: ["start \u{1B}[31mred", "start bar fill=\u{1B}[2J", "\u{1B}]0;title\u{07}", "stop \u{9B}1m", "progress \u{1B}"])
    func repliesNeverCarryARawControlCharacter(request: String) throws {
        let daemon = try DaemonProcess()
        let reply = try daemon.client().request(request)
        #expect(reply.hasPrefix("ERR "), "\(reply)")
        #expect(Self.isPrintable(reply), "\(reply.debugDescription)")
        #expect(reply.contains("\\u{"), "the control character is not shown escaped: \(reply)")
        #expect(try daemon.terminate() == 0)
    }

    @Test(arguments: ["start linkedin duration=1 duration=2", "start bar fill=red fill=red"])
    func aParameterGivenTwiceIsRefused(request: String) throws {
        let daemon = try DaemonProcess()
        let c = try daemon.client()
        let reply = try c.request(request)
        #expect(reply.hasPrefix("ERR bad-parameter parameter '") && reply.contains("given twice"), "\(reply)")
        #expect(try c.request("status").contains("\"loader\":null"))
        #expect(try daemon.terminate() == 0)
    }

    /// `--loader nosuch`, a parameter the loader refuses, a parameter twice, an idle timeout that is
    /// neither "never" nor at least 1 ms: usage errors before anything starts (no socket, no
    /// screen), as the config file refuses the same values with line and column.
    @Test(arguments: [
        (["--loader", "nosuch"], "unknown loader 'nosuch'"),
        (["--loader", "linkedin", "--set", "duration=0.01"], "duration"),
        (["--loader", "linkedin", "--set", "duration=1", "--set", "duration=2"], "given twice"),
        (["--idle-timeout", "0.0000000001"], "--idle-timeout must be 0 (never) or from 0.001 to 86400 seconds"),
        (["--message", "\u{1B}[2J"], "--message must be one line without control characters"),
    ])
    func badLaunchSettingsAreUsageErrors(arguments: [String], expected: String) throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s.sock", "--display", "image:path=\(dir)/f.ppm,size=8x8"] + arguments,
                            logPath: dir + "/log")
        // 2 once the command line's usage errors are unified (the CLI work); 64 (EX_USAGE) before.
        let status = try p.wait()
        #expect(status == 2 || status == 64, "exit \(status): \(p.log)")
        #expect(p.log.contains(expected), "\(p.log)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.sock"), "a daemon started")
    }

    @Test func anIdleTimeoutOfZeroMeansNeverOnTheCommandLineAsInTheConfig() throws {
        let daemon = try DaemonProcess(arguments: ["--idle-timeout", "0"])
        let c = try daemon.client()
        usleep(200_000)
        #expect(try c.request("ping") == "OK pong")
        #expect(try daemon.terminate() == 0)
    }

    /// Routine commands log at debug: a boot script's `start` at info filled 13.8 MB in 5 minutes.
    @Test func routineCommandsAreNotLoggedAtInfo() throws {
        let quiet = try DaemonProcess()
        let loud = try DaemonProcess(arguments: ["--log-level", "debug"])
        for daemon in [quiet, loud] {
            let c = try daemon.client()
            for name in ["bar", "worm", "bar", "linkedin"] { #expect(try c.request("start \(name)").hasPrefix("OK started")) }
            #expect(try c.request("stop now") == "OK stopped")
        }
        #expect(try quiet.terminate() == 0)
        #expect(try loud.terminate() == 0)
        #expect(!quiet.process.log.contains("started "), "\(quiet.process.log)")
        #expect(loud.process.log.contains("<7>started linkedin"), "\(loud.process.log)")
    }

    /// A hostile (or old) daemon's words reach loaderctl's terminal escaped: a fake daemon answers
    /// `status` with an escape sequence in the message, raw and JSON-escaped.
    @Test(arguments: ["OK {\"loader\":\"bar\",\"state\":\"running\",\"message\":\"\\u001b[2J\\u001b]0;owned\\u0007\"}",
                      "OK {\"loader\":\"b\u{1B}[31mar\",\"state\":\"running\"}",  // raw in JSON: not JSON; dropped, not printed
                      "ERR usage \u{1B}[2Jgone"])
    func loaderctlNeverPrintsADaemonsControlCharacters(reply: String) throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/fake.sock"
        let server = try FakeDaemon(path: path, reply: reply)
        let out = dir + "/out"
        let p = try Spawned(Paths.products + "/loaderctl", ["status", "--socket", path], logPath: out)
        _ = try p.wait()
        server.stop()
        let printed = p.log
        #expect(!printed.isEmpty)
        #expect(Self.isPrintable(printed.replacingOccurrences(of: "\n", with: "")), "\(printed.debugDescription)")
        #expect(printed.contains("\\u{1B}") || printed.contains("loader:     none"), "\(printed)")
    }
}

/// A socket that answers every request line with one fixed reply (a daemon that misbehaves).
final class FakeDaemon: @unchecked Sendable {
    let fd: Int32
    let thread: Thread
    init(path: String, reply: String) throws {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = Client.address(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0, listen(listener, 4) == 0 else { close(listener); throw HarnessError("fake daemon: bind/listen \(errno)") }
        fd = listener
        thread = Thread {
            let c = accept(listener, nil, nil)
            guard c >= 0 else { return }
            var byte: UInt8 = 0
            while recv(c, &byte, 1, 0) == 1 && byte != 0x0A {}
            let line = Array((reply + "\n").utf8)
            _ = line.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(c)
        }
        thread.start()
    }
    func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}
