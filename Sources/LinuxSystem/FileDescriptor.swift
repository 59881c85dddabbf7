import CLinux

/// A path as handed to the kernel. A thin wrapper so call sites read like swift-system's.
public struct FilePath: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var string: String
    public init(_ string: String) { self.string = string }
    public init(stringLiteral value: String) { string = value }
    public var description: String { string }
}

/// An open file descriptor as a small value type: it does not own the descriptor (close it, or
/// hold it in a class that does). Methods are one system call each, in swift-system's manner:
/// errors as a typed `Errno`, EINTR retried unless the caller says otherwise.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// How a file is opened for reading and writing.
    public struct AccessMode: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = AccessMode(rawValue: O_RDONLY)
        public static let writeOnly = AccessMode(rawValue: O_WRONLY)
        public static let readWrite = AccessMode(rawValue: O_RDWR)
    }

    /// open(2) flags beyond the access mode.
    public struct OpenOptions: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let append = OpenOptions(rawValue: O_APPEND)
        public static let create = OpenOptions(rawValue: O_CREAT)
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// File mode bits for a created file.
    public struct FilePermissions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let ownerReadWrite = FilePermissions(rawValue: 0o600)
        public static let groupRead = FilePermissions(rawValue: 0o040)
        public static let groupReadWrite = FilePermissions(rawValue: 0o060)
        public static let otherRead = FilePermissions(rawValue: 0o004)
        public static let otherReadWrite = FilePermissions(rawValue: 0o006)
    }

    /// Opens `path`. The corresponding C function is `open`.
    public static func open(_ path: FilePath, _ mode: AccessMode, options: OpenOptions = [],
                            permissions: FilePermissions? = nil, retryOnInterrupt: Bool = true) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue
        let modeBits = permissions?.rawValue ?? 0
        let fd = try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
            path.string.withCString { loaderd_open($0, flags, modeBits) }
        }.get()
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor. EINTR is not retried: on Linux the descriptor is gone anyway.
    /// The corresponding C function is `close`.
    public func close() throws(Errno) {
        if CLinux.close(rawValue) == -1 {
            let e = Errno.current
            if e != .interrupted { throw e }
        }
    }

    /// Reads at most `buffer.count` bytes; 0 at the end. The corresponding C function is `read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        try valueOrErrno(retryOnInterrupt: retryOnInterrupt) { CLinux.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// The rest of the file, read to its end (EINTR retried, as `read(into:)`); nil when it holds
    /// more than `limit` bytes, found out once that many have been read, so a wrong path (a disk,
    /// /dev/zero) cannot fill memory. The corresponding C function is `read`, in a loop. One loop
    /// for the config file, the boot timeline, /etc/group and the image codecs' files.
    public func readToEnd(limit: Int) throws(Errno) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            // The read's Result out of the closure: `withUnsafeMutableBytes` rethrows untyped.
            let n = try chunk.withUnsafeMutableBytes { buffer in
                valueOrErrno { CLinux.read(rawValue, buffer.baseAddress, buffer.count) }
            }.get()
            if n == 0 { return bytes }
            if n > limit - bytes.count { return nil }
            bytes += chunk[..<n]
        }
    }

    /// Writes some of `buffer`; how much. The corresponding C function is `write`.
    public func write(_ buffer: UnsafeRawBufferPointer, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        try valueOrErrno(retryOnInterrupt: retryOnInterrupt) { CLinux.write(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Writes all of `buffer`, continuing after short writes.
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        var offset = 0
        while offset < buffer.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        }
        return offset
    }

    /// Runs `body` and closes the descriptor afterwards, whether or not `body` threw.
    public func closeAfter<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        defer { try? close() }
        return try body()
    }
}
