import CLinux
import LinuxSystem
import CompactText

/// The daemon's log: one line per message on standard error. Under systemd each line starts with
/// a syslog priority (`<6>` for info), which journald reads as the message's priority
/// (sd-daemon(3)); on a terminal the prefix is left out so a person reads plain lines.
///
/// Logging never blocks the event loop: when nobody reads standard error (journald stalled, a full
/// pipe) a line that does not fit is dropped and counted, and the count is logged with the next
/// line that gets through.
public struct Logger {
    /// The levels of swift-log, whose names the config and `--log-level` already accept.
    public enum Level: String, CaseIterable, Sendable, Comparable {
        case trace, debug, info, notice, warning, error, critical

        var rank: Int {
            switch self {
            case .trace: return 0
            case .debug: return 1
            case .info: return 2
            case .notice: return 3
            case .warning: return 4
            case .error: return 5
            case .critical: return 6
            }
        }

        /// The `<N>` prefix with the syslog priority journald expects: a literal for each level
        /// rather than the number interpolated (for size).
        public var syslogPrefix: String {
            switch self {
            case .trace, .debug: return "<7>"
            case .info: return "<6>"
            case .notice: return "<5>"
            case .warning: return "<4>"
            case .error: return "<3>"
            case .critical: return "<2>"
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    public var logLevel: Level

    /// Every line goes to the one `LogSink.standardError`: not kept here, so a call site does not
    /// retain and release a sink around each line (for size).
    public init(level: Level = .info) {
        logLevel = level
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }

    public func log(level: Level, _ message: @autoclosure () -> String) { log(level, message()) }

    func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= logLevel else { return }
        LogSink.write(level: level, message())
    }
}

/// Where log lines go: standard error, opened so that a write never blocks. Shared by every copy of
/// a `Logger` (a class, so the dropped-line count is one count).
public final class LogSink: @unchecked Sendable {  // used by the daemon's one thread only
    /// How a line reaches the file behind fd 2 without blocking.
    enum Path {
        /// A socket (journald's stream): send with MSG_DONTWAIT.
        case socket
        /// A pipe, FIFO or terminal, reopened through /proc with O_NONBLOCK: a file description of
        /// our own, so the flag does not change the shared one (a shell's terminal stays blocking).
        case nonBlocking(Int32)
        /// A regular file, or nothing better was possible: plain write(2), which does not block
        /// on a regular file.
        case plain
        /// fd 2 is closed or /dev/null: nothing to do.
        case none
    }

    let path: Path
    let prefixesPriority: Bool
    private(set) var dropped = 0

    public static let standardError = LogSink()

    /// A line to standard error; one out-of-line call at each log call site.
    @inline(never)
    static func write(level: Level, _ message: String) {
        standardError.write(level: level, message)
    }

    /// For fd 2, the one file it writes to (no other descriptor, no number to format: for size).
    private init() {
        var st = stat()
        guard fstat(2, &st) == 0 else { path = .none; prefixesPriority = false; return }
        // Standard error under systemd, a pipe in the tests: the one rule (StandardErrorPriority).
        prefixesPriority = StandardErrorPriority.prefixed
        if loaderd_s_issock(st.st_mode) != 0 {
            path = .socket
        } else if loaderd_s_isfifo(st.st_mode) != 0 || loaderd_s_ischr(st.st_mode) != 0 {
            let reopened = loaderd_open("/proc/self/fd/2", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0)
            path = reopened >= 0 ? .nonBlocking(reopened) : .plain
        } else {
            path = .plain
        }
    }

    deinit {
        if case .nonBlocking(let fd) = path { _ = close(fd) }
    }

    func write(level: Level, _ message: String) {
        var line = prefixesPriority ? level.syslogPrefix : ""
        if dropped > 0 {
            line += filled("({} earlier log lines were dropped: nobody was reading standard error) ", String(dropped))
        }
        line += message
        line += "\n"
        var sent = false
        line.withUTF8 { bytes in sent = writeLine(UnsafeRawBufferPointer(bytes)) }
        dropped = sent ? 0 : dropped + 1
    }

    typealias Level = Logger.Level

    /// One attempt, finishing a short write only while the file takes more without blocking;
    /// false when the line (or its end) was dropped.
    private func writeLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let base = bytes.baseAddress! + offset, count = bytes.count - offset
            let n: Int
            switch path {
            case .none: return true
            case .socket: n = send(2, base, count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            case .nonBlocking(let fd): n = CLinux.write(fd, base, count)
            case .plain: n = CLinux.write(2, base, count)
            }
            if n < 0 {
                if loaderd_errno() == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
