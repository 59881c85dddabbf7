import CLinux
import CompactText  // its byte-based hasPrefix, for size

/// The names in a directory, as readdir(3) gives them.
public enum DirectoryEntries {
    /// The names in `directory` that begin with `prefix`, in the directory's own order ("." and
    /// ".." never); none when it cannot be read. For small directories read now and then (/dev, a
    /// question directory): the caller sorts when it shows them.
    public static func names(in directory: String, prefix: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(prefix), name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
