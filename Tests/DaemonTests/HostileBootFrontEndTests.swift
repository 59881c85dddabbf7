import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Plymouth and psplash front ends against local users and a hostile file system: other
/// users' connections must never cost root's, another user's FIFO is not trusted, FIFOs at the
/// timeline's paths block nothing, and a log nobody reads stalls nothing.
@Suite(.enabled(if: BootTestEnvironment.canIsolate, "needs root and unshare -n (Plymouth's abstract sockets, other uids)"))
struct HostileBootFrontEndTests {
    /// `count` connections to the Plymouth socket as uid 65534, from a thread that joined the
    /// daemon's network namespace and dropped its own credentials (per thread on Linux).
    static func connectAsNobody(_ daemon: IsolatedDaemon, count: Int) -> [Int32] {
        final class Box: @unchecked Sendable { var fds: [Int32] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let ns = open("/proc/\(daemon.process.pid)/ns/net", O_RDONLY | O_CLOEXEC)
            guard ns >= 0, RawPlymouthClient.setns(ns, 0x4000_0000) == 0, becomeNobodyOnThisThread() else { return }
            close(ns)
            for _ in 0..<count {
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                var addr = sockaddr_un()
                addr.sun_family = sa_family_t(AF_UNIX)
                let name = "/org/freedesktop/plymouthd"
                withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in name.utf8.enumerated() { raw[i + 1] = b } }
                let rc = withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(2 + 1 + name.utf8.count)) }
                }
                if rc == 0 { box.fds.append(fd) } else { close(fd) }
            }
        }
        thread.start()
        done.wait()
        return box.fds
    }

    /// 80 unprivileged connections made root's `plymouth --wait` return, and a connect storm lost
    /// 272 of 300 unit messages from PID 1. Now: root's open connection still answers, and every
    /// message root sends during and after the storm is acknowledged.
    @Test func unprivilegedConnectionsNeverCostRootItsConnectionOrMessages() throws {
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar", "--max-clients", "64"])
        let root = try daemon.connect()
        try root.send(RawPlymouthClient.frame("P"))
        #expect(try root.receive(1) == [0x06])
        var strangers: [Int32] = []
        defer { strangers.forEach { close($0) } }
        var acknowledged = 0
        for round in 0..<4 {
            strangers += Self.connectAsNobody(daemon, count: 40)
            for n in 0..<25 {
                let pid1 = try daemon.connect()
                try pid1.send(RawPlymouthClient.frame("U", "unit-\(round)-\(n).service"))
                if try pid1.receive(1) == [0x06] { acknowledged += 1 }
            }
        }
        #expect(strangers.count == 160)
        #expect(acknowledged == 100, "root's messages were lost")
        try root.send(RawPlymouthClient.frame("P"))
        #expect(try root.receive(1) == [0x06], "root's long-lived connection was dropped")
        #expect(try daemon.terminate() == 0)
    }

    /// Out of descriptors with Plymouth connections pending: accept(2) on the Plymouth listener
    /// fails with EMFILE, and the loop must back off rather than retry at once (it used to spin at
    /// 80-91 % CPU, 57,000 failed accepts in 3 s). loaderd's client cap is worked out from its
    /// open-file limit at start, so a low limit from the start stops accepting before EMFILE; the
    /// soft limit is lowered under the running daemon instead (prlimit(1)), to exactly the descriptors
    /// it has open, so the next accepted connection is one too many.
    @Test func plymouthAcceptBacksOffWhenOutOfDescriptors() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        // No loader: nothing is drawn, so no frame needs a descriptor while the limit is low.
        let p = try Spawned("/usr/bin/unshare", ["-n", Paths.loaderd, "--socket", sock, "--display", "image:path=\(dir)/f.ppm,size=8x8",
                                                 "--plymouth", "--boot-timeline", dir + "/timeline"], logPath: dir + "/log")
        try waitUntilListening(sock, p)
        usleep(200_000)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(p.pid)/fd").count
        #expect(try Spawned("/usr/bin/prlimit", ["--pid", "\(p.pid)", "--nofile=\(open):"], logPath: dir + "/prlimit").wait() == 0)
        var held: [RawPlymouthClient] = []
        for _ in 0..<20 { if let c = try? RawPlymouthClient(namespacePID: p.pid, name: "/org/freedesktop/plymouthd", trimmed: true) { held.append(c) } }
        #expect(held.count == 20, "the kernel queues connections in the backlog whatever the daemon's limit")
        usleep(500_000)
        let before = PsplashFrontEndTests.cpuTicks(p.pid)
        usleep(1_000_000)
        let used = PsplashFrontEndTests.cpuTicks(p.pid) - before
        #expect(used < 30, "\(used) ticks of CPU in a second while the backlog waits: the loop spins")
        let lines = p.log.components(separatedBy: "accept: Too many open files").count - 1
        #expect(lines >= 1, "EMFILE was never met on the Plymouth listener (limit \(open)): \(p.log)")
        #expect(lines <= 2, "logged per retry: \(lines) lines")
        // Descriptors again: the waiting connections are taken, and the control socket answers.
        #expect(try Spawned("/usr/bin/prlimit", ["--pid", "\(p.pid)", "--nofile=1024:"], logPath: dir + "/prlimit").wait() == 0)
        held.removeAll()
        #expect(eventually { (try? Client(path: sock).request("ping")) == "OK pong" })
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }

    /// The daemon's standard error is a pipe nobody reads, and hundreds of Plymouth messages each
    /// log a line: logging drops lines instead of blocking, so commands are still answered.
    @Test func aLogNobodyReadsNeverStallsTheLoop() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sock = dir + "/s.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-n", Paths.loaderd, "--socket", sock, "--display", "image:path=\(dir)/f.ppm,size=8x8",
                             "--plymouth", "--boot-timeline", dir + "/timeline", "--log-level", "trace", "--loader", "bar"]
        let unread = Pipe()
        process.standardError = unread
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // SIGKILL: a daemon stuck in write(2) to its log could not handle SIGTERM.
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        #expect(eventually { (try? Client(path: sock).request("ping")) == "OK pong" })
        var acknowledged = 0
        for n in 0..<400 {  // ~100 bytes of log each: well past a 64 KiB pipe
            let c = try RawPlymouthClient(namespacePID: process.processIdentifier, name: "/org/freedesktop/plymouthd", trimmed: true)
            try c.send(RawPlymouthClient.frame("U", "a-rather-long-unit-name-to-fill-the-log-\(n).service"))
            if try c.receive(1) == [0x06] { acknowledged += 1 }
        }
        #expect(acknowledged == 400)
        for _ in 0..<5 { #expect(try Client(path: sock, timeout: 3).request("ping") == "OK pong") }
        _ = unread
    }

    /// A FIFO at the timeline's path and at its temporary path: start-up and quit go on (it used to
    /// block forever in open(2), where SIGTERM could not end it).
    @Test func fifosAtTheTimelinePathsBlockNeitherStartNorQuit() throws {
        let dir = try Paths.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/state", withIntermediateDirectories: true)
        #expect(mkfifo(dir + "/state/boot-timeline", 0o600) == 0)
        #expect(mkfifo(dir + "/state/boot-timeline.tmp", 0o600) == 0)
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"], directory: dir)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(daemon.process.log.contains("ignoring the boot timeline"), "\(daemon.process.log)")
        let c = try daemon.connect()
        try c.send(RawPlymouthClient.frame("U", "a.service") + RawPlymouthClient.frame("Q", "\0"))
        #expect(try daemon.process.wait() == 0, "\(daemon.process.log)")
        #expect(daemon.process.log.contains("boot timeline not saved") && daemon.process.log.contains("FIFO"), "\(daemon.process.log)")
    }

    /// A psplash FIFO made in advance by another user (to feed the splash, or to read what boot
    /// scripts send), or one anybody may write: removed and made afresh, ours and 0660.
    @Test(arguments: [(65534 as uid_t, 0o660 as mode_t), (0 as uid_t, 0o666 as mode_t)])
    func aPsplashFIFOThatIsNotOursIsMadeAfresh(owner: uid_t, mode: mode_t) throws {
        let fifoDir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fifoDir) }
        let fifo = fifoDir + "/psplash_fifo"
        #expect(mkfifo(fifo, 0o600) == 0 && chown(fifo, owner, owner) == 0 && chmod(fifo, mode) == 0)
        let daemon = try DaemonProcess(arguments: ["--psplash-fifo=\(fifoDir)"])
        var after = stat()
        #expect(lstat(fifo, &after) == 0)
        #expect(after.st_uid == 0 && (after.st_mode & 0o777) == 0o660, "the other user's FIFO was reused")
        #expect(PsplashFrontEndTests.psplashWrite(fifo, "PROGRESS 30"))
        #expect(eventually { (try? daemon.client().request("status"))?.contains("\"progress\":30.0") == true })
        #expect(try daemon.terminate() == 0)
    }
}
