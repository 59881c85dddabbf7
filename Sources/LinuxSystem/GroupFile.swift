import CompactText
import CLinux

/// Groups from /etc/group (`name:password:GID:members`), read the way NSS's "files" module reads
/// them: the first line that matches wins. Board builds cannot rely on NSS (a static binary cannot
/// load its modules), and musl's getgrnam/getgrgid would bring its stdio and nscd client into the
/// binary for two lookups of a local group: the socket's group, and the group to name in a
/// "permission denied" on a display device.
public enum GroupFile {
    /// The number of the group called `name`, or nil.
    public static func groupID(named name: String, path: String = "/etc/group") -> gid_t? {
        var found: gid_t? = nil
        forEachGroup(path) { fields in
            guard fields[0] == Substring(name), let gid = gid_t(fields[2]) else { return false }
            found = gid
            return true
        }
        return found
    }

    /// The name of group `gid`, or nil.
    public static func name(of gid: gid_t, path: String = "/etc/group") -> String? {
        var found: String? = nil
        forEachGroup(path) { fields in
            guard gid_t(fields[2]) == gid, !fields[0].isEmpty else { return false }
            found = String(fields[0])
            return true
        }
        return found
    }

    /// Calls `body` with the fields of each line of at least three fields, until it returns true.
    private static func forEachGroup(_ path: String, _ body: ([Substring]) -> Bool) {
        guard let text = readSmallFile(path) else { return }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 3, body(fields) { return }
        }
    }

    /// A file of at most 1 MB, or nil.
    public static func readSmallFile(_ path: String) -> String? {
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        guard let bytes = try? FileDescriptor(rawValue: fd).readToEnd(limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
