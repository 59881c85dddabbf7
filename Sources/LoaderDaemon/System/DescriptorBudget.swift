import CLinux
import CompactText

/// How many clients the process's descriptor limit (RLIMIT_NOFILE) leaves room for.
///
/// `max_clients` up to 4096 is accepted, but under systemd's default soft limit of 1024 (or a
/// tighter `ulimit -n`) that many clients would run the process out of descriptors: accept would
/// fail with EMFILE, and so would every file the displays and front ends open. The limit is
/// capped to what is left after the daemon's own descriptors, and the cap is logged.
enum DescriptorBudget {
    /// Descriptors the daemon may still open besides its clients once it runs: the Plymouth
    /// listeners (2), the psplash FIFO (2), the boot timeline (1), a config read on SIGHUP (1),
    /// and slack.
    static let later = 10
    /// Per display: the temporary file while an image is replaced, or a display reopened on SIGHUP.
    static let perDisplay = 1

    /// The soft RLIMIT_NOFILE, or nil when unlimited or unknown.
    static func openFileLimit() -> Int? {
        let limit = loaderd_open_file_limit()
        return limit < 0 ? nil : Int(clamping: limit)
    }

    /// Descriptors open now (/proc/self/fd), inherited ones included: they count against the
    /// limit as much as ours do.
    static func openNow() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 3 }
        defer { closedir(directory) }
        var count = -1  // the directory's own descriptor
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return Swift.max(3, count)
    }

    /// The clients allowed at once: `configuration.maxClients`, or less when the descriptor limit
    /// cannot hold that many (the control socket's and, when on, the Plymouth socket's clients
    /// each get that many). `inUse`: descriptors open now other than clients. Logs a warning
    /// when it caps.
    static func clientLimit(_ configuration: DaemonConfiguration, inUse: Int, logger: Logger, fileLimit: Int? = openFileLimit()) -> Int {
        let requested = configuration.maxClients
        guard let fileLimit else { return requested }
        let available = fileLimit - inUse - later - perDisplay * configuration.displays.count
        let pools = configuration.boot.plymouth ? 2 : 1
        let cap = Swift.max(1, available / pools)
        guard requested > cap else { return requested }
        logger.warning(filled("max_clients {} capped to {}: the open-file limit is {} and {} are open (RLIMIT_NOFILE; raise LimitNOFILE= or ulimit -n for more)", String(requested), String(cap), String(fileLimit), String(inUse)))
        return cap
    }
}
