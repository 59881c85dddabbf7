import CLinux
import CompactText

/// An error number from the C library, as a typed error. Board code throws it with typed throws
/// (`throws(Errno)`), which Embedded Swift supports where `any Error` is not available.
/// The shape follows swift-system's `Errno`, which cannot be built in Embedded mode.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now.
    public static var current: Errno { Errno(rawValue: loaderd_errno()) }

    /// strerror's text, e.g. "No such file or directory".
    public var description: String {
        guard let text = loaderd_strerror(rawValue) else { return filled("error {}", String(rawValue)) }
        return String(cString: text)
    }

    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    /// ENODEV (swift-system's name).
    public static let operationNotSupportedByDevice = Errno(rawValue: ENODEV)
    public static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)
    public static let inappropriateIOCTLForDevice = Errno(rawValue: ENOTTY)
    public static let messageTooLong = Errno(rawValue: EMSGSIZE)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let resourceBusy = Errno(rawValue: EBUSY)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let connectionAbort = Errno(rawValue: ECONNABORTED)
    public static let protocolError = Errno(rawValue: EPROTO)
    public static let notConnected = Errno(rawValue: ENOTCONN)
}

/// Runs one system call: its value, or the `Errno` it failed with (-1 and errno). With
/// `retryOnInterrupt`, EINTR repeats the call; every caller says which it wants.
@inline(__always)
public func valueOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> I) -> Result<I, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let code = Errno.current
        if code == .interrupted && retryOnInterrupt { continue }
        return .failure(code)
    }
}

extension Result where Failure == Errno {
    /// The value, or the error thrown (typed).
    @inline(__always) public func get() throws(Errno) -> Success {
        switch self {
        case .success(let v): return v
        case .failure(let e): throw e
        }
    }
}

/// The calling thread's errno as a number, as the Glibc overlay spells it (board code has no
/// Glibc module; C's `errno` is a macro Swift cannot import).
public var errno: Int32 {
    get { loaderd_errno() }
    set { loaderd_set_errno(newValue) }
}
