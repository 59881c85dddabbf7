import CLinux

/// Descriptors 0, 1 and 2 as the daemon assumes them.
public enum StandardStreams {
    /// Opens /dev/null onto each of 0, 1 and 2 that is closed. Call first thing in `main`: a
    /// daemon started with them closed (a careless parent, `loaderd >&- 2>&-`) would otherwise be
    /// handed 2 for the first file it opens — the framebuffer — and write its log into video
    /// memory (or a socket's replies into the log).
    public static func ensureOpen() {
        for fd: Int32 in 0...2 where loaderd_fcntl(fd, F_GETFD, 0) == -1 && loaderd_errno() == EBADF {
            // open returns the lowest free descriptor: `fd` itself, the ones below being open.
            let opened = loaderd_open("/dev/null", O_RDWR | O_NOCTTY, 0)
            if opened >= 0 && opened != fd { _ = close(opened) }
        }
    }
}
