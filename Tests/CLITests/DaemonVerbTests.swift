import Foundation
import Testing

/// The daemon verbs of the real loaderctl binary against a scripted peer on a real Unix socket:
/// the exact request bytes, the output, and each exit status (0 ok, 1 ERR, 2 usage, 3 unreachable).
@Suite("loaderctl daemon verbs (the real binary, a fake daemon on a real socket)")
struct DaemonVerbTests {
    struct Exchange: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let request: String
        let reply: String
        let stdout: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// Runs loaderctl against a fake daemon that answers `reply`.
    private func run(_ arguments: [String], behavior: FakeDaemon.Behavior, environment: [String: String] = [:],
                     useFlag: Bool = true) throws -> (result: Binary.Result, request: String?) {
        let fake = try FakeDaemon()
        fake.serve(behavior)
        var env = environment
        if !useFlag { env["LOADERD_SOCKET"] = fake.path }
        let r = try Binary.run("loaderctl", arguments + (useFlag ? ["--socket", fake.path] : []), environment: env)
        if case .silent = behavior { fake.stop() }
        return (r, fake.receivedRequest)
    }

    static let exchanges: [Exchange] = [
        Exchange(arguments: ["ping"], request: "ping\n", reply: "OK pong\n", stdout: "pong\n"),
        Exchange(arguments: ["version"], request: "version\n", reply: "OK loaderd 0.1.0 protocol 1\n", stdout: "loaderd 0.1.0 protocol 1\n"),
        Exchange(arguments: ["start", "linkedin"], request: "start linkedin\n", reply: "OK started linkedin\n", stdout: "started linkedin\n"),
        Exchange(arguments: ["start", "linkedin", "fill=#0a66c2", "duration=1.2"], request: "start linkedin fill=#0a66c2 duration=1.2\n",
                 reply: "OK running linkedin\n", stdout: "running linkedin\n"),
        // A value with a space, or one that begins with a quote, goes in quotes (PROTOCOL.md).
        Exchange(arguments: ["start", "shimmer", #"text=Say "hi" \ go"#, "textColor=red"], request: #"start shimmer text="Say \"hi\" \\ go" textColor=red"# + "\n",
                 reply: "OK started shimmer\n", stdout: "started shimmer\n"),
        Exchange(arguments: ["start", "shimmer", #"text="x"#], request: #"start shimmer text="\"x""# + "\n", reply: "OK started shimmer\n", stdout: "started shimmer\n"),
        Exchange(arguments: ["start", "bar", "fill=red", "track=gray@0.5"], request: "start bar fill=red track=gray@0.5\n", reply: "OK started bar\n", stdout: "started bar\n"),
        Exchange(arguments: ["stop"], request: "stop\n", reply: "OK stopping\n", stdout: "stopping\n"),
        Exchange(arguments: ["stop", "success"], request: "stop success\n", reply: "OK stopping\n", stdout: "stopping\n"),
        Exchange(arguments: ["stop", "failure"], request: "stop failure\n", reply: "OK stopping\n", stdout: "stopping\n"),
        Exchange(arguments: ["stop", "now"], request: "stop now\n", reply: "OK stopped\n", stdout: "stopped\n"),
        Exchange(arguments: ["progress", "40"], request: "progress 40\n", reply: "OK progress 40\n", stdout: "progress 40\n"),
        Exchange(arguments: ["progress", "62.5", "--force"], request: "progress 62.5 force\n", reply: "OK progress 62.5\n", stdout: "progress 62.5\n"),
        Exchange(arguments: ["progress", "--force", "0"], request: "progress 0 force\n", reply: "OK progress 0\n", stdout: "progress 0\n"),
        Exchange(arguments: ["progress", "100"], request: "progress 100\n", reply: "OK progress 100\n", stdout: "progress 100\n"),
        Exchange(arguments: ["message", "Starting", "network"], request: "message Starting network\n", reply: "OK\n", stdout: ""),
        Exchange(arguments: ["message", "two  spaces"], request: "message two  spaces\n", reply: "OK\n", stdout: ""),
        Exchange(arguments: ["message", "Démarrage ✓"], request: "message Démarrage ✓\n", reply: "OK\n", stdout: ""),
        Exchange(arguments: ["message"], request: "message\n", reply: "OK\n", stdout: ""),
        // A word with a space is never an option: text, even when it begins with a dash.
        Exchange(arguments: ["message", "- item"], request: "message - item\n", reply: "OK\n", stdout: ""),
        Exchange(arguments: ["message", "-- Mounting --"], request: "message -- Mounting --\n", reply: "OK\n", stdout: ""),
        Exchange(arguments: ["message", "Step", "- two of three"], request: "message Step - two of three\n", reply: "OK\n", stdout: ""),
        Exchange(arguments: ["brightness", "0"], request: "brightness 0\n", reply: "OK brightness 0\n", stdout: "brightness 0\n"),
        Exchange(arguments: ["brightness", "100"], request: "brightness 100\n", reply: "OK brightness 100\n", stdout: "brightness 100\n"),
        Exchange(arguments: ["list", "--daemon"], request: "list\n", reply: "OK linkedin pagedots bar\n", stdout: "linkedin\npagedots\nbar\n"),
        Exchange(arguments: ["status", "--json"], request: "status\n", reply: "OK " + statusJSON + "\n", stdout: statusJSON + "\n"),
        // A \r before the \n is not part of the reply.
        Exchange(arguments: ["ping"], request: "ping\n", reply: "OK pong\r\n", stdout: "pong\n"),
    ]

    static let statusJSON = #"{"loader":"linkedin","state":"running","elapsed":12.345,"progress":40.0,"message":"Starting network","displays":[{"name":"image:/tmp/frame.png","width":64,"height":32,"fps":30},{"name":"fb:/dev/fb0","width":160,"height":120,"fps":60}],"fps":30,"frames_drawn":370,"frames_dropped":0,"brightness":100,"clients":1}"#

    @Test(arguments: exchanges)
    func sendsTheExactRequestAndPrintsTheReply(_ x: Exchange) throws {
        let (r, request) = try run(x.arguments, behavior: .reply(x.reply))
        #expect(request == x.request)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout == x.stdout)
        #expect(r.stderr == "")
    }

    @Test func statusIsReadable() throws {
        let (r, request) = try run(["status"], behavior: .reply("OK " + Self.statusJSON + "\n"))
        #expect(request == "status\n")
        #expect(r.status == 0)
        #expect(r.stdout == """
            loader:     linkedin (running, 12.3 s)
            progress:   40.0 %
            message:    Starting network
            displays:   image:/tmp/frame.png, 64x32 at 30 fps
                        fb:/dev/fb0, 160x120 at 60 fps
            frames:     370 drawn, 0 dropped, 30 fps
            brightness: 100 %
            clients:    1

            """)
        let idle = try run(["status"], behavior: .reply(#"OK {"loader":null,"state":"idle","elapsed":0,"progress":null,"message":null,"displays":[],"fps":30,"frames_drawn":0,"frames_dropped":0,"brightness":100,"clients":1}"# + "\n"))
        #expect(idle.result.stdout.hasPrefix("loader:     none (idle)\ndisplays:   none\n"))
        let bad = try run(["status"], behavior: .reply("OK not json\n"))
        #expect(bad.result.status == 1)
        #expect(bad.result.stderr == "loaderctl: the daemon's status is not a JSON object: not json\n")
    }

    @Test func socketFromTheEnvironment() throws {
        let (r, request) = try run(["ping"], behavior: .reply("OK pong\n"), useFlag: false)
        #expect(request == "ping\n")
        #expect(r.status == 0 && r.stdout == "pong\n")
        // --socket wins over $LOADERD_SOCKET.
        let (r2, request2) = try run(["ping"], behavior: .reply("OK pong\n"), environment: ["LOADERD_SOCKET": "/nonexistent/x.sock"])
        #expect(request2 == "ping\n" && r2.status == 0)
    }

    // MARK: Exit 1: the daemon said ERR

    @Test(arguments: [
        (["start", "linkedin"], "ERR unknown-loader unknown loader 'linkedin'; available: bar\n", "loaderctl: unknown loader 'linkedin'; available: bar\n"),
        (["progress", "40"], "ERR bad-number progress must be a decimal from 0 to 100, got '40'\n", "loaderctl: progress must be a decimal from 0 to 100, got '40'\n"),
        (["stop", "now"], "ERR denied not root and not in group loaderd\r\n", "loaderctl: not root and not in group loaderd\n"),
        (["ping"], "ERR usage\n", "loaderctl: usage\n"),
        (["ping"], "HELLO\n", "loaderctl: unexpected reply from loaderd at SOCKET: 'HELLO'\n"),
    ])
    func errorRepliesExit1WithTheDaemonsMessage(arguments: [String], reply: String, stderr: String) throws {
        let fake = try FakeDaemon()
        fake.serve(.reply(reply))
        let r = try Binary.run("loaderctl", arguments + ["--socket", fake.path])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == stderr.replacingOccurrences(of: "SOCKET", with: fake.path))
        #expect(fake.receivedRequest != nil)
    }

    // MARK: Exit 2: usage errors, and nothing is sent

    @Test(arguments: [
        (["progress", "abc"], "progress must be a decimal number from 0 to 100 (or -100 to -0: fill from the right), got 'abc'"),
        (["progress", "101"], "progress must be a decimal number from 0 to 100 (or -100 to -0: fill from the right), got '101'"),
        (["progress", "1e2"], "got '1e2'"),
        (["progress", "nan"], "got 'nan'"),
        (["progress", ".", ], "got '.'"),
        // Negative values are psplash's (fill from the right), so they are arguments, not options.
        (["progress", "-101"], "got '-101'"),
        (["progress", "-1e2"], "got '-1e2'"),
        (["progress", "--"], "Missing expected argument '<PERCENT>'"),
        (["progress", "5", "-x"], "Unknown option '-x'"),
        (["progress", "--", "--1"], "got '--1'"),
        (["progress"], "Missing expected argument '<PERCENT>'"),
        (["stop", "--wait-timeout", "0"], "--wait-timeout must be more than 0"),
        // A negative number given to an option or as an argument reaches its range check.
        (["stop", "--wait", "--wait-timeout", "-1"], "--wait-timeout must be more than 0 and at most 3600 seconds, got -1"),
        (["stop", "--wait-timeout", "5"], "--wait-timeout is the longest --wait waits; give --wait too"),
        (["--timeout", "-1", "ping"], "--timeout must be more than 0 and at most 3600 seconds, got -1"),
        (["ping", "--timeout", "-0.5"], "--timeout must be more than 0 and at most 3600 seconds, got -0.5"),
        (["brightness", "-1"], "brightness must be from 0 to 100, got -1"),
        (["progress", "-5", "--timeout", "-2"], "--timeout must be more than 0 and at most 3600 seconds, got -2"),
        (["stop", "--wait=yes"], "The option '--wait' does not take any value"),
        (["brightness", "101"], "brightness must be from 0 to 100, got 101"),
        (["brightness", "bright"], "The value 'bright' is invalid for '<PERCENT>'"),
        (["brightness", "+5"], "The value '+5' is invalid for '<PERCENT>'; brightness takes a whole number from 0 to 100"),
        (["brightness", "-0"], "The value '-0' is invalid for '<PERCENT>'"),
        (["stop", "later"], "The value 'later' is invalid for '<mode>'"),
        (["stop", "now", "now"], "Unexpected argument 'now'"),
        (["start"], "Missing expected argument '<name>'"),
        (["start", "nope"], "unknown loader 'nope'; available: linkedin, pagedots, quizup, shimmer, worm, skeleton, bar"),
        (["start", "linkdin"], "unknown loader 'linkdin' (did you mean 'linkedin'?); available: linkedin, pagedots,"),
        (["start", "linkedin", "fill=blu"], "linkedin: invalid fill=blu"),
        (["start", "linkedin", "fil=red"], "unknown parameter"),
        // Refused here, as the daemon and loaderd's --set refuse it (it was sent: exit 1).
        (["start", "pagedots", "count=5", "count=6"], "parameter 'count' is given twice; give each parameter once"),
        (["start", "linkedin", "fill"], "linkedin: 'fill': expected key=value"),
        (["start", "linkedin", "=red"], "linkedin: '=red': expected key=value"),
        (["start", "linkedin", "fill=dark blue"], "linkedin: invalid fill=dark blue"),
        (["start", "linkedin", "fi ll=red"], "parameter key 'fi ll' contains a space"),
        (["start", "shimmer", "text=two\nlines"], #"parameter 'text=two\u{A}lines' contains control character U+A"#),
        (["message", "two\nlines"], "control character U+A"),
        (["message", String(repeating: "x", count: 257)], "the message is 257 characters; at most 256 are accepted"),
        (["message", "tab\there"], "the message contains a tab (U+9); it must be one line of printable text"),
        (["ping", "extra"], "Unexpected argument 'extra'"),
        (["ping", "--timeout", "0"], "--timeout must be more than 0"),
        (["ping", "--socket", ""], "--socket must not be empty"),
        (["ping", "--socket", "/" + String(repeating: "s", count: 120)], "a Unix socket path must be shorter than 108"),
        (["frobnicate"], "Unexpected argument 'frobnicate'"),
        // What is accepted, said with the refusal.
        (["stop", "bogus"], "The value 'bogus' is invalid for '<mode>'; expected success, failure or now"),
        (["brightness", "50.5"], "The value '50.5' is invalid for '<PERCENT>'; brightness takes a whole number from 0 to 100"),
        (["nosuch"], "Unexpected argument 'nosuch': not a command; the commands are start, stop, progress, message, status, ping, brightness, version, render, preview, list, and help"),
        (["help", "nosuch"], "Unexpected argument 'nosuch': not a command; the commands are start, stop,"),
        (["pign"], "Unexpected argument 'pign': not a command (did you mean 'ping'?); the commands are"),
        (["help", "stats"], "Unexpected argument 'stats': not a command (did you mean 'status'?)"),
        (["-5"], "Unexpected argument '-5': not a command"),
        // Options before the verb are the verb's: checked the same way.
        (["--timeout", "0", "ping"], "--timeout must be more than 0"),
        (["--bogus", "ping"], "Unknown option '--bogus'"),
    ])
    func usageErrorsExit2WithoutContactingTheDaemon(arguments: [String], expected: String) throws {
        let fake = try FakeDaemon()
        let hasSocket = arguments.contains("--socket") || arguments.contains("--") || arguments == ["frobnicate"] || arguments.contains("--bogus")
        let r = try Binary.run("loaderctl", arguments + (hasSocket ? [] : ["--socket", fake.path]))
        #expect(r.status == 2)
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("Usage: loaderctl"))
        #expect(!fake.wasContacted)
    }

    /// Text that begins with a dash and has no space goes after `--` (the end of the options),
    /// which the help says; before the verb, a word with a space is the (unknown) verb, not an option.
    @Test func messageTextBeginningWithADash() throws {
        let fake = try FakeDaemon()
        fake.serve(.reply("OK\n"))
        let r = try Binary.run("loaderctl", ["--socket", fake.path, "message", "--", "-v", "--quiet"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(fake.receivedRequest == "message -v --quiet\n")
        let help = try Binary.run("loaderctl", ["help", "message"])
        #expect(help.stdout.contains("Text that begins with `-` goes after `--` (the end of the options)"))
        // `help` is a command too: `help help` is the top-level help, not "not a command".
        let helpHelp = try Binary.run("loaderctl", ["help", "help"])
        #expect(helpHelp.status == 0 && helpHelp.stdout.contains("See 'loaderctl help <subcommand>' for detailed help."), "stderr: \(helpHelp.stderr)")
        let dash = try Binary.run("loaderctl", ["message", "-v"])
        #expect(dash.status == 2 && dash.stderr.hasPrefix("Error: Unknown option '-v'\n"))
        let verb = try Binary.run("loaderctl", ["- item", "ping"])
        #expect(verb.status == 2 && verb.stderr.hasPrefix("Error: Unexpected argument '- item': not a command"), "stderr: \(verb.stderr)")
    }

    /// The message limit counts Unicode scalars, as the daemon does: 128 accented letters written
    /// as a letter and a combining accent (256 scalars, 128 characters) are sent; one more is
    /// refused here, exit 2, with the count the daemon would give.
    @Test func messageLimitCountsScalarsAsTheDaemonDoes() throws {
        let accented = String(repeating: "e\u{301}", count: 128)
        let fake = try FakeDaemon()
        fake.serve(.reply("OK\n"))
        let sent = try Binary.run("loaderctl", ["--socket", fake.path, "message", accented])
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        #expect(fake.receivedRequest == "message " + accented + "\n")
        let unsent = try FakeDaemon()
        let refused = try Binary.run("loaderctl", ["--socket", unsent.path, "message", accented + "e\u{301}"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the message is 258 characters; at most 256 are accepted"), "stderr: \(refused.stderr)")
        #expect(!unsent.wasContacted)
    }

    /// An argument quoted into an error shows its control characters escaped as the daemon
    /// escapes them (`\u{1B}`): an ESC, CR, LF or BEL from the command line must not reach the
    /// terminal. Usage errors (exit 2), failures (1) and an unreachable socket (3) alike; the
    /// messages of the modules loaderctl calls (a loader's, a colour's, a file's) too.
    @Test(arguments: [
        (["start", "no\u{1B}[31msuch"], 2, #"loader name 'no\u{1B}[31msuch' contains control character U+1B"#),
        (["start", "linkedin", "fi\u{1B}l=red"], 2, #"parameter key 'fi\u{1B}l' contains control character U+1B"#),
        (["start", "linkedin", "fill=re\u{7}d"], 2, #"parameter 'fill=re\u{7}d' contains control character U+7"#),
        (["start", "linkedin", "fill=re\u{9B}d"], 2, #"parameter 'fill=re\u{9B}d' contains control character U+9B"#),
        (["progress", "4\n0"], 2, #"got '4\u{A}0'"#),
        (["brightness", "5\u{1B}0"], 2, #"The value '5\u{1B}0' is invalid for '<PERCENT>'"#),
        (["stop", "now\r"], 2, #"The value 'now\u{D}' is invalid for '<mode>'"#),
        (["ping", "--timeout", "1\u{1B}"], 2, #"The value '1\u{1B}' is invalid for '--timeout <SECONDS>'"#),
        (["stop", "--wait-timeout", "2\u{7}"], 2, #"The value '2\u{7}' is invalid for '--wait-timeout <SECONDS>'"#),
        (["no\u{1B}such"], 2, #"Unexpected argument 'no\u{1B}such': not a command"#),
        (["help", "x\u{1B}]0;owned\u{7}"], 2, #"Unexpected argument 'x\u{1B}]0;owned\u{7}': not a command"#),
        (["status", "--js\u{1B}"], 2, #"Unknown option '--js\u{1B}'"#),
        (["ping", "extra\u{7F}"], 2, #"Unexpected argument 'extra\u{7F}'"#),
        (["render", "li\u{1B}nkedin", "-o", "/tmp/x.png"], 2, #"unknown loader 'li\u{1B}nkedin'"#),
        (["render", "linkedin", "--size", "64\u{1B}x16", "-o", "/tmp/x.png"], 2, #"The value '64\u{1B}x16' is invalid for '--size <WxH>'"#),
        (["render", "linkedin", "--set", "fill=\u{1B}red", "-o", "/tmp/x.png"], 2, #"invalid fill=\u{1B}red"#),
        (["render", "linkedin", "--background", "#\u{1B}00", "-o", "/tmp/x.png"], 2, #"invalid colour '#\u{1B}00'"#),
        (["render", "linkedin", "--message-style", "pl\u{1B}in", "-o", "/tmp/x.png"], 2, #"got 'pl\u{1B}in'"#),
        (["render", "linkedin", "--stop-at", "1", "--outcome", "su\rcc", "-o", "/tmp/x.png"], 2, #"got 'su\u{D}cc'"#),
        (["render", "linkedin", "-o", "/tmp/x.bmp\u{1B}"], 2, #"/tmp/x.bmp\u{1B}"#),
        (["render", "linkedin", "-o", "/nonexistent\u{1B}[2J/x.png"], 1, #"cannot write /nonexistent\u{1B}[2J/x.png"#),
        (["preview", "linkedin", "--set", "fill=\u{1B}red"], 2, #"invalid fill=\u{1B}red"#),
        (["ping", "--socket", "/tmp/a\rb"], 3, #"cannot connect to /tmp/a\u{D}b: No such file or directory"#),
    ])
    func controlCharactersOfArgumentsAreEscapedInMessages(arguments: [String], status: Int32, expected: String) throws {
        let fake = try FakeDaemon()
        let hasSocket = arguments.contains("--socket") || arguments.first == "render" || arguments.first == "preview" || !arguments[0].allSatisfy(\.isLetter)
        let r = try Binary.run("loaderctl", arguments + (hasSocket ? [] : ["--socket", fake.path]))
        #expect(r.status == status, "stderr: \(r.stderr)")
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        // Nothing a terminal acts on: no control character but the line ends.
        #expect(!r.stderr.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }, "stderr: \(r.stderr.debugDescription)")
        #expect(r.stdout == "")
        #expect(!fake.wasContacted)
    }

    /// The same function escapes loaderd's usage errors (the command-line code both programs share).
    @Test func loaderdUsageErrorsEscapeControlCharactersToo() throws {
        let r = try Binary.run("loaderd", ["--bo\u{1B}[2Jgus"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix(#"Error: Unknown option '--bo\u{1B}[2Jgus'"# + "\n"), "stderr: \(r.stderr)")
    }

    @Test func helpExits0() throws {
        for verb in ["start", "stop", "progress", "message", "status", "ping", "brightness", "version", "list"] {
            let r = try Binary.run("loaderctl", [verb, "--help"])
            #expect(r.status == 0, "\(verb): \(r.stderr)")
            #expect(r.stdout.contains("--socket <PATH>"))
            let h = try Binary.run("loaderctl", ["help", verb])
            #expect(h.status == 0 && h.stdout == r.stdout)
        }
    }

    // MARK: Exit 3: the daemon cannot be reached

    @Test func noSocketExits3NamingThePathWithAHint() throws {
        let path = "/tmp/loaderctl-test-missing/loaderd.sock"
        let r = try Binary.run("loaderctl", ["progress", "10", "--socket", path])
        #expect(r.status == 3)
        #expect(r.stderr == "loaderctl: cannot connect to \(path): No such file or directory (is loaderd running? start it or set --socket / LOADERD_SOCKET)\n")
        let env = try Binary.run("loaderctl", ["ping"], environment: ["LOADERD_SOCKET": path])
        #expect(env.status == 3)
        #expect(env.stderr.contains(path))
    }

    @Test func staleSocketFileExits3() throws {
        let dir = "/tmp/loaderctl-test-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/loaderd.sock"
        // Bound, never listening, then closed: the file stays, connect is refused.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        let r = try Binary.run("loaderctl", ["ping", "--socket", path])
        #expect(r.status == 3)
        #expect(r.stderr == "loaderctl: cannot connect to \(path): Connection refused (is loaderd running? start it or set --socket / LOADERD_SOCKET)\n")
        // Not a socket at all: said so, rather than "Connection refused" (still exit 3).
        for (made, what) in [("file", "a regular file"), ("dir", "a directory")] {
            let other = dir + "/" + made
            if made == "file" { FileManager.default.createFile(atPath: other, contents: Data()) } else {
                try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
            }
            let n = try Binary.run("loaderctl", ["ping", "--socket", other])
            #expect(n.status == 3)
            #expect(n.stderr == "loaderctl: cannot connect to \(other): it is \(what), not a socket (is --socket right? loaderd makes its socket there when it starts)\n")
        }
    }

    @Test func closedWithoutReplyExits3() throws {
        let (r, request) = try run(["ping"], behavior: .closeWithoutReply)
        #expect(request == "ping\n")
        #expect(r.status == 3)
        #expect(r.stderr.hasSuffix("closed the connection without a reply\n"))
    }

    /// Busy is asked again until the time-out; a daemon still busy then never took the request:
    /// exit 3 (not reached in time), with its words, not 1 (refused).
    @Test func busyForTheWholeTimeoutExits3() throws {
        let fake = try FakeDaemon()
        fake.serve(.reply("ERR busy too many clients (at most 64); try again later\n"))
        let r = try Binary.run("loaderctl", ["ping", "--timeout", "0.3", "--socket", fake.path])
        #expect(r.status == 3)
        #expect(r.stdout == "")
        #expect(r.stderr == "loaderctl: loaderd at \(fake.path) was busy for the whole --timeout of 0.3 s: too many clients (at most 64); try again later (raise --timeout)\n")
        #expect(fake.receivedRequest == "ping\n")
    }

    @Test func silentDaemonTimesOutWithExit3() throws {
        let start = Date()
        let (r, request) = try run(["ping", "--timeout", "0.3"], behavior: .silent)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(request == "ping\n")
        #expect(r.status == 3)
        #expect(r.stderr.hasSuffix("did not answer within 0.3 s (is it stuck? raise --timeout)\n"))
    }
}
