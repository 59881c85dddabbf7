import Testing
@testable import LoaderDaemon

/// Config files written to hurt: nesting that would exhaust the stack, lines that made the parser
/// quadratic, values the command line reads differently. Each is refused with line and column,
/// or parsed in time proportional to its size.
@Suite struct HostileConfigTests {
    private func error(_ text: String) -> ConfigError? {
        do { _ = try Config.parse(text, source: "h.toml"); return nil } catch { return error }
    }

    static let tooDeep: [String] = {
        let a: String = Array(repeating: "a", count: 30_000).joined(separator: ".")
        let b: String = Array(repeating: "b", count: 40).joined(separator: ".")
        let c: String = Array(repeating: "c", count: 40).joined(separator: ".")
        let open: String = String(repeating: "{ a.b.c.d.e.f.g.h = ", count: 30)
        let close: String = String(repeating: " }", count: 30)
        return [
            a + " = 1",             // a dotted key
            "[" + a + "]",          // a table header
            "[[" + a + "]]",        // an array-of-tables header
            "[" + b + "]\n" + c + " = 1",  // a header and a dotted key under it
            "x = " + open + "1" + close,   // dotted keys in nested inline tables
        ]
    }()

    @Test(arguments: tooDeep)
    func tooDeepANestingIsRefusedWithItsPlace(text: String) {
        let e = error(text)
        #expect(e?.message.contains("at most \(TOMLParser.maximumKeyDepth) tables deep") == true, "\(e?.description ?? "accepted")")
        #expect(e?.line != nil && e?.column != nil)
    }

    @Test func nestingUpToTheBoundIsStillRead() throws {
        let key = Array(repeating: "k", count: TOMLParser.maximumKeyDepth).joined(separator: ".")
        let root = try TOML.parse(key + " = 1", source: "t")
        var table = root
        for _ in 1..<TOMLParser.maximumKeyDepth {
            guard case .table(let t)? = table["k"]?.value.kind else { Issue.record("missing level"); return }
            table = t
        }
        #expect(table["k"]?.value.kind == .integer(1))
    }

    /// Linear, not timed: the bytes stepped over to place values grow with the file, not with its
    /// square. A 100 KB one-line array used to cost ~n²/2 steps (5 to 8 s).
    @Test(arguments: [1_000, 10_000, 50_000])
    func aLongOneLineArrayIsParsedInLinearWork(items: Int) {
        let text = "x = [" + Array(repeating: "12", count: items).joined(separator: ", ") + "]\n"
        let work = TOML.columnWork(parsing: text)
        #expect(work <= 2 * text.utf8.count, "\(work) column steps for \(text.utf8.count) bytes")
    }

    @Test func manyKeysInOneTableAreLookedUpNotScanned() throws {
        let text = (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: "\n")
        let root = try TOML.parse(text, source: "t")
        #expect(root.entries.count == 20_000)
        #expect(root["k19999"]?.value.kind == .integer(19_999))
        #expect((try? TOML.parse(text + "\nk5 = 1", source: "t")) == nil, "a duplicate among many is still found")
    }

    /// Each `[[a]]` adds to the array in place: a copy of the array per header made 40,000 of them
    /// take 9 s (and a SIGHUP with such a file froze the splash that long).
    @Test func manyArrayTablesAreAddedToOneArray() throws {
        let root = try TOML.parse(String(repeating: "[[a]]\nk = 1\n", count: 40_000), source: "t")
        guard case .tableArray(let list)? = root["a"]?.value.kind else { Issue.record("no array of tables"); return }
        #expect(list.count == 40_000)
        #expect(list.allSatisfy { $0["k"]?.value.kind == .integer(1) })
    }

    @Test(arguments: ["1e-10", "0.0000000001", "0.0009", "-1", "86401"])
    func anIdleTimeoutNeitherNeverNorAtLeastOneMillisecondIsRefused(value: String) {
        let e = error("[daemon]\nidle_timeout = \(value)\n")
        #expect(e?.key == "daemon.idle_timeout", "\(e?.description ?? "accepted")")
        #expect(e?.line == 2 && e?.column == 16)
    }

    @Test func theIdleTimeoutRuleIsTheCommandLines() throws {
        #expect(IdleTimeout.problem(seconds: 0) == nil)
        #expect(IdleTimeout.problem(seconds: 0.001) == nil)
        #expect(IdleTimeout.problem(seconds: 1e-10) != nil)
        #expect(IdleTimeout.nanoseconds(seconds: 0) > 86_400 * 1_000_000_000, "0 is never")
        #expect(try Config.parse("[daemon]\nidle_timeout = 0\n").daemon.idleTimeout == 0)
        #expect(try Config.parse("[daemon]\nidle_timeout = 0.001\n").daemon.idleTimeout == 1000)
    }

    @Test(arguments: ["0.05", "-1", "86401", "nan", "\"60\"", "true"])
    func aDisplayTimeoutNeitherForeverNorATenthToADayIsRefused(value: String) {
        let e = error("[daemon]\ndisplay_timeout = \(value)\n")
        #expect(e?.key == "daemon.display_timeout", "\(e?.description ?? "accepted")")
        #expect(e?.line == 2 && e?.column == 19)
        #expect(e?.description.contains("0 (wait forever)") == true, "\(e?.description ?? "")")
        #expect(e?.description.contains("got \(value)") == true, "\(e?.description ?? "")")
    }

    @Test func theDisplayTimeoutRuleIsTheCommandLines() throws {
        #expect(DisplayTimeout.problem(seconds: 0) == nil)
        #expect(DisplayTimeout.problem(seconds: 0.1) == nil)
        #expect(DisplayTimeout.problem(seconds: 0.05) == "must be 0 (wait forever) or from 0.1 to 86400 seconds, got 0.05")
        #expect(try Config.parse("").daemon.displayTimeout == 60_000_000, "the default is 60 s")
        #expect(try Config.parse("[daemon]\ndisplay_timeout = 0\n").daemon.displayTimeout == 0)
        #expect(try Config.parse("[daemon]\ndisplay_timeout = 2.5\n").daemon.displayTimeout == 2_500_000)
        #expect(DaemonConfiguration(try Config.parse("[daemon]\ndisplay_timeout = 8\n"), path: "x").displayTimeout == 8_000_000_000)
    }

    @Test func launchSettingsAreCheckedAsTheConfigChecksThem() {
        #expect(LaunchCheck.problem(loader: "nosuch", assignments: [], idleTimeout: nil, message: nil)?.contains("unknown loader 'nosuch'") == true)
        #expect(LaunchCheck.problem(loader: "linkedin", assignments: ["duration=0.01"], idleTimeout: nil, message: nil)?.contains("duration") == true)
        #expect(LaunchCheck.problem(loader: "linkedin", assignments: ["duration=1", "duration=2"], idleTimeout: nil, message: nil)?.contains("given twice") == true)
        #expect(LaunchCheck.problem(loader: nil, assignments: [], idleTimeout: 1e-10, message: nil)?.contains("--idle-timeout") == true)
        #expect(LaunchCheck.problem(loader: nil, assignments: [], idleTimeout: nil, message: "a\u{1B}[2Jb") != nil)
        #expect(LaunchCheck.problem(loader: "linkedin", assignments: ["duration=2"], idleTimeout: 0, message: "Booting") == nil)
    }
}
