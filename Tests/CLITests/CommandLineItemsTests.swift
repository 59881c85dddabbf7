import Foundation
import Loaders
import Testing

/// The command-line conveniences of issue 15 on the real loaderctl, against a fake daemon on a
/// real socket: options before the verb, --quiet, --version, list --json, one exit-status
/// convention for both programs.
@Suite("loaderctl and loaderd command-line conveniences (the real binaries)")
struct CommandLineItemsTests {
    @Test(arguments: [
        ["--socket", "SOCKET", "ping"],
        ["--socket=SOCKET", "ping"],
        ["--timeout", "2", "--socket", "SOCKET", "ping"],
        ["--socket", "SOCKET", "ping", "--timeout", "2"],
    ])
    func optionsBeforeTheVerb(arguments: [String]) throws {
        let fake = try FakeDaemon()
        fake.serve(.reply("OK pong\n"))
        let r = try Binary.run("loaderctl", arguments.map { $0.replacingOccurrences(of: "SOCKET", with: fake.path) })
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout == "pong\n")
        #expect(fake.receivedRequest == "ping\n")
    }

    /// Every daemon verb sends the same request with --quiet (before or after the verb) and prints nothing.
    @Test(arguments: DaemonVerbTests.exchanges)
    func quietPrintsNothingOnSuccess(_ x: DaemonVerbTests.Exchange) throws {
        for quiet in [["--quiet"], ["-q"]] {
            let fake = try FakeDaemon()
            fake.serve(.reply(x.reply))
            let arguments = quiet.first == "-q" ? quiet + x.arguments : x.arguments + quiet
            let r = try Binary.run("loaderctl", arguments + ["--socket", fake.path])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stdout == "" && r.stderr == "")
            #expect(fake.receivedRequest == x.request)
        }
    }

    /// An option before the verb that lacks its value is a usage error, not the help.
    @Test(arguments: [
        (["--socket"], "--socket <PATH>"),
        (["--timeout"], "--timeout <SECONDS>"),
        (["--quiet", "--socket"], "--socket <PATH>"),
    ])
    func earlyOptionWithoutItsValueIsAUsageError(arguments: [String], label: String) throws {
        let r = try Binary.run("loaderctl", arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("Error: Missing value for '\(label)'\n"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("Usage: loaderctl"))
    }

    @Test func quietStillReportsFailures() throws {
        let fake = try FakeDaemon()
        fake.serve(.reply("ERR unknown-loader unknown loader 'bar'\n"))
        let r = try Binary.run("loaderctl", ["--quiet", "start", "bar", "--socket", fake.path])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "loaderctl: unknown loader 'bar'\n")
    }

    @Test func versionOfBothProgramsIsTheSameRelease() throws {
        let ctl = try Binary.run("loaderctl", ["--version"])
        #expect(ctl.status == 0 && ctl.stderr.isEmpty)
        #expect(ctl.stdout.hasPrefix("loaderctl ") && ctl.stdout.hasSuffix("\n"))
        let daemon = try Binary.run("loaderd", ["--version"])
        #expect(daemon.status == 0)
        #expect(String(ctl.stdout.dropFirst("loaderctl ".count)) == String(daemon.stdout.dropFirst("loaderd ".count)))
        // After a verb too, and it wins over the verb's checks.
        let late = try Binary.run("loaderctl", ["ping", "--version"])
        #expect(late.status == 0 && late.stdout == ctl.stdout)
    }

    /// One convention: usage errors exit 2 from both programs, with the same layout.
    @Test func usageErrorsExit2FromBothPrograms() throws {
        for program in ["loaderctl", "loaderd"] {
            let r = try Binary.run(program, ["--bogus"])
            #expect(r.status == 2, "\(program)")
            #expect(r.stderr.hasPrefix("Error: Unknown option '--bogus'\nUsage: \(program)"), "\(program): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func listJSONDescribesTheCatalog() throws {
        let r = try Binary.run("loaderctl", ["list", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.hasSuffix("]\n") && r.stdout.split(separator: "\n").count == 1)
        let loaders = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(loaders.compactMap { $0["name"] as? String } == Catalog.names)
        for (object, type) in zip(loaders, Catalog.loaders) {
            #expect(object["summary"] as? String == type.summary)
            let parameters = try #require(object["parameters"] as? [[String: String]])
            #expect(parameters.map { $0["key"] } == type.parameters.map { $0.key })
            #expect(parameters.map { $0["default"] } == type.parameters.map { $0.defaultValue })
            #expect((object["presets"] as? [[String: String]])?.map { $0["name"] } == type.presets.map { $0.name })
        }
        let names = try Binary.run("loaderctl", ["list", "--names", "--json"])
        #expect(try JSONSerialization.jsonObject(with: Data(names.stdout.utf8)) as? [String] == Catalog.names)
    }

    @Test func listDaemonJSON() throws {
        let fake = try FakeDaemon()
        fake.serve(.reply("OK linkedin bar\n"))
        let r = try Binary.run("loaderctl", ["list", "--daemon", "--json", "--socket", fake.path])
        #expect(r.status == 0)
        #expect(r.stdout == "[\"linkedin\",\"bar\"]\n")
        #expect(fake.receivedRequest == "list\n")
    }

    /// A word that is not valid UTF-8 is refused, naming it, not repaired into U+FFFD (the daemon
    /// answers such bytes sent raw with `ERR encoding`); by loaderd too. Foundation's Process
    /// passes only valid strings, so a shell's printf makes the bytes.
    @Test func argumentsThatAreNotUTF8AreRefused() throws {
        let fake = try FakeDaemon()
        let ctl = Binary.productsDirectory.appendingPathComponent("loaderctl").path
        let daemon = Binary.productsDirectory.appendingPathComponent("loaderd").path
        let expected = "Error: argument 2 ('ok\\xFF\\xFEend') is not valid UTF-8 (the bytes shown as \\xHH); arguments must be UTF-8 text\n"
        for (program, option) in [(ctl, "message"), (daemon, "--message")] {
            let r = try Binary.run("/bin/sh", ["-c", #"exec "$0" "$1" "$(printf 'ok\377\376end')" --socket "$2""#, program, option, fake.path])
            #expect(r.status == 2, "\(program): \(r.stderr)")
            #expect(r.stderr.hasPrefix(expected), "\(program): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(!fake.wasContacted)
        // Valid UTF-8 of every length still passes, as given.
        fake.serve(.reply("OK\n"))
        let ok = try Binary.run("/bin/sh", ["-c", #"exec "$0" message "$(printf 'D\303\251marrage \342\234\223 \360\237\232\200')" --socket "$1""#, ctl, fake.path])
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        #expect(fake.receivedRequest == "message Démarrage ✓ 🚀\n")
    }

    /// Standard output that cannot be written (a full disk: /dev/full) is a failure, exit 1,
    /// said on standard error, whether the words came from the daemon or from loaderctl.
    @Test(arguments: [["list", "--names"], ["--version"], ["help", "ping"], ["status", "--json"], ["ping"], ["stop", "--wait"]])
    func standardOutputThatCannotBeWrittenIsAFailure(arguments: [String]) throws {
        let fake = try FakeDaemon()
        let replies = ["status": "OK {\"state\":\"idle\"}\n", "ping": "OK pong\n", "stop": "OK stopping\n"]
        if let reply = replies[arguments[0]] { fake.serve(.reply(reply)) }
        let ctl = Binary.productsDirectory.appendingPathComponent("loaderctl").path
        let r = try Binary.run("/bin/sh", ["-c", #"exec "$0" "$@" --socket "$SOCKET" > /dev/full"#, ctl] + arguments,
                               environment: ["SOCKET": fake.path])
        #expect(r.status == 1, "\(arguments): \(r.stderr)")
        #expect(r.stderr == "loaderctl: cannot write to standard output: No space left on device\n")
    }

    /// A reader that went away (`loaderctl list | head -1`) is no error: with SIGPIPE ignored
    /// (otherwise SIGPIPE ends loaderctl, as any program), the rest is dropped quietly, exit 0;
    /// a preview, whose frames nobody sees, stops (it went on drawing until killed; the
    /// SIGKILL after 10 s is only so that such a bug cannot hang the tests: Process starts
    /// children with SIGTERM blocked).
    @Test(arguments: [["list"], ["preview", "bar", "--size", "8x2"]])
    func aClosedPipeIsQuiet(arguments: [String]) throws {
        let ctl = Binary.productsDirectory.appendingPathComponent("loaderctl").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap '' PIPE; exec timeout -s KILL 10 "$0" "$@""#, ctl] + arguments
        let out = Pipe(), err = Pipe()
        try out.fileHandleForReading.close()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(String(decoding: errors, as: UTF8.self) == "")
    }

    @Test func helpBeforeTheVerbAndHelpVerb() throws {
        let root = try Binary.run("loaderctl", ["--help"])
        #expect(root.status == 0 && root.stdout.contains("SUBCOMMANDS:"))
        #expect(try Binary.run("loaderctl", []).stdout == root.stdout)
        #expect(try Binary.run("loaderctl", ["help"]).stdout == root.stdout)
        let verb = try Binary.run("loaderctl", ["--socket", "/x", "stop", "--help"])
        #expect(verb.status == 0 && verb.stdout.contains("--wait-timeout <SECONDS>"))
    }
}
