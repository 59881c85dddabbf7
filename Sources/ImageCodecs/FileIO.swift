import CLinux
import LinuxSystem
import CompactText

/// Whole-file reads and writes with plain POSIX calls (no Foundation: the daemon uses these too).
/// Errors carry the system's reason (strerror's text, `loaderd_strerror`) and the path.
public enum FileIO {
    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; 0, or the errno that
    /// stopped it. Public so that the image display, which writes its own temporary file (see
    /// `ImageDisplay`), shares this loop rather than keeping a copy. Allocates nothing.
    public static func writeAll(fd: Int32, bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
    }

    static func systemReason(_ code: Int32) -> String {
        guard let s = loaderd_strerror(code) else { return filled("error {}", String(code)) }
        return String(cString: s)
    }

    /// Replaces the contents of `path` with `bytes` (created with mode 0644 less the umask).
    static func writeFile(_ bytes: [UInt8], to path: String) throws(ImageCodecError) {
        let fd = loaderd_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImageCodecError(.write, path: path, reason: systemReason(errno)) }
        var failure = writeAll(fd: fd, bytes: bytes)
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 { throw ImageCodecError(.write, path: path, reason: systemReason(failure)) }
    }

    /// The whole contents of `path`; a file longer than `maxBytes` is refused once that many bytes
    /// have been read, so a wrong path (a disk image, /dev/zero) cannot fill memory.
    static func readFile(_ path: String, maxBytes: Int = Int.max) throws(ImageCodecError) -> [UInt8] {
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw ImageCodecError(.read, path: path, reason: systemReason(errno)) }
        defer { close(fd) }
        let bytes: [UInt8]?
        do { bytes = try FileDescriptor(rawValue: fd).readToEnd(limit: maxBytes) } catch {
            throw ImageCodecError(.read, path: path, reason: systemReason(error.rawValue))
        }
        guard let bytes else {
            throw ImageCodecError(.read, path: path, reason: "the file is larger than " + (maxBytes % (1 << 20) == 0 ? filled("{} MiB", String(maxBytes >> 20)) : filled("{} bytes", String(maxBytes))))
        }
        return bytes
    }
}
