import CLinux
import LinuxSystem
import CompactText

/// A reply line of the control protocol (docs/PROTOCOL.md): `OK [data]` or `ERR code message`.
enum DaemonReply: Equatable {
    case ok(String)
    case err(code: String, message: String)
    case unexpected(String)

    init(_ line: String) {
        if line == "OK" { self = .ok(""); return }
        if line.hasPrefix("OK ") { self = .ok(String(line.dropFirst(3))); return }
        if line.hasPrefix("ERR ") {
            let rest = line.dropFirst(4).drop { $0 == " " }
            let code = rest.prefix { $0 != " " }
            let message = rest.dropFirst(code.count).drop { $0 == " " }
            self = .err(code: String(code), message: message.isEmpty ? String(code) : String(message))
            return
        }
        self = .unexpected(line)
    }
}

/// One request, one reply, over a Unix stream socket, with an overall deadline.
/// Plain Glibc: non-blocking socket, `poll` for every wait, so no step can hang past the deadline.
struct DaemonClient {
    /// `sizeof(sockaddr_un.sun_path)`; the path needs its terminating NUL too.
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
    /// Longest reply accepted (a `status` is a few hundred bytes).
    static let maximumReply = 1 << 20

    let path: String
    let timeout: Double

    private var hint: String { "is loaderd running? start it or set --socket / LOADERD_SOCKET" }

    /// One request and its reply. A daemon serving all the clients it takes (`ERR busy`) is
    /// asked again every 50 ms until the deadline: a boot script's `progress` must not fail because
    /// other clients held the daemon for a moment. Still busy at the deadline, it never took the
    /// request: not reached in time (exit 3), not refused.
    func exchange(_ request: String) throws(RuntimeFailure) -> String {
        let deadline = monotonicMicroseconds() + Int64(timeout * 1_000_000)
        var busy: String? = nil
        while true {
            let reply: String
            do { reply = try attempt(request, deadline: deadline) } catch {
                // Out of time while asking again: what the daemon said says more than the time-out.
                if let busy { throw busyThroughout(busy) }
                throw error
            }
            guard reply.hasPrefix("ERR busy ") else { return reply }
            guard monotonicMicroseconds() + 50_000 < deadline else { throw busyThroughout(reply) }
            busy = reply
            var none = pollfd()
            _ = poll(&none, 0, 50)
        }
    }

    /// `ERR busy` until the deadline, with the daemon's words.
    private func busyThroughout(_ reply: String) -> RuntimeFailure {
        var words = reply
        if case .err(_, let message) = DaemonReply(reply) { words = message }
        return .unreachable("loaderd at \(path) was busy for the whole --timeout of \(formatSeconds(timeout)) s: \(words) (raise --timeout)")
    }

    private func attempt(_ request: String, deadline: Int64) throws(RuntimeFailure) -> String {
        let fd = socket(AF_UNIX, loaderd_sock_stream | loaderd_sock_cloexec | loaderd_sock_nonblock, 0)
        guard fd >= 0 else { throw .unreachable("cannot create a socket: \(errorText(errno))") }
        defer { close(fd) }
        try connect(fd, deadline: deadline)
        do {
            try sendAll(fd, Array((request + "\n").utf8), deadline: deadline)
        } catch {
            // A daemon that refuses a connection (`ERR busy`, `ERR denied`) replies at once and
            // closes, so our write can fail with EPIPE while its reason waits unread in the socket:
            // report the daemon's words when there are any.
            if let line = try? receiveLine(fd, deadline: deadline), line.hasPrefix("ERR ") { return line }
            throw error
        }
        return try receiveLine(fd, deadline: deadline)
    }

    private func connect(_ fd: Int32, deadline: Int64) throws(RuntimeFailure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        while true {
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    CLinux.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if r == 0 { return }
            let e = errno
            switch e {
            case EINTR:
                continue
            case EAGAIN:
                // The daemon's listen backlog is full: it is alive but busy; retry until the deadline.
                guard monotonicMicroseconds() < deadline else { throw timedOut() }
                var none = pollfd()
                _ = poll(&none, 0, 10)
            case EINPROGRESS:
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return }
                throw cannotConnect(error)
            default:
                throw cannotConnect(e)
            }
        }
    }

    private func cannotConnect(_ e: Int32) -> RuntimeFailure {
        if e == ECONNREFUSED, let what = notASocket() {
            return .unreachable("cannot connect to \(path): it is \(what), not a socket (is --socket right? loaderd makes its socket there when it starts)")
        }
        if e == EACCES || e == EPERM {
            return .unreachable("cannot connect to \(path): \(errorText(e)) (the socket is for root and its group: use sudo, or join the group set by daemon.socket_group)")
        }
        return .unreachable("cannot connect to \(path): \(errorText(e)) (\(hint))")
    }

    /// What is at the path when it is not a socket ("a regular file", "a directory"); nil for a
    /// socket (nobody listens on it: the daemon is not running) or nothing there.
    private func notASocket() -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, loaderd_s_issock(st.st_mode) == 0, loaderd_s_islnk(st.st_mode) == 0 else { return nil }
        return loaderd_s_isreg(st.st_mode) != 0 ? "a regular file" : RegularFile.kind(st.st_mode)
    }

    private func timedOut() -> RuntimeFailure {
        .unreachable("loaderd at \(path) did not answer within \(formatSeconds(timeout)) s (is it stuck? raise --timeout)")
    }

    /// Waits until `fd` is ready for `events`, or throws at the deadline.
    private func wait(_ fd: Int32, for events: Int16, deadline: Int64) throws(RuntimeFailure) {
        while true {
            let remaining = deadline - monotonicMicroseconds()
            guard remaining > 0 else { throw timedOut() }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let r = poll(&p, 1, Int32(min((remaining + 999) / 1000, Int64(Int32.max))))
            if r > 0 { return }
            if r < 0 && errno != EINTR { throw .unreachable("poll on \(path) failed: \(errorText(errno))") }
        }
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8], deadline: Int64) throws(RuntimeFailure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { offset += n; continue }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { try wait(fd, for: Int16(POLLOUT), deadline: deadline); continue }
            throw .unreachable("loaderd at \(path) closed the connection before the request was sent: \(errorText(e))")
        }
    }

    /// Reads up to and including the first `\n`; returns the line without `\n` (and a `\r` before it).
    private func receiveLine(_ fd: Int32, deadline: Int64) throws(RuntimeFailure) -> String {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            try wait(fd, for: Int16(POLLIN), deadline: deadline)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 {
                let e = errno
                if e == EINTR || e == EAGAIN || e == EWOULDBLOCK { continue }
                throw .unreachable("reading the reply from loaderd at \(path) failed: \(errorText(e))")
            }
            if n == 0 {
                throw .unreachable("loaderd at \(path) closed the connection without a reply")
            }
            if let newline = buffer[..<n].firstIndex(of: UInt8(ascii: "\n")) {
                line += buffer[..<newline]
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            line += buffer[..<n]
            if line.count > Self.maximumReply {
                throw RuntimeFailure("the reply from loaderd at \(path) is longer than \(Self.maximumReply) bytes")
            }
        }
    }
}

func errorText(_ e: Int32) -> String { String(cString: loaderd_strerror(e)) }
