import CLinux

// Standard output and error through write(2) only: no stdio buffer to flush or to interleave
// with, so the two streams stay in order on a shared terminal.

/// Writes all of `text` to `fd`, resuming after signals; gives up quietly on a closed pipe.
public func writeAll(_ text: String, to fd: Int32) {
    var text = text
    text.withUTF8 { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, base + offset, buffer.count - offset)
            if n < 0 { if loaderd_errno() == EINTR { continue }; return }
            offset += n
        }
    }
}

/// `text` on standard output, as it is.
public func writeOut(_ text: String) { writeAll(text, to: STDOUT_FILENO) }

/// One line (or block) on standard error, newline-terminated.
public func printError(_ text: String) {
    writeAll(text.hasSuffix("\n") ? text : text + "\n", to: STDERR_FILENO)
}
