import CLinux
import CompactText

/// Signals whose default action would end loaderd abruptly (no clearing of the displays, the
/// socket file left behind) but which mean nothing to it: a stray `kill -USR1`, an `alarm()` left
/// by a parent, a write past RLIMIT_FSIZE. They are blocked and read from the signalfd with
/// SIGTERM, SIGINT and SIGHUP, and logged as ignored (docs/RELIABILITY.md).
///
/// Not included: SIGQUIT and SIGABRT (asked-for core dumps), SIGXCPU (a CPU limit is meant to be
/// enforced), SIGKILL and SIGSTOP (cannot be caught), the real-time signals (nothing sends them
/// to a daemon that did not ask for them).
enum IgnoredSignals {
    /// SIGXFSZ: with it blocked, a write past the file size limit fails with EFBIG, which the
    /// image display reports like any write error.
    static let all: [Int32] = [SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT, SIGXFSZ]

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        case SIGALRM: return "SIGALRM"
        case SIGVTALRM: return "SIGVTALRM"
        case SIGPROF: return "SIGPROF"
        case SIGIO: return "SIGIO"
        case SIGPWR: return "SIGPWR"
        case SIGSTKFLT: return "SIGSTKFLT"
        case SIGXFSZ: return "SIGXFSZ"
        default: return String(signal)
        }
    }
}
