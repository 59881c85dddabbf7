import CLinux
import CompactText

/// Another process, named by a pidfd (Linux 5.3+) that this value owns: `deinit` closes it. A
/// process id read from a file may belong to another process by the time it is used; a signal or
/// a wait through the pidfd reaches only the process it was opened for.
public struct ProcessHandle: ~Copyable {
    public let pid: Int32
    private let fd: Int32

    /// The corresponding C function is `pidfd_open` (ESRCH: no such process; ENOSYS: a kernel
    /// before 5.3).
    public init(pid: Int32) throws(Errno) {
        self.pid = pid
        fd = try valueOrErrno { loaderd_pidfd_open(pid) }.get()
    }

    deinit { _ = CLinux.close(fd) }

    /// The corresponding C function is `pidfd_send_signal`.
    public func send(_ signal: Int32) throws(Errno) {
        _ = try valueOrErrno { loaderd_pidfd_send_signal(fd, signal) }.get()
    }

    /// Waits up to `milliseconds` for the process to end: true when it has. Not a child, so not
    /// reaped here (its parent does that); the pidfd turns readable when it exits.
    public func awaitExit(milliseconds: Int32) throws(Errno) -> Bool {
        let deadline = MonotonicClock.now() / 1_000_000 + Int64(milliseconds)
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let left = Int32(clamping: max(0, deadline - MonotonicClock.now() / 1_000_000))
            switch valueOrErrno(retryOnInterrupt: false, { poll(&entry, 1, left) }) {
            case .success(let ready): return ready > 0
            case .failure(let e) where e == .interrupted: continue
            case .failure(let e): throw e
            }
        }
    }

    /// The process's name as the kernel keeps it (`/proc/PID/comm`: the executable's file name,
    /// at most 15 bytes); nil when it cannot be read (it has exited, or no /proc).
    public var name: String? { Self.name(of: pid) }

    /// The same for any process id.
    public static func name(of pid: Int32) -> String? {
        let fd = loaderd_open(filled("/proc/{}/comm", String(pid)), O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        defer { _ = CLinux.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = bytes.withUnsafeMutableBytes { CLinux.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let end = bytes[n - 1] == UInt8(ascii: "\n") ? n - 1 : n
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
