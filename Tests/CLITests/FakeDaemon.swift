import Foundation
import Glibc

/// A scripted stand-in for loaderd on a real Unix socket in a temporary directory: it accepts
/// one connection, records the exact bytes of the request line, and answers as told. It lets
/// the tests pin what loaderctl puts on the wire before the real daemon exists.
final class FakeDaemon: @unchecked Sendable {
    enum Behavior: Sendable {
        /// Write these bytes (normally one `OK ...\n` or `ERR ...\n` line), then close.
        case reply(String)
        /// Read the request, then close without a word.
        case closeWithoutReply
        /// Read the request and keep the connection open, silent, until `stop()`.
        case silent
    }

    let directory: String
    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var request: [UInt8]?
    private var connections = 0
    private let finished = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private var serving = false

    /// Binds and listens; nothing is accepted until `serve`.
    init() throws {
        // Short, so the path fits sun_path (108 bytes) whatever $TMPDIR is.
        directory = "/tmp/loaderctl-test-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/loaderd.sock"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
    }

    deinit {
        close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Serves one connection on a background thread.
    func serve(_ behavior: Behavior) {
        serving = true
        let thread = Thread { [self] in
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { finished.signal(); return }
            lock.withLock { connections += 1 }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !bytes.contains(UInt8(ascii: "\n")) {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                bytes += buffer[..<n]
            }
            lock.withLock { request = bytes }
            switch behavior {
            case .reply(let text):
                let out = Array(text.utf8)
                _ = out.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            case .closeWithoutReply:
                break
            case .silent:
                release.wait()
            }
            close(fd)
            finished.signal()
        }
        thread.start()
    }

    /// Ends a `.silent` connection.
    func stop() { release.signal() }

    /// The request bytes received, as text (after the served connection ended).
    var receivedRequest: String? {
        if serving { _ = finished.wait(timeout: .now() + 10) }
        return lock.withLock { request.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Whether anyone connected at all (a usage error must not contact the daemon).
    var wasContacted: Bool {
        if serving { return lock.withLock { connections > 0 } }
        var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }
}
