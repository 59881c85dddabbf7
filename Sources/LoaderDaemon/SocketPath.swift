import CompactText

/// The control socket's path (`--socket`, `daemon.socket`): one rule for the command line and
/// the config file. An absolute path, because a boot splash is started by systemd or the
/// initramfs in a working directory of their choosing (`/`), while the boot scripts and people
/// that talk to it with `loaderctl --socket` run in theirs: a relative path would name a
/// different socket for each. And short enough for a Unix socket address.
public enum SocketPath {
    /// Bytes a path may have: `sun_path` holds 108 with the terminating NUL.
    public static let maximumBytes = 107

    /// What is wrong with `path` as the control socket's path, as "expected ..." words (the
    /// config puts ", got VALUE" after them); nil when it will do.
    public static func problem(_ path: String) -> String? {
        if !path.hasPrefix("/") { return "an absolute path (starting with /)" }
        if path.utf8.count > maximumBytes {
            // `maximumBytes` written out (no number to format, for size).
            return filled("a path of at most 107 bytes (what a Unix socket address holds; this one has {})", String(path.utf8.count))
        }
        return nil
    }
}
