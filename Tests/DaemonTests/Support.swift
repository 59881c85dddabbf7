import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Failures of the harness itself (a daemon that never came up, a reply that never came).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

enum Paths {
    /// The directory of the binaries under test: $LOADERD_BINARIES when set (scripts/test sets it to
    /// dist/x86_64, the Embedded Swift build that ships), else SwiftPM's products, where the test
    /// runner lives (dirname of /proc/self/exe).
    static let products: String = {
        if let dir = ProcessInfo.processInfo.environment["LOADERD_BINARIES"], !dir.isEmpty { return dir }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = (exe as NSString).deletingLastPathComponent
        while dir.hasSuffix(".xctest") || dir.hasSuffix("/Contents") || dir.hasSuffix("/MacOS") {
            dir = (dir as NSString).deletingLastPathComponent
        }
        return dir
    }()
    static var loaderd: String { products + "/loaderd" }

    static func temporaryDirectory() throws -> String {
        let path = "/tmp/ldt-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A program a test will run, put at `destination` by install(1) (mode 755), not written by
    /// this process: a file this process held open for writing could be inherited by a program
    /// another test spawns meanwhile, and then not be executed (ETXTBSY, "Text file busy").
    static func installProgram(_ source: String, at destination: String) throws {
        let install = try Spawned("/usr/bin/install", ["-m", "755", source, destination], logPath: destination + ".install.log")
        guard try install.wait() == 0 else { throw HarnessError("install \(source) \(destination): \(install.log)") }
    }
}

/// A spawned process (posix_spawn), its output in a file; killed if still running when released.
final class Spawned: @unchecked Sendable {
    let pid: pid_t
    let logPath: String
    private(set) var exitStatus: Int32?

    /// `fd3`: a descriptor to pass as fd 3 (socket activation).
    init(_ path: String, _ arguments: [String], environment: [String: String] = [:], logPath: String, fd3: Int32? = nil) throws {
        self.logPath = logPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let fd3 { posix_spawn_file_actions_adddup2(&actions, fd3, 3) }
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"] { env[key] = nil }
        for (k, v) in environment { env[k] = v }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw HarnessError("posix_spawn \(path): \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func signal(_ s: Int32) { kill(pid, s) }

    /// Waits for the exit status (generous limit, only so that a bug cannot hang the tests).
    @discardableResult
    func wait(timeout: Double = 15) throws -> Int32 {
        if let exitStatus { return exitStatus }
        let end = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        // At least one look, so that `wait(timeout: 0)` tells an exited process from a running one.
        repeat {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                // WIFEXITED / WEXITSTATUS by hand (macros).
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                exitStatus = code
                return code
            }
            usleep(5_000)
        } while Date() < end
        throw HarnessError("process \(pid) did not exit within \(timeout) s")
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// A blocking client of the control socket with generous receive timeouts.
final class Client: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String, timeout: Double = 15) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = Client.address(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            // No close here: the object is fully initialised, so deinit closes fd. Closing it
            // twice could close a descriptor another test thread has just been given.
            let e = errno
            throw HarnessError("connect \(path): \(String(cString: strerror(e)))")
        }
    }

    static func address(_ path: String) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        return addr
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("send: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The next reply line (without `\n`), or nil at end of stream.
    func readLine() throws -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw HarnessError("recv: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Sends one request and returns its reply.
    func request(_ line: String) throws -> String {
        try send(line + "\n")
        guard let reply = try readLine() else { throw HarnessError("connection closed before the reply to '\(line)'") }
        return reply
    }
}

/// A running loaderd with a socket and an image display in a temporary directory.
final class DaemonProcess: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let imagePath: String
    let process: Spawned

    /// `binary`: another loaderd than the one under test (a copy, for the tests of its helper).
    init(arguments: [String] = [], image: String = "frame.ppm", size: String = "32x8",
         environment: [String: String] = [:], waitForSocket: Bool = true, binary: String = Paths.loaderd) throws {
        directory = try Paths.temporaryDirectory()
        socketPath = directory + "/loaderd.sock"
        imagePath = directory + "/" + image
        process = try Spawned(binary,
                              ["--socket", socketPath, "--display", "image:path=\(imagePath),size=\(size)"] + arguments,
                              environment: environment, logPath: directory + "/loaderd.log")
        if waitForSocket { try self.waitForSocket() }
    }

    func waitForSocket(timeout: Double = 15) throws {
        try waitUntilListening(socketPath, process, timeout: timeout)
    }

    func client() throws -> Client { try Client(path: socketPath) }

    /// SIGTERM and the exit status.
    func terminate() throws -> Int32 {
        process.signal(SIGTERM)
        return try process.wait()
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

/// Waits until the daemon `process` answers `ping` on `socketPath`; throws with its log if it exits
/// first or does not answer in time.
func waitUntilListening(_ socketPath: String, _ process: Spawned, timeout: Double = 15) throws {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if let client = try? Client(path: socketPath), (try? client.request("ping")) == "OK pong" { return }
        if let status = try? process.wait(timeout: 0) {
            throw HarnessError("loaderd exited with \(status) before listening:\n\(process.log)")
        }
        usleep(5_000)
    }
    throw HarnessError("loaderd did not listen within \(timeout) s:\n\(process.log)")
}

/// Polls `condition` until it holds (a generous limit only guards against hangs).
func eventually(timeout: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

/// A number field of the status JSON.
func statusField(_ json: String, _ key: String) -> Int? {
    guard let data = json.dropFirst(3).data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return (object[key] as? NSNumber)?.intValue
}
