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

    @Option(help: ArgumentHelp("The control socket.", valueName: "PATH"))
    var socket: String = "/run/loaderd/loaderd.sock"

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

    @Option(help: "Most clients connected at once.")
    var maxClients: Int = 64

    @Option(help: ArgumentHelp("Close a client silent for this long.", valueName: "SECONDS"))
    var idleTimeout: Double = 60

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "LEVEL"))
    var logLevel: String = "info"

    @Option(help: ArgumentHelp("TEST: every frame is drawn at this elapsed time, so frames are deterministic (redrawn only when a command changes something; an exit never ends).", valueName: "SECONDS"))
    var freezeTime: Double?

    @Option(help: ArgumentHelp("Also read psplash's FIFO commands from DIR/psplash_fifo (bare --psplash-fifo: $PSPLASH_FIFO_DIR, else /run).", valueName: "DIR"))
    var psplashFifo: String?

    @Flag(help: "Also answer Plymouth's protocol on its abstract sockets (plymouth client, systemd's messages).")
    var plymouth = false

    @Option(help: ArgumentHelp("Where the Plymouth front end keeps the previous boot's timeline.", valueName: "PATH"))
    var bootTimeline: String = BootTimeline.defaultPath

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

    @Option(help: ArgumentHelp("Config file (not read yet: config parsing is being written).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Check a config file and exit (not available yet).", valueName: "FILE"))
    var checkConfig: String?

    func validate() throws {
        if let progress, Percent(parsing: Substring(progress)) == nil {
            throw ValidationError("--progress must be a decimal from 0 to 100, got '\(progress)'")
        }
        guard (1...4096).contains(maxClients) else { throw ValidationError("--max-clients must be from 1 to 4096, got \(maxClients)") }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds, got \(idleTimeout)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ") + ", got '\(logLevel)'")
        }
        if let freezeTime, !(freezeTime.isFinite && freezeTime >= 0 && freezeTime <= 1_000_000) {
            throw ValidationError("--freeze-time must be from 0 to 1000000 seconds, got \(freezeTime)")
        }
        if let message, message.count > 256 { throw ValidationError("--message is at most 256 characters") }
        for word in assignments where !word.contains("=") || word.hasPrefix("=") {
            throw ValidationError("--set expects key=value, got '\(word)'")
        }
        if !assignments.isEmpty && loader == nil { throw ValidationError("--set needs --loader") }
        for pair in modeLoader {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex,
                  Catalog.type(named: String(pair[pair.index(after: eq)...])) != nil else {
                throw ValidationError("--mode-loader expects MODE=LOADER with a loader from `loaderctl list`, got '\(pair)'")
            }
        }
        guard bootTimeline.hasPrefix("/") else { throw ValidationError("--boot-timeline must be an absolute path, got '\(bootTimeline)'") }
        for spec in display {
            do { _ = try DisplaySpec(parsing: spec) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        if let checkConfig {
            fail("--check-config \(checkConfig): config file parsing is not available in this build yet")
        }
        var settings = DaemonConfiguration()
        settings.socketPath = socket
        settings.socketGroup = socketGroup
        settings.loader = loader
        settings.assignments = assignments.map { word in
            let eq = word.firstIndex(of: "=")!
            return Assignment(key: String(word[..<eq]), value: String(word[word.index(after: eq)...]))
        }
        settings.progress = progress.flatMap { Percent(parsing: Substring($0)) }
        settings.message = message
        settings.maxClients = maxClients
        settings.idleTimeout = Int64(idleTimeout * 1_000_000_000)
        settings.freezeTime = freezeTime.map { Time.microseconds(seconds: $0) }
        settings.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        settings.configPath = config
        if let psplashFifo {
            settings.boot.psplashFifoDirectory = psplashFifo
        }
        settings.boot.plymouth = plymouth
        settings.boot.timelinePath = bootTimeline
        settings.boot.statusMessages = bootStatusMessages
        for pair in modeLoader {
            let eq = pair.firstIndex(of: "=")!
            settings.boot.modeLoaders[String(pair[..<eq])] = Catalog.type(named: String(pair[pair.index(after: eq)...]))!.name
        }
        var specs = display
        if specs.isEmpty {
            guard isatty(STDOUT_FILENO) == 1 else {
                fail("no --display given and standard output is not a terminal; display types: " + DisplayFactory.typeList)
            }
            specs = ["terminal:size=64x16"]
        }
        settings.displays = specs.map { try! DisplaySpec(parsing: $0) }  // checked in validate()

        let level = settings.logLevel
        LoggingSystem.bootstrap { label in SyslogStderrLogHandler(label: label, level: level) }
        let logger = Logger(label: "loaderd")
        if let config { logger.warning("--config \(config): config file parsing is not available in this build yet; using the command line") }
        let daemon: Daemon
        do {
            daemon = try Daemon(configuration: settings, logger: logger)
        } catch {
            fail("\(error)")
        }
        daemon.run()
    }

    func fail(_ message: String) -> Never {
        var line = "<3>loaderd: " + message + "\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        Glibc.exit(1)
    }
}
