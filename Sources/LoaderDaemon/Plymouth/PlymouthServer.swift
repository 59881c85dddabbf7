import CLinux
import LinuxSystem
import CompactText

/// One client of the Plymouth socket (systemd's PID 1, the `plymouth` client, ask-password agents).
final class PlymouthConnection {
    let fd: OwnedDescriptor
    let peerUID: uid_t
    var parser = PlymouthParser()
    var output: [UInt8] = []
    var outputStart = 0
    var readClosed = false
    var dead = false
    /// Set once a non-root request was refused and logged (logged once per connection).
    var refusedLogged = false

    init(fd: OwnedDescriptor, peerUID: uid_t) { self.fd = fd; self.peerUID = peerUID }

    var pendingOutput: Int { output.count - outputStart }

    /// One reply byte (ACK, NAK or no answer: all that loaderd answers; for size, no array made).
    func queue(_ reply: UInt8) { output.append(reply) }

    /// Sends what the socket takes now; false when the peer is gone.
    func flush() -> Bool {
        guard pendingOutput > 0 else { return true }
        let r = output.withUnsafeBytes { UnixSocket.sendSome(fd.rawValue, UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
        guard case .success(let n) = r else { return false }
        outputStart += n
        if outputStart == output.count { output.removeAll(keepingCapacity: true); outputStart = 0 }
        return true
    }
}

/// Plymouth's listening sockets: the abstract `/org/freedesktop/plymouthd` bound with the trimmed
/// address length (what plymouthd and current clients use), and the old abstract
/// `/ply-boot-protocol` with the full-length NUL-padded address (what old clients try).
final class PlymouthServer {
    /// The current name's socket, then the old name's when it could be bound (no names kept:
    /// nothing reads them; for size).
    let listeners: [OwnedDescriptor]
    var connections: [PlymouthConnection] = []
    let maximumConnections: Int

    init(listeners: [OwnedDescriptor], maximumConnections: Int) {
        self.listeners = listeners; self.maximumConnections = maximumConnections
    }

    /// Most unsent reply bytes per connection before it is dropped (a client that never reads).
    static let maximumOutput = 64 * 1024

    /// Binds both names. The current name is required (another plymouthd or loaderd on it is an
    /// error a person must fix); the old name is best effort (`warn` says why it is missing).
    static func listen(maximumConnections: Int, warn: (String) -> Void) throws(SystemError) -> PlymouthServer {
        var listeners = try [bind(PlymouthWire.socketName, trimmed: true)]
        do throws(SystemError) {
            listeners.append(try bind(PlymouthWire.oldSocketName, trimmed: false))
        } catch {
            warn(filled("Plymouth front end: not listening on the old name: {}", error.description))
        }
        return PlymouthServer(listeners: listeners, maximumConnections: maximumConnections)
    }

    /// An abstract address: NUL, then the name; `trimmed` gives the exact length
    /// (offsetof(sun_path) + 1 + strlen), otherwise the whole NUL-padded `sockaddr_un`.
    static func address(_ name: String, trimmed: Bool) -> (sockaddr_un, socklen_t) {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() where i + 1 < raw.count { raw[i + 1] = b }
        }
        let base = Int(loaderd_sockaddr_un_path_offset())
        let length = trimmed ? base + 1 + bytes.count : MemoryLayout<sockaddr_un>.size
        return (addr, socklen_t(length))
    }

    static func bind(_ name: String, trimmed: Bool) throws(SystemError) -> OwnedDescriptor {
        var (addr, len) = address(name, trimmed: trimmed)
        let fd = try UnixSocket.socket(loaderd_sock_stream | loaderd_sock_nonblock)
        // The bind's failure or the listen's, thrown at one place (for size).
        var binding = true
        var result = UnixSocket.withSockaddr(&addr) { a in syscall { CLinux.bind(fd.rawValue, a, len) } }
        if case .success = result {
            binding = false
            result = syscall { CLinux.listen(fd.rawValue, 128) }
        }
        if case .failure(let e) = result {
            throw SystemError((binding ? "cannot bind the Plymouth socket @" : "cannot listen on the Plymouth socket @") + name, e,
                              hint: binding && e == .addressInUse ? "plymouthd (or another loaderd) is running; stop it or leave [boot] plymouth off" : nil)
        }
        return fd
    }

    /// Most connections from peers other than root at once. Plymouth's protocol is root's (every
    /// request from another uid gets NAK), so others get a small share, and only ever evict each
    /// other: any local user can connect, and must never cost a root peer (PID 1, `plymouth`
    /// run by boot scripts) its connection or the messages waiting on it.
    var maximumUnprivileged: Int { Swift.max(1, maximumConnections / 4) }

    /// Accepts what is pending on `listener` (bounded per turn). At the limit, room is made by
    /// dropping the oldest unprivileged connection; only a root peer may drop a root connection
    /// (the oldest), so that PID 1's messages always get through: `lastWords` reads and answers
    /// what that one sent first (PID 1 sends a unit's message and closes without waiting; a burst
    /// of 150 lost the messages of those dropped unread). Returns the error that stopped
    /// accepting (EMFILE and the like) for the caller to back off; nil when the backlog is empty.
    func accept(_ listener: Int32, logNotice: (String) -> Void, lastWords: (PlymouthConnection) -> Void) -> Errno? {
        for _ in 0..<64 {
            let r = syscall { loaderd_accept_nonblocking(listener) }
            let raw: Int32
            switch r {
            case .success(let fd): raw = fd
            case .failure(.wouldBlock), .failure(.resourceTemporarilyUnavailable), .failure(.connectionAbort), .failure(.protocolError):
                return nil
            case .failure(let e):
                return e
            }
            let fd = OwnedDescriptor(raw)
            var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
            // No credentials: treated as not root (every request gets NAK).
            if loaderd_peer_credentials(raw, &pid, &uid, &gid) != 0 { uid = UInt32.max }
            let privileged = uid == 0
            let unprivileged = connections.lazy.filter { $0.peerUID != 0 }.count
            if !privileged && unprivileged >= maximumUnprivileged {
                dropOldest(privileged: false)
            } else if connections.count >= maximumConnections {
                if unprivileged > 0 {
                    dropOldest(privileged: false)
                } else if privileged {
                    if let oldest = connections.first(where: { $0.peerUID == 0 }) {
                        lastWords(oldest)
                        // Said only when a peer still connected loses its connection.
                        if !oldest.readClosed {
                            logNotice(filled("Plymouth front end: {} root connections open; dropping the oldest", String(maximumConnections)))
                        }
                    }
                    dropOldest(privileged: true)
                } else {
                    continue  // full of root peers: the newcomer is closed (its fd released here)
                }
            }
            connections.append(PlymouthConnection(fd: fd, peerUID: uid))
        }
        return nil
    }

    private func dropOldest(privileged: Bool) {
        if let i = connections.firstIndex(where: { ($0.peerUID == 0) == privileged }) { connections.remove(at: i) }
    }

    func closeAll() {
        connections.removeAll()
    }
}

/// What broke the framing, for the log line that drops the client (here rather than beside the
/// error: PlymouthFraming.swift is compiled into the fuzzer with the standard library alone).
extension PlymouthFramingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badHeader(let byte): return filled("after the command came byte {}, where 0 (no argument) or 2 (an argument follows) belongs", String(byte))
        case .zeroLength: return "an argument of length 0 (it counts its final NUL, so is at least 1)"
        case .missingNUL: return "an argument that does not end with a NUL byte"
        }
    }
}
