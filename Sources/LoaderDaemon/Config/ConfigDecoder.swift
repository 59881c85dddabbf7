import Raster
import Displays
import FixedPoint
import LinuxSystem
import Loaders
import CompactText

/// Turns the parsed TOML tree into a `Config`, checking every key and value.
///
/// The sections' decoders and the error builders are `@inline(never)`: run once per file, they
/// were otherwise inlined into `decode` (one 47 KB function whose hundreds of message literals the
/// optimiser kept in stack slots across all of it) and `unknownKey` into each section besides.
/// Kept apart, x86_64 loaderd is 12.7 KB smaller (docs/PERFORMANCE.md, "29 Nov").
///
/// Keys are told apart by their index in `Config.knownKeys` (`knownIndex`), not by a `switch` over
/// their names: each `case "name":` was a comparison and a literal of its own, and the table
/// names them already.
struct ConfigDecoder {
    let source: String
    /// Every error found so far: each key is checked on its own and the file is read to its end,
    /// so all of its errors are reported at once (`ConfigError.more`), up to `reportedLimit`.
    private(set) var problems: [ConfigError] = []
    /// Errors past the limit, counted only: a hostile file of 60,000 bad keys made 60,000 lines
    /// and 49 MB of messages.
    private(set) var unreported = 0
    static let reportedLimit = 50

    /// Whether to check what start-up would find about this machine too: that the socket's group
    /// exists (`--check-config`; the daemon itself finds that out when it makes the socket).
    let checksMachine: Bool

    init(source: String, checksMachine: Bool = false) { self.source = source; self.checksMachine = checksMachine }

    /// `report`, `error` and `expected` are calls: inlined, each of their ~30 uses held its own
    /// copy of the array growth or the error's construction (the sections ~2.5 KB smaller, by `nm`).
    @inline(never) mutating func report(_ error: ConfigError) {
        if problems.count < Self.reportedLimit { problems.append(error) } else { unreported += 1 }
    }

    @inline(never) func error(_ message: String, at position: SourcePosition, key: String?) -> ConfigError {
        ConfigError(source: source, line: position.line, column: position.column, key: key, message: message)
    }

    /// "expected WHAT, got VALUE" at the value: the form most of the file's errors take (for a
    /// string value, `shown` is the string quoted).
    @inline(never) func expected(_ what: String, _ value: TOMLValue, key: String) -> ConfigError {
        error(filled("expected {}, got {}", what, value.shown), at: value.position, key: key)
    }

    /// The index of `key` among `table`'s keys in `Config.knownKeys`; nil for an unknown key.
    @inline(never) static func knownIndex(_ key: String, _ table: Config.Table) -> Int? {
        let keys = Config.knownKeys[table.rawValue].keys
        for n in 0..<keys.count where keys[n] == key { return n }
        return nil
    }

    /// "unknown key 'fsp' in [daemon] (did you mean 'fps'?); known keys: ..."
    @inline(never) func unknownKey(_ entry: TOMLEntry, table: Config.Table) -> ConfigError {
        let (name, known) = Config.knownKeys[table.rawValue]
        if table == .top {
            let hint = suggestion(for: entry.key, among: known).map { $0 == "display" ? " (did you mean [[display]]?)" : filled(" (did you mean [{}]?)", $0) } ?? ""
            return error(filled("unknown table or key '{}'{}; the file has [daemon], [loader], [[display]], [boot] and [screen]", entry.key, hint), at: entry.keyPosition, key: nil)
        }
        return error(filled("unknown key '{}' in [{}]{}; known keys: {}", entry.key, name, didYouMean(entry.key, known), joined(known, separator: ", ")), at: entry.keyPosition, key: nil)
    }

    mutating func decode(_ root: TOMLTable) throws(ConfigError) -> Config {
        var config = Config()
        // Each section reports its own errors (no `throws` here: each `try` with its `catch` was
        // code of its own).
        for entry in root.entries {
            guard let n = Self.knownIndex(entry.key, .top) else { report(unknownKey(entry, table: .top)); continue }
            if n == 2 { config.displays = decodeDisplays(entry); continue }
            guard let t = table(entry) else { continue }
            switch n {
            // Into the defaults already in `config` (a section is read once: the parser refuses a
            // second [daemon]), not built anew and moved in: for size.
            case 0: decodeDaemon(t, into: &config.daemon)
            case 1: decodeLoader(t, into: &config.loader)
            case 3: decodeBoot(t, into: &config.boot)
            default: config.screen = decodeScreen(t)
            }
        }
        guard var error = ConfigError.combined(problems) else { return config }
        if unreported > 0 {
            error.more.append(ConfigError(source: source, message: filled("and {} more errors not shown; fix the ones above first", String(unreported))))
        }
        throw error
    }

    /// The section `entry` is (its key is the section's name); nil, reported, when it is not a table.
    @inline(never) mutating func table(_ entry: TOMLEntry) -> TOMLTable? {
        let name = entry.key
        switch entry.value.kind {
        case .table(let t): return t
        case .tableArray: report(error(filled("[[{}]] is a single table: write [{}]", name, name), at: entry.value.position, key: name))
        default: report(expected(filled("a table [{}]", name), entry.value, key: name))
        }
        return nil
    }

    // MARK: Sections

    @inline(never) private mutating func decodeDaemon(_ table: TOMLTable, into d: inout Config.Daemon) {
        for entry in table.entries {
            do { try daemonSetting(entry, into: &d) } catch { report(error) }
        }
    }

    /// One key of [daemon] (each on its own: an error in one leaves the others checked).
    @inline(never) private func daemonSetting(_ entry: TOMLEntry, into d: inout Config.Daemon) throws(ConfigError) {
        let key = "daemon." + entry.key
        let n = Self.knownIndex(entry.key, .daemon)
        switch n {
        case 0:  // socket
            let path = try string(entry, key)
            if let problem = SocketPath.problem(path) { throw expected(problem, entry.value, key: key) }
            d.socket = path
        case 1:  // socket_group
            // A group ID may be written as a TOML integer, as /etc/group and chown(1) write it.
            var group = ""
            switch entry.value.kind {
            case .string(let name): group = name
            case .integer(let id) where id >= 0 && id < Int(UInt32.max): group = String(id)
            default: break
            }
            // On the bytes, not by Character (for size).
            var usable = !group.isEmpty
            for b in Array(group.utf8) where b == .space || b == UInt8(ascii: ":") || b == UInt8(ascii: "/") { usable = false }
            guard usable else {
                throw expected("a group name or number", entry.value, key: key)
            }
            if checksMachine, Daemon.groupID(named: group) == nil {
                throw error(filled("no group {} on this machine (getent group lists them; the package and README's install make 'loaderd')", quoted(group)),
                            at: entry.value.position, key: key)
            }
            d.socketGroup = group
        case 2: d.maxClients = try integer(entry, key, 1...4096, what: "an integer from 1 to 4096")
        case 3, 4:  // idle_timeout, display_timeout: one path, their ranges and rules apart
            let idle = n == 3
            let seconds = try number(entry, key, 0...(idle ? 86400 : DisplayTimeout.maximumSeconds),
                                     what: idle ? "a number of seconds from 0 (never) to 86400" : "a number of seconds: 0 (wait forever) or from 0.1 to 86400")
            // The command line's rules too (IdleTimeout): 1e-10 is neither "never" nor a timeout.
            if let problem = idle ? IdleTimeout.problem(seconds: seconds) : DisplayTimeout.problem(seconds: seconds) {
                throw error(problem, at: entry.value.position, key: key)
            }
            if idle { d.idleTimeout = Time.microseconds(seconds: seconds) } else { d.displayTimeout = Time.microseconds(seconds: seconds) }
        case 5: d.maxLine = try integer(entry, key, 256...1_048_576, what: "an integer from 256 to 1048576")
        case 6:  // log_level
            let word = try string(entry, key)
            guard let level = Logger.Level(rawValue: word.asciiLowercased()) else {
                // The levels spelled out, in `allCases` order, rather than mapped from the cases (for size).
                throw expected("one of trace, debug, info, notice, warning, error, critical", entry.value, key: key)
            }
            d.logLevel = level
        default: throw unknownKey(entry, table: .daemon)
        }
    }

    @inline(never) private mutating func decodeLoader(_ table: TOMLTable, into l: inout Config.LoaderSettings) {
        var parametersEntry: TOMLEntry?
        for entry in table.entries {
            do { try loaderSetting(entry, into: &l, parametersEntry: &parametersEntry) } catch { report(error) }
        }
        // The parameters are checked against the loader they are for: not at all when the name
        // was refused above (that error is reported; "set loader.name" would be a wrong second one).
        if let parametersEntry {
            if let name = l.name {
                do {
                    try Catalog.validate(name, assignments: l.parameters.assignments)
                    if case .table(let t) = parametersEntry.value.kind { checkParameterKinds(t, loader: name) }
                } catch {
                    // Every bad parameter, as every other bad key is: each is checked alone; the
                    // whole set's error stands when none is wrong alone (a combination).
                    var reported = false
                    for p in l.parameters {
                        do throws(LoaderError) { try Catalog.validate(name, assignments: [(p.key, p.value)]) } catch {
                            report(parameterError(error, name: name, entry: parametersEntry))
                            reported = true
                        }
                    }
                    if !reported { report(parameterError(error, name: name, entry: parametersEntry)) }
                }
            } else if table.index(of: "name") == nil {
                report(error("parameters need a loader: set loader.name too", at: parametersEntry.keyPosition, key: "loader.parameters"))
            }
        }
    }

    /// One key of [loader].
    @inline(never) private func loaderSetting(_ entry: TOMLEntry, into l: inout Config.LoaderSettings, parametersEntry: inout TOMLEntry?) throws(ConfigError) {
        let key = "loader." + entry.key
        switch Self.knownIndex(entry.key, .loader) {
        case 0: l.name = try loaderName(entry, key)
        case 1:  // parameters
            guard case .table(let t) = entry.value.kind else {
                throw expected("a table of key = \"value\", e.g. { fill = \"#0a66c2\" }", entry.value, key: key)
            }
            for p in t.entries {
                guard let text = p.value.scalarText else {
                    throw expected("a string, number or boolean", p.value, key: filled("{}.{}", key, p.key))
                }
                l.parameters.append(Config.Parameter(p.key, text))
            }
            parametersEntry = entry
        case 2:  // message
            let text = try string(entry, key)
            var problem: String?
            let length = text.unicodeScalars.count  // one glyph each, as drawn
            if length > 256 {
                problem = filled("expected at most 256 characters, got {}", String(length))
            } else if RequestParser.firstControl(text[...]) != nil {
                problem = "the message must be one line without control characters"
            }
            if let problem { throw error(problem, at: entry.value.position, key: key) }
            l.message = text
        case 3:  // message_style
            let word = try string(entry, key)
            guard let style = MessageStyle(rawValue: word.asciiLowercased()) else {
                // The styles spelled out, in `allCases` order, as the log levels above (for size).
                throw expected("one of plain, grok, chatgpt, calm", entry.value, key: key)
            }
            l.messageStyle = style
        case 4:  // progress
            l.progress = try number(entry, key, 0...100, what: "a number from 0 to 100")
        default: throw unknownKey(entry, table: .loader)
        }
    }

    /// A catalog refusal, placed at the offending parameter.
    @inline(never) private func parameterError(_ error: LoaderError, name: String, entry: TOMLEntry) -> ConfigError {
        guard case .parameter(let p) = error, case .table(let t) = entry.value.kind, let bad = t[p.key] else {
            return self.error(error.description, at: entry.value.position, key: "loader.parameters")
        }
        let key = "loader.parameters." + p.key
        if p.reason.hasPrefix("unknown parameter") {
            var known: [String] = []
            if let type = Catalog.type(named: name) {
                for spec in type.parameters { known.append(spec.key) }  // a loop: the `map` was 0.4 KB
                if !type.presets.isEmpty { known.append("preset") }
            }
            return self.error(filled("unknown parameter '{}' for {}{}; {}", p.key, name, didYouMean(p.key, known), filled("{} accepts {}", name, joined(known, separator: ", "))), at: bad.keyPosition, key: nil)
        }
        return self.error(filled("{}, got {}", p.reason, bad.value.shown), at: bad.value.position, key: key)
    }

    @inline(never) private mutating func decodeBoot(_ table: TOMLTable, into b: inout Config.Boot) {
        for entry in table.entries {
            do { try bootSetting(entry, into: &b) } catch { report(error) }
        }
    }

    /// One key of [boot].
    @inline(never) private func bootSetting(_ entry: TOMLEntry, into b: inout Config.Boot) throws(ConfigError) {
        let key = "boot." + entry.key
        switch Self.knownIndex(entry.key, .boot) {
        case 0: b.psplashFifo = try boolean(entry, key)
        case 1: b.psplashFifoDir = try absolutePath(entry, key)
        case 2:  // plymouth
            if case .string(let word) = entry.value.kind, word == "auto" {
                b.plymouth = true; b.plymouthIfFree = true
            } else if case .boolean(let on) = entry.value.kind {
                b.plymouth = on; b.plymouthIfFree = false
            } else {
                throw expected("true, false or \"auto\" (answer only when plymouthd is not running)", entry.value, key: key)
            }
        case 3: b.timeline = try absolutePath(entry, key)
        case 4: b.statusMessages = try boolean(entry, key)
        case 5: b.shutdownLoader = try loaderName(entry, key)
        case 6: b.rebootLoader = try loaderName(entry, key)
        default: throw unknownKey(entry, table: .boot)
        }
    }

    // MARK: Typed values

    func absolutePath(_ entry: TOMLEntry, _ key: String) throws(ConfigError) -> String {
        let path = try string(entry, key)
        guard path.hasPrefix("/"), path.utf8.count < 4096, !path.contains("\0") else {
            throw expected("an absolute path (starting with /)", entry.value, key: key)
        }
        return path
    }

    func loaderName(_ entry: TOMLEntry, _ key: String) throws(ConfigError) -> String {
        let name = try string(entry, key)
        guard let type = Catalog.type(named: name) else {
            throw error(filled("unknown loader {}{}; available: {}", quoted(name), didYouMean(name, Catalog.names), joined(Catalog.names, separator: ", ")), at: entry.value.position, key: key)
        }
        return type.name
    }

    func string(_ entry: TOMLEntry, _ key: String) throws(ConfigError) -> String {
        guard case .string(let s) = entry.value.kind else {
            throw expected("a string", entry.value, key: key)
        }
        return s
    }

    func boolean(_ entry: TOMLEntry, _ key: String) throws(ConfigError) -> Bool {
        guard case .boolean(let b) = entry.value.kind else {
            throw expected("true or false", entry.value, key: key)
        }
        return b
    }

    /// `what` is the range in words, as the message gives it (a literal: the bounds interpolated were
    /// code of their own, for size).
    func integer(_ entry: TOMLEntry, _ key: String, _ range: ClosedRange<Int>, what: String) throws(ConfigError) -> Int {
        guard case .integer(let n) = entry.value.kind, range.contains(n) else {
            throw expected(what, entry.value, key: key)
        }
        return n
    }

    func number(_ entry: TOMLEntry, _ key: String, _ range: ClosedRange<Double>, what: String) throws(ConfigError) -> Double {
        let value: Double
        switch entry.value.kind {
        case .integer(let n): value = Double(n)
        case .float(let d, _): value = d
        default: value = .nan
        }
        guard value.isFinite, range.contains(value) else {
            throw expected(what, entry.value, key: key)
        }
        return value
    }
}

/// " (did you mean 'word'?)" when `word` is a likely typo of one of `candidates` (in `quote`s),
/// else "": every "did you mean" of the decoder, built in one place.
@inline(never) func didYouMean(_ word: String, _ candidates: [String], quote: String = "'") -> String {
    guard let near = suggestion(for: word, among: candidates) else { return "" }
    return filled(" (did you mean {}{}{}?)", quote, near, quote)
}
