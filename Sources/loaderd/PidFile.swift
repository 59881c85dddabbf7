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
        var text = "\(getpid())\n"
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

    /// The process id a pid file holds (`write`'s form: decimal digits and a newline).
    static func processID(_ text: String) -> Int32? {
        var digits = Substring(text)
        if digits.hasSuffix("\n") { digits = digits.dropLast() }
        guard let pid = Int32(digits), pid > 1 else { return nil }
        return pid
    }

    /// A pid file's text (at most 63 bytes read); nil when it cannot be opened.
    static func read(_ path: String) -> String? {
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        var bytes = [UInt8](repeating: 0, count: 63)
        let n = bytes.withUnsafeMutableBytes { CLinux.read(fd, $0.baseAddress, $0.count) }
        return String(decoding: bytes[..<max(0, n)], as: UTF8.self)
    }
}
