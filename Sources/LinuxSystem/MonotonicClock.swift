import CLinux

/// CLOCK_MONOTONIC in nanoseconds: the daemon's clock for frames and timeouts, and the deadline
/// of a wait (`ProcessHandle.awaitExit`). Inlinable: the daemon reads it several times a frame.
public enum MonotonicClock {
    @inlinable
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
