import Foundation
import Testing

/// SO_PEERCRED: a peer that is neither root, the daemon's user, nor in the socket's group is denied.
@Suite struct AccessTests {
    /// Connects from a thread whose own credentials (Linux credentials are per thread; the raw
    /// syscalls skip glibc's process-wide broadcast) are uid/gid 65534 with no groups.
    static func connectAsNobody(_ path: String) -> String? {
        let result = ResultBox()
        let thread = Thread {
            guard becomeNobodyOnThisThread() else {
                result.set("could not drop credentials: \(errno)")
                return
            }
            guard let c = try? Client(path: path) else { result.set("connect failed"); return }
            result.set((try? c.readLine()).flatMap { $0 } ?? "closed without a reply")
            // The thread ends here; its credentials end with it.
        }
        thread.start()
        return result.wait()
    }

    @Test func aStrangerIsDenied() throws {
        guard geteuid() == 0 else { return }  // needs root to become someone else
        let daemon = try DaemonProcess()
        // Open the file to everyone, so that the kernel lets the stranger connect and the daemon's
        // own check is what is tested.
        chmod(daemon.socketPath, 0o666)
        let reply = Self.connectAsNobody(daemon.socketPath)
        #expect(reply?.hasPrefix("ERR denied ") == true, "\(reply ?? "nil")")
        #expect(try daemon.client().request("ping") == "OK pong")
        #expect(daemon.process.log.contains("denied a client: uid 65534"))
        _ = try daemon.terminate()
    }

    @Test func aMemberOfTheSocketGroupIsAllowed() throws {
        guard geteuid() == 0 else { return }
        let daemon = try DaemonProcess(arguments: ["--socket-group", "65534"])
        var st = stat()
        #expect(lstat(daemon.socketPath, &st) == 0)
        #expect(st.st_gid == 65534)
        chmod(daemon.socketPath, 0o666)
        let reply = Self.connectAsNobodyAndPing(daemon.socketPath)
        #expect(reply == "OK pong")
        _ = try daemon.terminate()
    }

    static func connectAsNobodyAndPing(_ path: String) -> String? {
        let result = ResultBox()
        let thread = Thread {
            guard becomeNobodyOnThisThread() else {
                result.set("could not drop credentials"); return
            }
            guard let c = try? Client(path: path) else { result.set("connect failed"); return }
            result.set(try? c.request("ping"))
        }
        thread.start()
        return result.wait()
    }
}

/// `syscall(2)` with three integer arguments (Swift cannot call the variadic C function; the
/// glibc entry is assembly that reads its arguments from the integer registers either way).
nonisolated(unsafe) let rawSyscall: @convention(c) (Int, Int, Int, Int) -> Int = {
    let symbol = dlsym(nil, "syscall")  // RTLD_DEFAULT
    return unsafeBitCast(symbol!, to: (@convention(c) (Int, Int, Int, Int) -> Int).self)
}()

#if arch(x86_64)
let SYS_setgroups = 116, SYS_setresuid = 117, SYS_setresgid = 119
#elseif arch(arm64)
let SYS_setgroups = 159, SYS_setresuid = 147, SYS_setresgid = 149
#endif

/// Drops this thread's credentials only (no glibc broadcast to the other threads).
func becomeNobodyOnThisThread() -> Bool {
    rawSyscall(SYS_setgroups, 0, 0, 0) == 0 && rawSyscall(SYS_setresgid, -1, 65534, -1) == 0
        && rawSyscall(SYS_setresuid, -1, 65534, -1) == 0
}

final class ResultBox: @unchecked Sendable {
    private var value: String?
    private let done = DispatchSemaphore(value: 0)
    func set(_ v: String?) { value = v; done.signal() }
    func wait() -> String? { _ = done.wait(timeout: .now() + 20); return value }
}
