import CLinux
import LinuxSystem

/// A timerfd on CLOCK_MONOTONIC, armed with absolute deadlines, so a late wakeup never shifts the
/// frames after it.
public struct TimerFD: ~Copyable {
    public let fd: Int32
    /// The deadline the kernel has now (nil: disarmed), to skip redundant `timerfd_settime` calls.
    public private(set) var armedDeadline: Int64?

    /// The corresponding C function is `timerfd_create`.
    public init() throws(Errno) {
        fd = try syscall { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC)) }.get()
    }

    deinit { _ = CLinux.close(fd) }

    /// Fires once at `deadline` (CLOCK_MONOTONIC nanoseconds; a past deadline fires at once), or
    /// every `interval` nanoseconds after it when given; nil disarms.
    ///
    /// The corresponding C function is `timerfd_settime`.
    public mutating func arm(at deadline: Int64?, interval: Int64 = 0) throws(Errno) {
        if deadline == armedDeadline && interval == 0 { return }
        var spec = itimerspec()
        if let deadline {
            // 0 would disarm: a deadline at the clock's origin is 1 ns instead.
            let d = Swift.max(deadline, 1)
            spec.it_value = timespec(nanoseconds: d)
            spec.it_interval = timespec(nanoseconds: interval)
        }
        _ = try syscall { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }.get()
        armedDeadline = deadline
    }

    /// Reads the expiration count (0 if it had not fired), which also clears readability.
    public mutating func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        let n = syscall { read(fd, &count, 8) }
        if case .success(8) = n {
            if armedDeadline != nil { armedDeadline = nil }
            return count
        }
        return 0
    }
}
