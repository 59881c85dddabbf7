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
        // Empty is unset; the C string's first byte tells (no String made to be checked; for size).
        let socket = getenv("NOTIFY_SOCKET")
        socketPath = socket.map { $0.pointee == 0 ? nil : String(cString: $0) } ?? nil
        var interval: Int64? = nil
        if let usec = environmentNumber("WATCHDOG_USEC"), usec > 0 {
            let pid = environmentNumber("WATCHDOG_PID").flatMap { Int32(exactly: $0) }
            if pid == nil || pid == getpid() { interval = usec * 1000 / 2 }
        }
        watchdogInterval = interval
    }

    /// Sends `text` (e.g. `READY=1`); failures are returned for logging, never fatal. Out of
    /// line: `tellSystemd` and `updateStatus` each had the datagram's sending copied in (for size).
    @discardableResult @inline(never)
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
    // On the C string's bytes, as `Int64(_:radix: 10)` reads them: an optional sign, then at least
    // one digit, nil on any other byte or on overflow (the generic parser was ~700 bytes, for size).
    var byte = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
    let negative = byte.pointee == UInt8(ascii: "-")
    if negative || byte.pointee == UInt8(ascii: "+") { byte += 1 }
    guard byte.pointee != 0 else { return nil }
    var value: Int64 = 0
    while byte.pointee != 0 {
        guard byte.pointee >= 0x30, byte.pointee <= 0x39 else { return nil }
        // Negative numbers are summed downwards, so that Int64.min is read as `Int64(_:)` reads it.
        let digit = Int64(byte.pointee - 0x30)
        let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
        let (next, carry) = negative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
        guard !overflow, !carry else { return nil }
        value = next
        byte += 1
    }
    return value
}
