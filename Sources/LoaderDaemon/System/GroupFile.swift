import CompactText
import CLinux
import LinuxSystem

/// Group names from /etc/group (`name:password:GID:members`), read the way NSS's "files" module
/// reads them. Board builds cannot rely on NSS: a static binary cannot load its modules.
enum GroupFile {
    static func groupID(named name: String, path: String = "/etc/group") -> gid_t? {
        guard let text = readSmallFile(path) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[0] == Substring(name), let gid = gid_t(fields[2]) else { continue }
            return gid
        }
        return nil
    }

    /// A file of at most 1 MB, or nil.
    static func readSmallFile(_ path: String) -> String? {
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        guard let bytes = try? FileDescriptor(rawValue: fd).readToEnd(limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
