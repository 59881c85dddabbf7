import CLinux
import LinuxSystem

/// The daemon's signals as readable events: blocked for normal delivery and read from a signalfd
/// in the poll loop, so a handler never runs in the middle of a frame.
public struct SignalFD: ~Copyable {
    public let fd: Int32

    /// Blocks `signals` and opens a signalfd for them.
    ///
    /// The corresponding C functions are `sigprocmask` and `signalfd`.
    public init(_ signals: [Int32]) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        _ = try syscall { sigprocmask(SIG_BLOCK, &set, nil) }.get()
        fd = try syscall { signalfd(-1, &set, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC)) }.get()
    }

    deinit { _ = CLinux.close(fd) }

    /// The next pending signal number, or nil when none is pending.
    public func next() -> Int32? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        let n = syscall { read(fd, &info, size) }
        guard case .success(let count) = n, count == size else { return nil }
        return Int32(bitPattern: info.ssi_signo)
    }
}
