import Displays
import FixedPoint
import Logging

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
    public var maxClients = 64
    /// Nanoseconds a client may stay silent before it is disconnected.
    public var idleTimeout: Int64 = 60_000_000_000
    public var maxLine = 4096
    public var maxOutput = 64 * 1024
    /// Test mode: every frame is drawn at this elapsed time (deterministic frames).
    public var freezeTime: Microseconds? = nil
    public var logLevel: Logger.Level = .info
    public var configPath: String? = nil
    /// The psplash and Plymouth front ends (off unless asked for).
    public var boot = BootSettings()

    public init() {}
}

/// The version `version` reports.
public enum LoaderDaemonVersion {
    public static let version = "0.1.0"
    public static let protocolVersion = 1
}
