import CLinux

/// The words the program was started with, argv[0] first. `CommandLine.arguments` in ordinary
/// Swift; Embedded Swift has no `CommandLine`, so both builds read argv from the C shim.
public enum ProcessArguments {
    public static var all: [String] {
        (0..<Int(loaderd_argument_count())).map { i in
            loaderd_argument(Int32(i)).map { String(cString: $0) } ?? ""
        }
    }

    /// Started in an initrd whose init is systemd (it has /etc/initrd-release, as dracut's and
    /// every systemd initrd has): systemd kills every process left from the initrd when it
    /// switches to the real root, sparing those whose argv[0] starts with '@' (systemd's
    /// "Storage Daemons for the Root File System"; plymouthd does the same). The splash must
    /// outlive the switch, so this marks argv[0]. Returns true when it did. Outside an initrd
    /// nothing changes: a process on the real root marked so would hold it at shutdown.
    public static func markAsInitrdSurvivor(releaseFile: String = "/etc/initrd-release") -> Bool {
        guard access(releaseFile, F_OK) == 0 else { return false }
        return loaderd_mark_argv0_at() == 0
    }

    /// An environment variable, or nil when unset.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
