import Raster
import Displays
import FixedPoint
import CLinux
import LinuxSystem
import Loaders
import CompactText

/// The daemon's settings, as read from `loaderd.toml` (config/loaderd.toml documents every key).
///
/// `Config()` holds the defaults; a file only needs the keys it changes. Everything is checked
/// when the file is read (types, ranges, loader names and parameters, display types), so a
/// running daemon can reload on SIGHUP and simply keep the old settings if the new file is bad.
/// Display options other than `type` are checked by the display factories when they open.
///
/// Use:
/// ```swift
/// do {
///     let config = try Config.load(path: path)   // --config FILE, --check-config FILE, SIGHUP
///     // config.daemon.socket, config.loader.name, config.displays: [DisplaySpec], ...
/// } catch {
///     // error.description: "/etc/loaderd/loaderd.toml:12:15: daemon.max_clients: expected ..."
/// }
/// ```
/// Command-line flags given with `--config` override the file's values (the daemon decides).
public struct Config: Sendable, Equatable {
    /// Where `loaderd` looks by default.
    public static let defaultPath = "/etc/loaderd/loaderd.toml"

    public var daemon = Daemon()
    public var loader = LoaderSettings()
    /// `[[display]]` tables in file order, as display specs (the same as `--display TYPE:k=v,...`).
    public var displays: [DisplaySpec] = []
    public var boot = Boot()
    /// `[screen]`: the boot screen around the loader (ScreenConfig.swift).
    public var screen = ScreenSettings()

    public init() {}

    /// `[daemon]`: the control socket and its limits, logging.
    public struct Daemon: Sendable, Equatable {
        /// `socket`: path of the control socket (unused when systemd passes one).
        public var socket = "/run/loaderd/loaderd.sock"
        /// `socket_group`: group (name or number) given the socket, mode 0660; `nil`: root's group.
        public var socketGroup: String? = nil
        /// `max_clients`: connections served at once; more get `ERR busy`.
        public var maxClients = 64
        /// `idle_timeout`: a connection silent this long is closed; 0 = never.
        public var idleTimeout: Microseconds = 60 * Time.perSecond
        /// `display_timeout`: a missing display is given up after this long; 0 = wait forever.
        public var displayTimeout: Microseconds = Time.microseconds(seconds: DisplayTimeout.defaultSeconds)
        /// `max_line`: longest request line in bytes.
        public var maxLine = 4096
        /// `log_level`: trace, debug, info, notice, warning, error or critical.
        public var logLevel: Logger.Level = .info
        public init() {}
    }

    /// `[loader]`: what to show at launch, before any command arrives.
    public struct LoaderSettings: Sendable, Equatable {
        /// `name`: the loader started at launch (a catalog name); `nil`: start with nothing shown.
        public var name: String? = nil
        /// `parameters`: the loader's `key = "value"` settings, in file order, already validated
        /// against the catalog (`Catalog.validate(name, assignments: parameters.assignments)` succeeds).
        public var parameters: [Parameter] = []
        /// `message`: the message line at launch; `nil`: none.
        public var message: String? = nil
        /// `message_style`: plain, grok, chatgpt or calm.
        public var messageStyle: MessageStyle = .plain
        /// `progress`: determinate progress at launch, 0 to 100; `nil`: indeterminate.
        public var progress: Double? = nil
        public init() {}
    }

    /// One loader parameter as written, e.g. `fill = "#0a66c2"`.
    public struct Parameter: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }

    /// `[boot]`: front ends for boot tools that already speak another splash's protocol
    /// (docs/PROTOCOL.md, "psplash and Plymouth front ends"). `settings` is what the daemon takes.
    public struct Boot: Sendable, Equatable {
        /// `psplash_fifo`: also read psplash's FIFO commands (`PROGRESS n`, `MSG text`, `QUIT`).
        public var psplashFifo = false
        /// `psplash_fifo_dir`: the directory of `psplash_fifo` (psplash's `$PSPLASH_FIFO_DIR`).
        public var psplashFifoDir = "/run"
        /// `plymouth`: also answer Plymouth's boot protocol, so systemd's and `plymouth`'s messages arrive.
        public var plymouth = false
        /// `plymouth = "auto"`: answer it only when its socket name is free (no plymouthd running).
        public var plymouthIfFree = false
        /// `timeline`: the previous boot's unit timeline (Plymouth front end's progress).
        public var timeline = BootTimeline.defaultPath
        /// `status_messages`: show each unit PID 1 reports on the message line.
        public var statusMessages = false
        /// `shutdown_loader`, `reboot_loader`: the loader Plymouth's change-mode switches to; nil keeps the loader.
        public var shutdownLoader: String? = nil
        public var rebootLoader: String? = nil
        public init() {}

        /// The daemon's form of these settings.
        public var settings: BootSettings {
            var b = BootSettings()
            b.psplashFifoDirectory = psplashFifo ? psplashFifoDir : nil
            b.plymouth = plymouth
            b.plymouthIfFree = plymouthIfFree
            b.timelinePath = timeline
            b.statusMessages = statusMessages
            if let shutdownLoader { b.modeLoaders["shutdown"] = shutdownLoader }
            if let rebootLoader { b.modeLoaders["reboot"] = rebootLoader }
            return b
        }
    }
}

extension [Config.Parameter] {
    /// The form `Catalog.make(_:assignments:)` takes.
    public var assignments: [(key: String, value: String)] { map { ($0.key, $0.value) } }
}

extension Config {
    /// Largest config file read (a real one is a few KiB).
    public static let maximumFileSize = 1 << 20

    /// Reads and checks the file at `path`. Errors name the path, and the line, column and key
    /// when the content is at fault.
    public static func load(path: String) throws(ConfigError) -> Config {
        let bytes = try readFile(path)
        let text = try decodeUTF8(bytes, source: path)
        return try parse(text, source: path)
    }

    /// Parses and checks `text`; `source` names it in errors (normally the file's path).
    public static func parse(_ text: String, source: String = "loaderd.toml") throws(ConfigError) -> Config {
        try parse(text, source: source, checksMachine: false)
    }

    static func parse(_ text: String, source: String, checksMachine: Bool) throws(ConfigError) -> Config {
        let root = try TOML.parse(text, source: source)
        var decoder = ConfigDecoder(source: source, checksMachine: checksMachine)
        return try decoder.decode(root)
    }

    /// Every key the file may hold, by table ("" is the top level); `config/loaderd.toml`
    /// documents each of them.
    public static let knownKeys: [(table: String, keys: [String])] = [
        ("", ["daemon", "loader", "display", "boot", "screen"]),
        ("daemon", ["socket", "socket_group", "max_clients", "idle_timeout", "display_timeout", "max_line", "log_level"]),
        ("loader", ["name", "parameters", "message", "message_style", "progress"]),
        ("display", ["type"]),
        ("boot", ["psplash_fifo", "psplash_fifo_dir", "plymouth", "timeline", "status_messages", "shutdown_loader", "reboot_loader"]),
        ("screen", ["background", "logo", "margin", "loader_size", "message_color", "mono", "font"]),
    ]

    /// The keys of `table` in `knownKeys`.
    static func knownKeys(in table: String) -> [String] { knownKeys.first(where: { $0.table == table })?.keys ?? [] }

    static func readFile(_ path: String) throws(ConfigError) -> [UInt8] {
        func failure(_ what: String, _ e: Int32) -> ConfigError {
            ConfigError(source: path, message: "cannot \(what): \(String(cString: loaderd_strerror(e)))")
        }
        // O_NONBLOCK: a FIFO put at the path must not block the daemon in open(2) (nor SIGHUP's
        // reload); it is refused below as not a regular file. A symlink is followed: /etc often
        // links its files elsewhere.
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else { throw failure("open the config file", errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("stat the config file", errno) }
        guard (status.st_mode & UInt32(S_IFMT)) == UInt32(S_IFREG) else {
            throw ConfigError(source: path, message: "not a regular file (a FIFO, device or directory is refused); give the path of the TOML file")
        }
        let bytes: [UInt8]?
        do { bytes = try FileDescriptor(rawValue: fd).readToEnd(limit: maximumFileSize) } catch {
            throw failure("read the config file", error.rawValue)
        }
        guard let bytes else {
            throw ConfigError(source: path, message: "the file is larger than \(maximumFileSize / 1024) KiB; is it the right file?")
        }
        return bytes
    }

    /// The bytes as a String, or an error at the first byte that is not UTF-8.
    static func decodeUTF8(_ bytes: [UInt8], source: String) throws(ConfigError) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0, line = 1, column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
                offset += encoded.count
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            case .error:
                throw ConfigError(source: source, line: line, column: column,
                                  message: "byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) is not UTF-8; the file must be UTF-8 text")
            }
        }
    }
}

/// Turns the parsed TOML tree into a `Config`, checking every key and value.
///
/// The sections' decoders and the error builders are `@inline(never)`: run once per file, they
/// were otherwise inlined into `decode` (one 47 KB function whose hundreds of message literals the
/// optimiser kept in stack slots across all of it) and `unknownKey` into each section besides.
/// Kept apart, x86_64 loaderd is 12.7 KB smaller (docs/PERFORMANCE.md, "29 Nov").
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

    mutating func report(_ error: ConfigError) {
        if problems.count < Self.reportedLimit { problems.append(error) } else { unreported += 1 }
    }

    func error(_ message: String, at position: SourcePosition, key: String?) -> ConfigError {
        ConfigError(source: source, line: position.line, column: position.column, key: key, message: message)
    }

    /// "expected WHAT, got VALUE" at the value: the form most of the file's errors take (for a
    /// string value, `shown` is the string quoted).
    func expected(_ what: String, _ value: TOMLValue, key: String) -> ConfigError {
        error("expected " + what + ", got " + value.shown, at: value.position, key: key)
    }

    /// "unknown key 'fsp' in [daemon] (did you mean 'fps'?); known keys: ..."
    @inline(never) func unknownKey(_ entry: TOMLEntry, table: String) -> ConfigError {
        let known = Config.knownKeys(in: table)
        if table.isEmpty {
            let hint = suggestion(for: entry.key, among: known).map { $0 == "display" ? " (did you mean [[display]]?)" : " (did you mean [\($0)]?)" } ?? ""
            return error("unknown table or key '\(entry.key)'\(hint); the file has [daemon], [loader], [[display]], [boot] and [screen]", at: entry.keyPosition, key: nil)
        }
        let where_ = table == "display" ? "[[display]]" : "[\(table)]"
        let hint = suggestion(for: entry.key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        return error("unknown key '\(entry.key)' in \(where_)\(hint); known keys: " + known.joined(separator: ", "), at: entry.keyPosition, key: nil)
    }

    mutating func decode(_ root: TOMLTable) throws(ConfigError) -> Config {
        var config = Config()
        for entry in root.entries {
            do throws(ConfigError) {
                switch entry.key {
                case "daemon": config.daemon = decodeDaemon(try table(entry, "daemon"))
                case "loader": config.loader = decodeLoader(try table(entry, "loader"))
                case "boot": config.boot = decodeBoot(try table(entry, "boot"))
                case "screen": config.screen = decodeScreen(try table(entry, "screen"))
                case "display": config.displays = try decodeDisplays(entry)
                default: throw unknownKey(entry, table: "")
                }
            } catch {
                report(error)
            }
        }
        guard var error = ConfigError.combined(problems) else { return config }
        if unreported > 0 {
            error.more.append(ConfigError(source: source, message: "and \(unreported) more errors not shown; fix the ones above first"))
        }
        throw error
    }

    @inline(never) func table(_ entry: TOMLEntry, _ name: String) throws(ConfigError) -> TOMLTable {
        switch entry.value.kind {
        case .table(let t): return t
        case .tableArray: throw error("[[\(name)]] is a single table: write [\(name)]", at: entry.value.position, key: name)
        default: throw expected("a table [\(name)]", entry.value, key: name)
        }
    }

    // MARK: Sections

    @inline(never) private mutating func decodeDaemon(_ table: TOMLTable) -> Config.Daemon {
        var d = Config.Daemon()
        for entry in table.entries {
            do { try daemonSetting(entry, into: &d) } catch { report(error) }
        }
        return d
    }

    /// One key of [daemon] (each on its own: an error in one leaves the others checked).
    @inline(never) private func daemonSetting(_ entry: TOMLEntry, into d: inout Config.Daemon) throws(ConfigError) {
        let key = "daemon." + entry.key
        switch entry.key {
        case "socket":
            let path = try string(entry, key)
            if let problem = SocketPath.problem(path) { throw expected(problem, entry.value, key: key) }
            d.socket = path
        case "socket_group":
            // A group ID may be written as a TOML integer, as /etc/group and chown(1) write it.
            var group = ""
            switch entry.value.kind {
            case .string(let name): group = name
            case .integer(let id) where id >= 0 && id < Int(UInt32.max): group = String(id)
            default: break
            }
            guard !group.isEmpty, !group.contains(where: { $0 == " " || $0 == ":" || $0 == "/" }) else {
                throw expected("a group name or number", entry.value, key: key)
            }
            if checksMachine, Daemon.groupID(named: group) == nil {
                throw error("no group \(quoted(group)) on this machine (getent group lists them; the package and README's install make 'loaderd')",
                            at: entry.value.position, key: key)
            }
            d.socketGroup = group
        case "max_clients": d.maxClients = try integer(entry, key, 1...4096)
        case "idle_timeout":
            let seconds = try number(entry, key, 0...86400, what: "a number of seconds from 0 (never) to 86400")
            // The command line's rule too (IdleTimeout): 1e-10 is neither "never" nor a timeout.
            if let problem = IdleTimeout.problem(seconds: seconds) { throw error(problem, at: entry.value.position, key: key) }
            d.idleTimeout = Time.microseconds(seconds: seconds)
        case "display_timeout":
            let seconds = try number(entry, key, 0...DisplayTimeout.maximumSeconds, what: "a number of seconds: 0 (wait forever) or from 0.1 to 86400")
            if let problem = DisplayTimeout.problem(seconds: seconds) { throw error(problem, at: entry.value.position, key: key) }
            d.displayTimeout = Time.microseconds(seconds: seconds)
        case "max_line": d.maxLine = try integer(entry, key, 256...1_048_576)
        case "log_level":
            let word = try string(entry, key)
            guard let level = Logger.Level(rawValue: word.asciiLowercased()) else {
                throw expected("one of " + Logger.Level.allCases.map { $0.rawValue }.joined(separator: ", "), entry.value, key: key)
            }
            d.logLevel = level
        default: throw unknownKey(entry, table: "daemon")
        }
    }

    @inline(never) private mutating func decodeLoader(_ table: TOMLTable) -> Config.LoaderSettings {
        var l = Config.LoaderSettings()
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
                    for p in l.parameters.assignments {
                        do throws(LoaderError) { try Catalog.validate(name, assignments: [p]) } catch {
                            report(parameterError(error, name: name, entry: parametersEntry))
                            reported = true
                        }
                    }
                    if !reported { report(parameterError(error, name: name, entry: parametersEntry)) }
                }
            } else if table["name"] == nil {
                report(error("parameters need a loader: set loader.name too", at: parametersEntry.keyPosition, key: "loader.parameters"))
            }
        }
        return l
    }

    /// One key of [loader].
    @inline(never) private func loaderSetting(_ entry: TOMLEntry, into l: inout Config.LoaderSettings, parametersEntry: inout TOMLEntry?) throws(ConfigError) {
        let key = "loader." + entry.key
        switch entry.key {
        case "name": l.name = try loaderName(entry, key)
        case "parameters":
            guard case .table(let t) = entry.value.kind else {
                throw expected("a table of key = \"value\", e.g. { fill = \"#0a66c2\" }", entry.value, key: key)
            }
            for p in t.entries {
                guard let text = p.value.scalarText else {
                    throw expected("a string, number or boolean", p.value, key: key + "." + p.key)
                }
                l.parameters.append(Config.Parameter(p.key, text))
            }
            parametersEntry = entry
        case "message":
            let text = try string(entry, key)
            guard text.count <= 256 else { throw error("expected at most 256 characters, got \(text.count)", at: entry.value.position, key: key) }
            guard !text.unicodeScalars.contains(where: { $0.isControl }) else {
                throw error("the message must be one line without control characters", at: entry.value.position, key: key)
            }
            l.message = text
        case "message_style":
            let word = try string(entry, key)
            guard let style = MessageStyle(rawValue: word.asciiLowercased()) else {
                throw expected("one of " + MessageStyle.allCases.map { $0.rawValue }.joined(separator: ", "), entry.value, key: key)
            }
            l.messageStyle = style
        case "progress":
            l.progress = try number(entry, key, 0...100, what: "a number from 0 to 100")
        default: throw unknownKey(entry, table: "loader")
        }
    }

    /// A catalog refusal, placed at the offending parameter.
    @inline(never) private func parameterError(_ error: LoaderError, name: String, entry: TOMLEntry) -> ConfigError {
        guard case .parameter(let p) = error, case .table(let t) = entry.value.kind, let bad = t[p.key] else {
            return self.error(error.description, at: entry.value.position, key: "loader.parameters")
        }
        let key = "loader.parameters." + p.key
        if p.reason.hasPrefix("unknown parameter") {
            let known = (Catalog.type(named: name)?.parameters.map { $0.key } ?? []) + ((Catalog.type(named: name)?.presets.isEmpty ?? true) ? [] : ["preset"])
            let hint = suggestion(for: p.key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            return self.error("unknown parameter '\(p.key)' for \(name)\(hint); \(name) accepts " + known.joined(separator: ", "), at: bad.keyPosition, key: nil)
        }
        return self.error("\(p.reason), got \(bad.value.shown)", at: bad.value.position, key: key)
    }

    @inline(never) private mutating func decodeBoot(_ table: TOMLTable) -> Config.Boot {
        var b = Config.Boot()
        for entry in table.entries {
            do { try bootSetting(entry, into: &b) } catch { report(error) }
        }
        return b
    }

    /// One key of [boot].
    @inline(never) private func bootSetting(_ entry: TOMLEntry, into b: inout Config.Boot) throws(ConfigError) {
        let key = "boot." + entry.key
        switch entry.key {
        case "psplash_fifo": b.psplashFifo = try boolean(entry, key)
        case "psplash_fifo_dir": b.psplashFifoDir = try absolutePath(entry, key)
        case "plymouth":
            if case .string(let word) = entry.value.kind, word == "auto" {
                b.plymouth = true; b.plymouthIfFree = true
            } else if case .boolean(let on) = entry.value.kind {
                b.plymouth = on; b.plymouthIfFree = false
            } else {
                throw expected("true, false or \"auto\" (answer only when plymouthd is not running)", entry.value, key: key)
            }
        case "timeline": b.timeline = try absolutePath(entry, key)
        case "status_messages": b.statusMessages = try boolean(entry, key)
        case "shutdown_loader": b.shutdownLoader = try loaderName(entry, key)
        case "reboot_loader": b.rebootLoader = try loaderName(entry, key)
        default: throw unknownKey(entry, table: "boot")
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
            let hint = suggestion(for: name, among: Catalog.names).map { " (did you mean '\($0)'?)" } ?? ""
            throw error("unknown loader \(quoted(name))\(hint); available: " + Catalog.names.joined(separator: ", "), at: entry.value.position, key: key)
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

    func integer(_ entry: TOMLEntry, _ key: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard case .integer(let n) = entry.value.kind, range.contains(n) else {
            throw expected("an integer from \(range.lowerBound) to \(range.upperBound)", entry.value, key: key)
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
