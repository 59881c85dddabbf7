import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Plymouth front end's tests run loaderd in a network namespace of its own (`unshare -n`):
/// abstract socket names are per network namespace, so no test meets a real plymouthd or another
/// test. The real `plymouth` client joins it with `nsenter -t PID -n`; raw-byte clients connect
/// from a thread that joined it with setns(2).
enum BootTestEnvironment {
    static let plymouth = "/usr/bin/plymouth"
    /// Root (for unshare -n) and a working unshare.
    static let canIsolate: Bool = {
        guard getuid() == 0 else { return false }
        guard let p = try? Spawned("/usr/bin/unshare", ["-n", "/bin/true"], logPath: "/dev/null") else { return false }
        return (try? p.wait()) == 0
    }()
    static var hasPlymouthClient: Bool { FileManager.default.isExecutableFile(atPath: plymouth) }
}

/// loaderd in its own network namespace, with an image display and a control socket in a temp dir.
final class IsolatedDaemon: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let imagePath: String
    let timelinePath: String
    let process: Spawned
    /// A directory made here is removed with the daemon; one passed in stays (the caller's).
    let ownsDirectory: Bool

    /// `plymouthFlag`: pass `--plymouth` (false: the front end only as the arguments' config says).
    init(arguments: [String] = [], size: String = "32x8", directory: String? = nil, namespaceOf other: IsolatedDaemon? = nil,
         waitForSocket: Bool = true, plymouthFlag: Bool = true) throws {
        let dir = try directory ?? Paths.temporaryDirectory()
        self.directory = dir
        ownsDirectory = directory == nil
        socketPath = dir + "/loaderd-\(UUID().uuidString.prefix(4)).sock"
        imagePath = dir + "/frame.ppm"
        timelinePath = dir + "/state/boot-timeline"
        let args = ["--socket", socketPath, "--display", "image:path=\(imagePath),size=\(size)",
                    "--boot-timeline", timelinePath] + (plymouthFlag ? ["--plymouth"] : []) + arguments
        if let other {
            process = try Spawned("/usr/bin/nsenter", ["-t", "\(other.process.pid)", "-n", Paths.loaderd] + args,
                                  logPath: dir + "/loaderd-\(UUID().uuidString.prefix(4)).log")
        } else {
            process = try Spawned("/usr/bin/unshare", ["-n", Paths.loaderd] + args, logPath: dir + "/loaderd.log")
        }
        if waitForSocket { try self.waitForSocket() }
    }

    func waitForSocket(timeout: Double = 15) throws {
        try waitUntilListening(socketPath, process, timeout: timeout)
    }

    func client() throws -> Client { try Client(path: socketPath) }

    /// The `status` JSON as a dictionary.
    func status() throws -> [String: Any] {
        let line = try client().request("status")
        guard line.hasPrefix("OK "), let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst(3).utf8)) as? [String: Any] else {
            throw HarnessError("bad status: \(line)")
        }
        return object
    }

    func progress() throws -> Double? { (try status()["progress"] as? NSNumber)?.doubleValue }
    func message() throws -> String? { try status()["message"] as? String }
    func loader() throws -> String? { try status()["loader"] as? String }

    /// Runs the real `plymouth` client inside the daemon's network namespace; its exit status.
    func plymouth(_ arguments: String..., asUser user: Int? = nil) throws -> Int32 {
        var argv = ["-t", "\(process.pid)", "-n"]
        if let user { argv += ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] }
        argv += [BootTestEnvironment.plymouth] + arguments
        let p = try Spawned("/usr/bin/nsenter", argv, logPath: directory + "/plymouth.log")
        return try p.wait(timeout: 10)
    }

    /// A raw connection to the Plymouth socket from inside the namespace.
    func connect(name: String = "/org/freedesktop/plymouthd", trimmed: Bool = true) throws -> RawPlymouthClient {
        try RawPlymouthClient(namespacePID: process.pid, name: name, trimmed: trimmed)
    }

    deinit { if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) } }
}

/// A byte-level client of the Plymouth socket (what systemd's PID 1 does by hand).
final class RawPlymouthClient: @unchecked Sendable {
    let fd: Int32

    init(namespacePID: pid_t, name: String, trimmed: Bool) throws {
        final class Outcome: @unchecked Sendable { var fd: Int32 = -1; var failure = "" }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        // setns changes only the calling thread's namespace: a thread of its own, which then ends.
        let thread = Thread {
            defer { done.signal() }
            let ns = open("/proc/\(namespacePID)/ns/net", O_RDONLY | O_CLOEXEC)
            guard ns >= 0 else { outcome.failure = "open ns: \(errno)"; return }
            defer { close(ns) }
            guard RawPlymouthClient.setns(ns, 0x4000_0000 /* CLONE_NEWNET */) == 0 else { outcome.failure = "setns: \(String(cString: strerror(errno)))"; return }
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in name.utf8.enumerated() { raw[i + 1] = b }
            }
            let length = trimmed ? 2 + 1 + name.utf8.count : MemoryLayout<sockaddr_un>.size
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(length)) }
            }
            if rc != 0 { outcome.failure = "connect @\(name): \(String(cString: strerror(errno)))"; close(fd); return }
            outcome.fd = fd
        }
        thread.start()
        done.wait()
        guard outcome.fd >= 0 else { throw HarnessError(outcome.failure) }
        fd = outcome.fd
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// setns(2) (hidden behind _GNU_SOURCE in Swift's Glibc module).
    static let setns: @convention(c) (Int32, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "setns") else { fatalError("no setns in libc") }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n == bytes.count else { throw HarnessError("send: \(n)") }
    }

    /// A request as the client library frames it.
    static func frame(_ command: Character, _ argument: String? = nil) -> [UInt8] {
        var out = [UInt8(ascii: command.unicodeScalars.first!)]
        if let argument { out += [0x02, UInt8(argument.utf8.count + 1)] + Array(argument.utf8) + [0] } else { out.append(0) }
        return out
    }

    /// Exactly `count` reply bytes (fewer at end of stream).
    func receive(_ count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            var chunk = [UInt8](repeating: 0, count: count - out.count)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n < 0 { if errno == EINTR { continue }; throw HarnessError("recv: \(String(cString: strerror(errno)))") }
            out += chunk[0..<n]
        }
        return out
    }

    /// True when the daemon closed the connection (reads to the end).
    func closedByPeer() -> Bool {
        while true {
            var byte: UInt8 = 0
            let n = recv(fd, &byte, 1, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    func shutdownWriting() { Glibc.shutdown(fd, Int32(SHUT_WR)) }
}
