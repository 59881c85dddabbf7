import CLinux
import CompactText

/// Checks on files the daemon opens by path (its config, the boot timeline, the image display's
/// temporary file, a framebuffer stand-in). Such paths are opened with O_NONBLOCK, so a FIFO or
/// a device put there cannot block the daemon in open(2) where no signal reaches it; this says
/// what was found instead of a regular file.
public enum RegularFile {
    /// nil when `fd` is a regular file; otherwise what it is, for an error message.
    public static func refusal(_ fd: Int32) -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return filled("cannot inspect it: {}", Errno.current.description) }
        if loaderd_s_isreg(st.st_mode) != 0 { return nil }
        return filled("it is {}, not a regular file; remove it or choose another path", kind(st.st_mode))
    }

    /// "a FIFO", "a directory", ... for messages.
    public static func kind(_ mode: UInt32) -> String {
        if loaderd_s_isfifo(mode) != 0 { return "a FIFO" }
        if loaderd_s_isdir(mode) != 0 { return "a directory" }
        if loaderd_s_issock(mode) != 0 { return "a socket" }
        if loaderd_s_ischr(mode) != 0 { return "a character device" }
        if loaderd_s_islnk(mode) != 0 { return "a symbolic link" }
        return "a special file"
    }

    /// Clears O_NONBLOCK again once a regular file is known (it changes nothing for regular files
    /// on Linux, but keeps the descriptor ordinary for whoever writes to it later).
    public static func makeBlocking(_ fd: Int32) {
        let flags = loaderd_fcntl(fd, F_GETFL, 0)
        if flags >= 0 && flags & O_NONBLOCK != 0 { _ = loaderd_fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
    }
}
