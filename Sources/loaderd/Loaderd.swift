import ArgumentParser
import Displays
import FixedPoint
import Glibc
import LoaderDaemon
import Loaders
import Logging

@main
struct Loaderd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loaderd",
        abstract: "The boot-splash daemon: shows a loader on one or more displays and takes commands on a Unix socket.",
        discussion: """
            Commands (docs/PROTOCOL.md): ping, version, start NAME [key=value]..., stop [success|failure|now], \
            progress N [force], message [TEXT], status, list, brightness N.
            Display types: \(DisplayFactory.typeList).
            Example: loaderd --display image:path=/tmp/frame.png,size=64x32 --socket /tmp/loaderd.sock --loader linkedin
            """,
        version: LoaderDaemonVersion.version
    )

    @Option(help: ArgumentHelp("The control socket (default: the config's, else /run/loaderd/loaderd.sock).", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("Group allowed to use the socket (mode 0660); others are denied.", valueName: "NAME"))
    var socketGroup: String?

    @Option(help: ArgumentHelp("A display, repeatable: TYPE:key=value,... (default: terminal:size=64x16 when standard output is a terminal).", valueName: "SPEC"))
    var display: [String] = []

    @Option(help: ArgumentHelp("Start this loader at launch (see `loaderctl list`).", valueName: "NAME"))
    var loader: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A parameter of --loader, repeatable.", valueName: "key=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("Determinate progress at launch, 0 to 100.", valueName: "PERCENT"))
    var progress: String?

    @Option(help: "The message line at launch.")
    var message: String?

    @Option(help: "Most clients connected at once (default: the config's, else 64).")
    var maxClients: Int?

    @Option(help: ArgumentHelp("Close a client silent for this long (default: the config's, else 60).", valueName: "SECONDS"))
    var idleTimeout: Double?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (default: the config's, else info).", valueName: "LEVEL"))
    var logLevel: String?

    @Option(help: ArgumentHelp("TEST: every frame is drawn at this elapsed time, so frames are deterministic (redrawn only when a command changes something; an exit never ends).", valueName: "SECONDS"))
    var freezeTime: Double?

    @Option(help: ArgumentHelp("Also read psplash's FIFO commands from DIR/psplash_fifo (bare --psplash-fifo: $PSPLASH_FIFO_DIR, else /run).", valueName: "DIR"))
    var psplashFifo: String?

    @Flag(help: "Also answer Plymouth's protocol on its abstract sockets (plymouth client, systemd's messages).")
    var plymouth = false

    @Option(help: ArgumentHelp("Where the Plymouth front end keeps the previous boot's timeline (default: the config's, else \(BootTimeline.defaultPath)).", valueName: "PATH"))
    var bootTimeline: String?

    @Flag(help: "Show each unit systemd reports over the Plymouth socket on the message line.")
    var bootStatusMessages = false

    @Option(help: ArgumentHelp("The loader Plymouth's change-mode MODE switches to, repeatable (e.g. shutdown=worm).", valueName: "MODE=NAME"))
    var modeLoader: [String] = []

    /// `--psplash-fifo` takes an optional value: a bare one means psplash's own default,
    /// `$PSPLASH_FIFO_DIR`, else /run.
    static func main() {
        let directory = getenv("PSPLASH_FIFO_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/run"
        let arguments = CommandLine.arguments.dropFirst().map { $0 == "--psplash-fifo" ? "--psplash-fifo=" + directory : $0 }
        main(Array(arguments))
    }

    @Option(help: ArgumentHelp("Read settings from this TOML file (config/loaderd.toml documents every key); flags given here override it. SIGHUP re-reads it.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Check a config file, print what is wrong with line, column and key, and exit (0 when good).", valueName: "FILE"))
    var checkConfig: String?

    func validate() throws {
        if let progress, Percent(parsing: Substring(progress)) == nil {
            throw ValidationError("--progress must be a decimal from 0 to 100, got '\(progress)'")
        }
        if let maxClients, !(1...4096).contains(maxClients) { throw ValidationError("--max-clients must be from 1 to 4096, got \(maxClients)") }
        if let idleTimeout, !(idleTimeout.isFinite && idleTimeout > 0 && idleTimeout <= 86_400) {
            throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds, got \(idleTimeout)")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ") + ", got '\(logLevel)'")
        }
        if let freezeTime, !(freezeTime.isFinite && freezeTime >= 0 && freezeTime <= 1_000_000) {
            throw ValidationError("--freeze-time must be from 0 to 1000000 seconds, got \(freezeTime)")
        }
        if let message, message.count > 256 { throw ValidationError("--message is at most 256 characters") }
        for word in assignments where !word.contains("=") || word.hasPrefix("=") {
            throw ValidationError("--set expects key=value, got '\(word)'")
        }
        if !assignments.isEmpty && loader == nil && config == nil { throw ValidationError("--set needs --loader") }
        for pair in modeLoader {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex,
                  Catalog.type(named: String(pair[pair.index(after: eq)...])) != nil else {
                throw ValidationError("--mode-loader expects MODE=LOADER with a loader from `loaderctl list`, got '\(pair)'")
            }
        }
        if let bootTimeline, !bootTimeline.hasPrefix("/") { throw ValidationError("--boot-timeline must be an absolute path, got '\(bootTimeline)'") }
        for spec in display {
            do { _ = try DisplaySpec(parsing: spec) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        if let checkConfig {
            do {
                _ = try Config.load(path: checkConfig)
                print("\(checkConfig): OK")
                Glibc.exit(0)
            } catch {
                fail(error.description)
            }
        }
        let settings: DaemonConfiguration
        do { settings = try self.settings() } catch { fail(error.description) }

        let level = settings.logLevel
        LoggingSystem.bootstrap { label in SyslogStderrLogHandler(label: label, level: level) }
        let logger = Logger(label: "loaderd")
        let daemon: Daemon
        do {
            daemon = try Daemon(configuration: settings, logger: logger)
        } catch {
            fail("\(error)")
        }
        if config != nil {
            // SIGHUP re-reads the file and applies these same flags on top again.
            daemon.reloadConfiguration = { try self.settings() }
        }
        daemon.run()
    }

    /// The config file's settings (when --config is given) with the flags given here on top.
    func settings() throws(ConfigError) -> DaemonConfiguration {
        var settings = DaemonConfiguration()
        if let config { settings = DaemonConfiguration(try Config.load(path: config), path: config) }
        if let socket { settings.socketPath = socket }
        if let socketGroup { settings.socketGroup = socketGroup }
        if let loader {
            settings.loader = loader
            settings.assignments = []
        }
        if !assignments.isEmpty {
            settings.assignments = assignments.map { word in
                let eq = word.firstIndex(of: "=")!  // checked in validate()
                return Assignment(key: String(word[..<eq]), value: String(word[word.index(after: eq)...]))
            }
        }
        if let progress { settings.progress = Percent(parsing: Substring(progress)) }
        if let message { settings.message = message }
        if let maxClients { settings.maxClients = maxClients }
        if let idleTimeout { settings.idleTimeout = Int64(idleTimeout * 1_000_000_000) }
        if let freezeTime { settings.freezeTime = Time.microseconds(seconds: freezeTime) }
        if let logLevel { settings.logLevel = Logger.Level(rawValue: logLevel) ?? .info }
        if let psplashFifo { settings.boot.psplashFifoDirectory = psplashFifo }
        if plymouth { settings.boot.plymouth = true }
        if let bootTimeline { settings.boot.timelinePath = bootTimeline }
        if bootStatusMessages { settings.boot.statusMessages = true }
        for pair in modeLoader {
            let eq = pair.firstIndex(of: "=")!  // checked in validate()
            settings.boot.modeLoaders[String(pair[..<eq])] = Catalog.type(named: String(pair[pair.index(after: eq)...]))!.name
        }
        if !display.isEmpty {
            settings.displays = display.map { try! DisplaySpec(parsing: $0) }  // checked in validate()
        } else if settings.displays.isEmpty {
            guard isatty(STDOUT_FILENO) == 1 else {
                throw ConfigError(source: config ?? "command line", message: "no --display given (nor a [[display]] in a --config file) and standard output is not a terminal; display types: " + DisplayFactory.typeList)
            }
            settings.displays = [try! DisplaySpec(parsing: "terminal:size=64x16")]
        }
        return settings
    }

    func fail(_ message: String) -> Never {
        var line = "<3>loaderd: " + message + "\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        Glibc.exit(1)
    }
}
