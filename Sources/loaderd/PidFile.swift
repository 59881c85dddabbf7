import CLinux
import LinuxSystem
import CompactText

/// `--pid-file`: loaderd's process id in a file, written once the daemon serves its socket, so
/// that the script that started it in the background (the initramfs's) needs no loop waiting for
/// the socket, and the file's existence means "a loaderd is up" (loaderd.service's condition).
/// Written beside the path and renamed over it, so a reader never sees an empty file.
enum PidFile {
    /// Writes `getpid()` to `path`; the C error text on failure.
    static func write(_ path: String) -> String? {
        let temporary = path + ".new"
        let fd = loaderd_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return Errno.current.description }
        var text = filled("{}\n", String(getpid()))
        let written = text.withUTF8 { CLinux.write(fd, $0.baseAddress, $0.count) }
        let writeError = written == text.utf8.count ? 0 : (written < 0 ? errno : EIO)
        _ = close(fd)
        if writeError == 0 && rename(temporary, path) == 0 { return nil }
        let failure = writeError != 0 ? writeError : errno
        _ = unlink(temporary)
        return Errno(rawValue: failure).description
    }

    /// At exit: the file goes with the process (best effort: after the initramfs's switch to the
    /// real root the path is not in this process's root any more, and the quit unit removes it).
    static func remove(_ path: String) { _ = unlink(path) }

    /// The process id a pid file holds (`write`'s form: decimal digits and a newline), read as
    /// `Int32(_:)` read the text without the newline (a `+` taken, a sign or byte more refused),
    /// on the bytes: the text's Characters and their stepping were more code.
    static func processID(_ bytes: ArraySlice<UInt8>) -> Int32? {
        var digits = bytes
        if digits.last == 0x0A { digits = digits.dropLast() }
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        var value: Int64 = 0
        for byte in digits {
            // A `-` (whose number is no process id) and anything but a digit end it.
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
            guard value <= Int64(Int32.max) else { return nil }
        }
        return value > 1 ? Int32(value) : nil
    }

    /// A pid file's bytes (at most 63 read); nil when it cannot be opened.
    static func read(_ path: String) -> ArraySlice<UInt8>? {
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        var bytes = [UInt8](repeating: 0, count: 63)
        let n = bytes.withUnsafeMutableBytes { CLinux.read(fd, $0.baseAddress, $0.count) }
        return bytes[..<max(0, n)]
    }
}
