import Displays
import FixedPoint
import Loaders
import CompactText

/// Everything the daemon is told at start (command line now; the config file later).
public struct DaemonConfiguration: Sendable {
    public var socketPath = "/run/loaderd/loaderd.sock"
    public var socketGroup: String? = nil
    public var displays: [DisplaySpec] = []
    /// Started at launch, with its parameters.
    public var loader: String? = nil
    public var assignments: [Assignment] = []
    public var progress: Percent? = nil
    public var message: String? = nil
    /// How the message line is drawn under the loaders started from now on.
    public var messageStyle: MessageStyle = .plain
    /// The `[screen]` table: background, logo, margins around every loader.
    public var screen = ScreenSettings()
    public var maxClients = 64
    /// Nanoseconds a client may stay silent before it is disconnected.
    public var idleTimeout: Int64 = 60_000_000_000
    public var maxLine = 4096
    /// Nanoseconds a missing display is waited for before it is given up; 0: forever.
    public var displayTimeout: Int64 = DisplayTimeout.nanoseconds(seconds: DisplayTimeout.defaultSeconds)
    public var maxOutput = 64 * 1024
    /// Test mode: every frame is drawn at this elapsed time (deterministic frames).
    public var freezeTime: Microseconds? = nil
    public var logLevel: Logger.Level = .info
    public var configPath: String? = nil
    /// The psplash and Plymouth front ends (off unless asked for).
    public var boot = BootSettings()

    public init() {}
}

extension DaemonConfiguration {
    /// The settings of a config file (`--config`); command-line flags are applied on top by the
    /// caller. `idle_timeout = 0` (never) becomes a timeout no client reaches.
    public init(_ config: Config, path: String) {
        self.init()
        socketPath = config.daemon.socket
        socketGroup = config.daemon.socketGroup
        displays = config.displays
        loader = config.loader.name
        assignments = config.loader.parameters.map { Assignment(key: $0.key, value: $0.value) }
        progress = config.loader.progress.map { Percent(thousandths: Int(($0 * 1000).rounded())) }
        message = config.loader.message
        messageStyle = config.loader.messageStyle
        screen = config.screen
        maxClients = config.daemon.maxClients
        idleTimeout = config.daemon.idleTimeout == 0 ? Int64.max / 4 : config.daemon.idleTimeout * 1000
        maxLine = config.daemon.maxLine
        displayTimeout = config.daemon.displayTimeout * 1000
        logLevel = config.daemon.logLevel
        boot = config.boot.settings
        configPath = path
    }
}

/// The version `version` reports.
public enum LoaderDaemonVersion {
    public static let version = "0.1.0"
    public static let protocolVersion = 1
}
