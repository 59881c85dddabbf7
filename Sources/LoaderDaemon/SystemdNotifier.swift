import CompactText
import CLinux

/// sd_notify without libsystemd: datagrams to `$NOTIFY_SOCKET` (sd_notify(3); a leading `@` names
/// an abstract socket). Does nothing when the variable is unset (not started by systemd).
public struct SystemdNotifier {
    public let socketPath: String?
    /// Half of `$WATCHDOG_USEC` in nanoseconds, when systemd wants keep-alive pings from us.
    public let watchdogInterval: Int64?
    private var lastStatus: String?

    public init() {
        socketPath = getenv("NOTIFY_SOCKET").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        var interval: Int64? = nil
        if let usec = environmentNumber("WATCHDOG_USEC"), usec > 0 {
            let pid = environmentNumber("WATCHDOG_PID").flatMap { Int32(exactly: $0) }
            if pid == nil || pid == getpid() { interval = usec * 1000 / 2 }
        }
        watchdogInterval = interval
    }

    /// Sends `text` (e.g. `READY=1`); failures are returned for logging, never fatal.
    @discardableResult
    public func notify(_ text: String) -> SystemError? {
        guard let socketPath else { return nil }
        do { try UnixSocket.sendDatagram(Array(text.utf8), to: socketPath) } catch { return error }
        return nil
    }

    /// `STATUS=…`, only when it changed.
    public mutating func status(_ text: String) -> SystemError? {
        guard text != lastStatus else { return nil }
        lastStatus = text
        return notify("STATUS=" + text)
    }
}

/// An environment variable read as a decimal number (as `Int64(text)` reads it); nil when it is
/// unset or not one. One out-of-line reader for systemd's four numbers (for size).
@inline(never)
func environmentNumber(_ name: String) -> Int64? {
    guard let text = getenv(name) else { return nil }
    return Int64(String(cString: text), radix: 10)
}
