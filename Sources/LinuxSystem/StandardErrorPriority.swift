import CLinux
import CompactText

/// The syslog priority prefix (`<3>` for an error) that journald reads at the start of each line
/// a service writes to standard error (sd-daemon(3)), as a line starts with it: the prefix when
/// standard error is not a terminal (journald, a pipe, a file), nothing on a terminal, where a
/// person reads the line. One rule for every line loaderd writes there: the daemon's log
/// (`LogSink`), its refusals to start (`--check-config`, a bad `--config`) and the displays'
/// warnings.
public enum StandardErrorPriority {
    /// Whether lines on standard error carry the prefix; decided once (fd 2 does not change kind).
    public static let prefixed: Bool = isatty(2) == 0

    /// `<N>` for syslog priority `priority` (0 emergency ... 7 debug), or "" on a terminal.
    public static func prefix(_ priority: Int) -> String { prefixed ? filled("<{}>", String(priority)) : "" }
}
