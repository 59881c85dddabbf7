import Glibc
import Logging

/// swift-log to standard error, one line per message with a syslog priority prefix (`<6>` for
/// info), which journald reads as the message's priority (sd-daemon(3)).
public struct SyslogStderrLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider? = nil
    let label: String

    public init(label: String, level: Logger.Level) { self.label = label; self.logLevel = level }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    public func log(event: LogEvent) {
        var line = "<\(Self.priority(event.level))>" + event.message.description
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        line += "\n"
        line.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}
