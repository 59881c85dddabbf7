import CLinux
import LinuxSystem
import CompactText

/// AF_UNIX sockets: the control socket, its clients, and sd_notify datagrams.
public enum UnixSocket {
    /// `sockaddr_un` for `path`; a leading `@` names an abstract socket (Linux).
    public static func address(_ path: String) throws(SystemError) -> (sockaddr_un, socklen_t) {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            // `capacity - 1` written out: sun_path is 108 bytes on Linux (no number to format, for size).
            throw SystemError(filled("socket path '{}' is {} bytes; at most 107 fit in a Unix socket address", path, String(bytes.count)))
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in _ = raw.copyBytes(from: bytes) }
        let base = Int(loaderd_sockaddr_un_path_offset())
        // An abstract name is exactly its bytes; a path includes its terminating NUL.
        let length = base + bytes.count + (abstract ? 0 : 1)
        return (addr, socklen_t(length))
    }

    static func withSockaddr<R>(_ addr: inout sockaddr_un, _ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    /// Out of line: the socket's three makers each had a copy (for size).
    @inline(never)
    static func socket(_ type: Int32) throws(SystemError) -> OwnedDescriptor {
        switch syscall({ CLinux.socket(AF_UNIX, type | loaderd_sock_cloexec, 0) }) {
        case .success(let fd): return OwnedDescriptor(fd)
        case .failure(let e): throw SystemError("socket(AF_UNIX)", e)
        }
    }

    /// Whether something accepts connections at `path` right now (a connect succeeds).
    public static func isListening(_ path: String) -> Bool {
        guard let fd = try? socket(loaderd_sock_stream), let resolved = try? address(path) else { return false }
        var addr = resolved.0
        let len = resolved.1
        let r = withSockaddr(&addr) { a in syscall { connect(fd.rawValue, a, len) } }
        if case .success = r { return true }
        return false
    }

    /// Creates the listening socket at `path`: mode 0660, group `group` when given. Never follows a
    /// symlink at `path`; replaces a stale socket file (nothing accepting on it); refuses to start
    /// over a live one or over anything that is not a socket.
    @inline(never)  // out of Daemon.init, whose error paths it multiplied (for size)
    /// (Its messages join the path with `+`: fewer calls than an interpolation, for size.)
    public static func listen(path: String, group: gid_t?, backlog: Int32 = 128) throws(SystemError) -> ListeningSocket {
        var (addr, len) = try address(path)
        var st = stat()
        if lstat(path, &st) == 0 {
            let kind = st.st_mode & UInt32(S_IFMT)
            if kind == UInt32(S_IFLNK) {
                throw SystemError(path + " is a symbolic link; refusing to follow it for the control socket",
                                  hint: "remove it or choose another --socket")
            }
            guard kind == UInt32(S_IFSOCK) else {
                throw SystemError(path + " exists and is not a socket", hint: "remove it or choose another --socket")
            }
            if isListening(path) {
                throw SystemError("another loaderd is listening on " + path, hint: "stop it first, or use another --socket")
            }
            if unlink(path) != 0 && errno != ENOENT {
                throw SystemError("cannot remove the stale socket " + path, Errno.current)
            }
        } else if errno != ENOENT {
            throw SystemError("cannot inspect " + path, Errno.current)
        }
        let fd = try socket(loaderd_sock_stream | loaderd_sock_nonblock)
        // The umask makes bind create the file 0660 from the start: no window with wider access.
        let previous = umask(0o117)
        let bound = withSockaddr(&addr) { a in syscall { bind(fd.rawValue, a, len) } }
        umask(previous)
        if case .failure(let e) = bound {
            throw SystemError("cannot bind " + path, e, hint: e == .noSuchFileOrDirectory ? "does its directory exist?" : nil)
        }
        if lstat(path, &st) != 0 { throw SystemError(filled("cannot inspect {} after bind", path), Errno.current) }
        if let group, lchown(path, uid_t.max, group) != 0 {
            let e = Errno.current
            unlink(path)
            throw SystemError(filled("cannot give {} to group {}", path, String(group)), e)
        }
        if case .failure(let e) = syscall({ CLinux.listen(fd.rawValue, backlog) }) {
            unlink(path)
            throw SystemError("cannot listen on " + path, e)
        }
        return ListeningSocket(fd: fd, path: path, device: st.st_dev, inode: st.st_ino)
    }

    /// The listening socket systemd passed (socket activation): fd 3 when `LISTEN_PID` is our pid
    /// and `LISTEN_FDS` ≥ 1. Unsets the variables so children do not inherit them.
    @inline(never)  // out of Daemon.init (for size)
    public static func activated() throws(SystemError) -> ListeningSocket? {
        guard let pid = environmentNumber("LISTEN_PID"), pid == Int64(getpid()),
              let count = environmentNumber("LISTEN_FDS"), count >= 1, count <= Int64(Int.max) else { return nil }
        unsetenv("LISTEN_PID"); unsetenv("LISTEN_FDS"); unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        var accepting: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &size) == 0, accepting == 1 else {
            throw SystemError("LISTEN_FDS is set but fd 3 is not a listening socket", Errno.current)
        }
        let flags = loaderd_fcntl(fd, F_GETFL, 0)
        _ = loaderd_fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = loaderd_fcntl(fd, F_SETFD, FD_CLOEXEC)
        return ListeningSocket(fd: OwnedDescriptor(fd), path: nil, device: 0, inode: 0)
    }

    /// The group owning the socket file a listening socket is bound to (getsockname, then stat):
    /// for a socket systemd made with `SocketGroup=`. Nil for an abstract or unnamed socket.
    public static func fileGroup(of listener: ListeningSocket) -> gid_t? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let rc = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener.fd.rawValue, $0, &length) }
        }
        guard rc == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path: String = withUnsafeBytes(of: &address.sun_path) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard path.hasPrefix("/") else { return nil }
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_gid
    }

    /// Accepts one pending connection (non-blocking, close-on-exec), nil when none is pending.
    ///
    /// The corresponding C function is `accept4`.
    public static func accept(_ listener: ListeningSocket) -> Result<OwnedDescriptor?, Errno> {
        switch syscall({ loaderd_accept_nonblocking(listener.fd.rawValue) }) {
        case .success(let fd): return .success(OwnedDescriptor(fd))
        case .failure(.wouldBlock), .failure(.resourceTemporarilyUnavailable): return .success(nil)
        // The peer gave up before we accepted it: not our error.
        case .failure(.connectionAbort), .failure(.protocolError): return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }

    /// Who is at the other end (SO_PEERCRED), and whether it is in `group`: as its primary group,
    /// or among its supplementary groups (SO_PEERGROUPS) when the kernel tells. The membership is
    /// found here rather than the groups returned as an array (for size).
    public static func peer(_ fd: Int32, inGroup group: gid_t) -> (pid: Int32, uid: uid_t, isMember: Bool)? {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard loaderd_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        if gid == group { return (pid, uid, true) }
        var groups = [UInt32](repeating: 0, count: 64)
        var n = groups.withUnsafeMutableBufferPointer { loaderd_peer_groups(fd, $0.baseAddress, Int32($0.count)) }
        if n > 64 {
            groups = [UInt32](repeating: 0, count: Int(n))
            n = groups.withUnsafeMutableBufferPointer { loaderd_peer_groups(fd, $0.baseAddress, Int32($0.count)) }
        }
        return (pid, uid, n >= 0 && groups.prefix(Int(Swift.min(n, Int32(groups.count)))).contains(group))
    }

    /// Sends one datagram to the AF_UNIX socket at `path` (`@name` for abstract).
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(SystemError) {
        var (addr, len) = try address(path)
        let fd = try socket(loaderd_sock_dgram)
        let r = bytes.withUnsafeBytes { buffer in
            withSockaddr(&addr) { a in
                syscall { sendto(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), a, len) }
            }
        }
        if case .failure(let e) = r { throw SystemError("sd_notify to " + path, e) }
    }

    /// Writes what it can without blocking; returns the bytes written (0 when the socket is full).
    ///
    /// The corresponding C function is `send` with MSG_NOSIGNAL | MSG_DONTWAIT. Out of line: its
    /// three callers each had a copy (for size).
    @inline(never)
    public static func sendSome(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        switch syscall({ send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }) {
        case .success(let n): return .success(n)
        case .failure(.wouldBlock), .failure(.resourceTemporarilyUnavailable): return .success(0)
        case .failure(let e): return .failure(e)
        }
    }

    /// Reads what is there without blocking: nil when nothing is (EAGAIN), 0 at end of stream.
    public static func receiveSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int?, Errno> {
        switch syscall({ recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }) {
        case .success(let n): return .success(n)
        case .failure(.wouldBlock), .failure(.resourceTemporarilyUnavailable): return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }
}

/// The control socket: closed on release; the file it created is removed by `removeFile()`.
public final class ListeningSocket {
    public let fd: OwnedDescriptor
    /// The path we bound (nil when systemd passed the socket: it owns the file).
    public let path: String?
    let device: dev_t
    let inode: ino_t

    init(fd: OwnedDescriptor, path: String?, device: dev_t, inode: ino_t) {
        self.fd = fd; self.path = path; self.device = device; self.inode = inode
    }

    /// Removes the socket file if it is still the one we created (never another daemon's).
    public func removeFile() {
        guard let path else { return }
        unlinkIfUnchanged(path, device: device, inode: inode)
    }
}

/// Removes the file at `path` when it is still the one that was made (same device and inode),
/// never a newer one: the control socket's and psplash's FIFO's one copy (for size).
@inline(never)
func unlinkIfUnchanged(_ path: String, device: dev_t, inode: ino_t) {
    var st = stat()
    if lstat(path, &st) == 0, st.st_dev == device, st.st_ino == inode { unlink(path) }
}
