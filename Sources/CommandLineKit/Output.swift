import CLinux
import CompactText  // its byte-based hasSuffix, for size

// Standard output and error through write(2) only: no stdio buffer to flush or to interleave
// with, so the two streams stay in order on a shared terminal.

/// Writes all of `text` to `fd`, resuming after signals. Returns 0, or the errno of the write
/// that failed, after which nothing more is written (EPIPE: the reader is gone; ENOSPC, EIO,
/// EBADF: the output is lost). Callers that ignore it give up quietly.
@discardableResult
public func writeAll(_ text: String, to fd: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, base + offset, buffer.count - offset)
            if n < 0 {
                let error = loaderd_errno()
                if error == EINTR { continue }
                return error
            }
            offset += n
        }
        return 0
    }
}

/// `text` on standard output, as it is; 0 or the errno of the failed write (see `writeAll`).
@discardableResult
public func writeOut(_ text: String) -> Int32 { writeAll(text, to: STDOUT_FILENO) }

/// One line (or block) on standard error, newline-terminated.
public func printError(_ text: String) {
    writeAll(endsWith(text, UInt8(ascii: "\n")) ? text : text + "\n", to: STDERR_FILENO)
}

/// Whether the last byte of `text` is `byte` (an ASCII byte): `hasSuffix` on bytes, for size
/// (its Character comparison brings grapheme breaking).
public func endsWith(_ text: String, _ byte: UInt8) -> Bool {
    var text = text
    return text.withUTF8 { $0.last == byte }
}
