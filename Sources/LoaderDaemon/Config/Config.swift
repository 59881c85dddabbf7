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
    public static let maximumFileSize = 1 << 20  // (written in readFile's message too)

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

    @inline(never)  // one copy of the parser for `load` and `check`, not one inlined in each (for size)
    static func parse(_ text: String, source: String, checksMachine: Bool) throws(ConfigError) -> Config {
        let root = try TOML.parse(text, source: source)
        var decoder = ConfigDecoder(source: source, checksMachine: checksMachine)
        return try decoder.decode(root)
    }

    /// Every key the file may hold, by table ("" is the top level); `config/loaderd.toml`
    /// documents each of them. In the order of `Table`, and each table's keys in the order of the
    /// `case`s of its decoder's `switch` (ConfigDecoder.swift).
    public static let knownKeys: [(table: String, keys: [String])] = [
        ("", ["daemon", "loader", "display", "boot", "screen"]),
        ("daemon", ["socket", "socket_group", "max_clients", "idle_timeout", "display_timeout", "max_line", "log_level"]),
        ("loader", ["name", "parameters", "message", "message_style", "progress"]),
        ("display", ["type"]),
        ("boot", ["psplash_fifo", "psplash_fifo_dir", "plymouth", "timeline", "status_messages", "shutdown_loader", "reboot_loader"]),
        ("screen", ["background", "logo", "margin", "loader_size", "message_color", "mono", "font"]),
    ]

    /// Where each table's keys are in `knownKeys`: the decoder tells keys by their index there
    /// (ConfigDecoder.knownIndex), and names their table by it.
    enum Table: Int { case top, daemon, loader, display, boot, screen }

    static func readFile(_ path: String) throws(ConfigError) -> [UInt8] {
        func failure(_ what: String, _ e: Int32) -> ConfigError {
            ConfigError(source: path, message: filled("cannot {}: {}", what, String(cString: loaderd_strerror(e))))
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
            throw ConfigError(source: path, message: "the file is larger than 1024 KiB; is it the right file?")
        }
        return bytes
    }

    /// The bytes as a String, or an error at the first byte that is not UTF-8.
    static func decodeUTF8(_ bytes: [UInt8], source: String) throws(ConfigError) -> String {
        var offset = 0, line = 1, column = 1
        while offset < bytes.count {
            let length = scalarLength(bytes, at: offset)
            guard length > 0 else {
                throw ConfigError(source: source, line: line, column: column,
                                  message: filled("byte 0x{} is not UTF-8; the file must be UTF-8 text", String(bytes[offset], radix: 16, uppercase: true)))
            }
            if bytes[offset] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            offset += length
        }
        return utf8Text(bytes, 0, bytes.count)
    }

    /// The length of the well-formed UTF-8 sequence at `offset` (Unicode's table 3-7: no overlong
    /// forms, surrogates or values past U+10FFFF), 0 if there is none. By hand: the standard
    /// library's UTF-8 parser was 0.6 KB of generic code here.
    static func scalarLength(_ bytes: [UInt8], at offset: Int) -> Int {
        let lead = bytes[offset]
        if lead < 0x80 { return 1 }
        // The length, and the range of the second byte (the others are 80...BF).
        var length = 0, low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard offset + length <= bytes.count, bytes[offset + 1] >= low, bytes[offset + 1] <= high else { return 0 }
        for n in (offset + 2)..<(offset + length) where bytes[n] < 0x80 || bytes[n] > 0xBF { return 0 }
        return length
    }
}
