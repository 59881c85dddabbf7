import CLinux
import LinuxSystem
import CompactText

/// One system call: LinuxSystem's `valueOrErrno` under the daemon's shorter name.
@inline(__always)
func syscall<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> I) -> Result<I, Errno> {
    valueOrErrno(retryOnInterrupt: retryOnInterrupt, body)
}

extension Errno {
    /// strerror's text (`description`), one out-of-line copy for the daemon's log lines: the
    /// getter was inlined at each of them (for size).
    @inline(never)
    var text: String { description }
}

/// An environment error with what was being done: "bind /run/loaderd/loaderd.sock: Permission denied".
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let errno: Errno?
    public let hint: String?
    public init(_ operation: String, _ errno: Errno? = nil, hint: String? = nil) {
        self.operation = operation; self.errno = errno; self.hint = hint
    }
    public var description: String {
        var text = operation
        if let errno { text += ": " + errno.description }
        if let hint { text += filled(" ({})", hint) }
        return text
    }
}

/// Owns a file descriptor and closes it when released.
public final class OwnedDescriptor {
    public private(set) var rawValue: Int32
    public init(_ fd: Int32) { rawValue = fd }
    /// Closes now (a second call does nothing). EINTR from close is not retried: on Linux the
    /// descriptor is released anyway.
    public func close() {
        guard rawValue >= 0 else { return }
        _ = CLinux.close(rawValue)
        rawValue = -1
    }
    deinit { close() }
}
