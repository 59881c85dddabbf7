import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a process started in the first seconds of a boot must not do: wait for the kernel's random
/// number generator. Until it is seeded ("random: crng init done", 1.5-2 s after the splash started
/// in the test boots under emulation), getrandom(2) without GRND_NONBLOCK or GRND_INSECURE blocks,
/// and so does glibc's arc4random_buf, which the Embedded standard library calls for Hasher's seed.
/// The shipped binaries bring their own (Sources/CLinux/embedded/random.c). Here they run under a
/// seccomp filter that kills the process at the first getrandom that could block: seeded or not,
/// this machine then shows what a board at boot would have waited for.
///
/// The shipped Embedded build only ($LOADERD_BINARIES, as scripts/test sets it): SwiftPM's ordinary
/// build links the full Swift runtime, whose random source blocks, and is not what boots.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["LOADERD_BINARIES"].map { !$0.isEmpty } ?? false,
                "the shipped binaries only (LOADERD_BINARIES, set by scripts/test)"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3 for the seccomp filter"))
struct EarlyBootTests {
    /// Installs the filter (x86_64's getrandom, 318: SECCOMP_RET_KILL_PROCESS unless flags has
    /// GRND_NONBLOCK (1) or GRND_INSECURE (4)) and execs argv[1:]; the pid stays the same.
    static let launcher = """
        import ctypes, os, struct, sys
        libc = ctypes.CDLL(None, use_errno=True)
        def op(code, k, jt=0, jf=0): return struct.pack("HBBI", code, jt, jf, k)
        LD_W_ABS, JEQ, JSET, RET = 0x20, 0x15, 0x45, 0x06
        program = b"".join([
            op(LD_W_ABS, 4), op(JEQ, 0xC000003E, 0, 5),     # arch: x86_64, else allow
            op(LD_W_ABS, 0), op(JEQ, 318, 0, 3),            # nr: getrandom, else allow
            op(LD_W_ABS, 32), op(JSET, 0x1 | 0x4, 1, 0),    # flags (low word): non-blocking: allow
            op(RET, 0x80000000),                            # SECCOMP_RET_KILL_PROCESS
            op(RET, 0x7FFF0000)])                           # SECCOMP_RET_ALLOW
        code = ctypes.create_string_buffer(program, len(program))
        class Program(ctypes.Structure): _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
        filter = Program(len(program) // 8, ctypes.cast(code, ctypes.c_void_p))
        if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(filter), 0, 0) != 0:
            sys.exit("seccomp: " + os.strerror(ctypes.get_errno()))
        os.execv(sys.argv[1], sys.argv[1:])
        """

    func underFilter(_ program: String, _ arguments: [String], in dir: String, log: String) throws -> Spawned {
        try Spawned("/usr/bin/python3", ["-c", EarlyBootTests.launcher, program] + arguments, logPath: dir + "/" + log)
    }

    @Test func theShippedDaemonAndClientNeverWaitForTheKernelsRandomNumbers() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socket = dir + "/loaderd.sock", image = dir + "/frame.ppm"
        // Dictionaries, Sets and the hash seed are all on the way to the first frame and the socket.
        let daemon = try underFilter(Paths.loaderd, ["--socket", socket, "--display", "image:path=\(image),size=64x32",
                                                     "--loader", "linkedin", "--message", "Starting"], in: dir, log: "loaderd.log")
        defer { if (try? daemon.wait(timeout: 0)) == nil { daemon.signal(SIGKILL); _ = try? daemon.wait() } }
        try waitUntilListening(socket, daemon)
        #expect(FileManager.default.fileExists(atPath: image), "a first frame")
        for arguments in [["progress", "40"], ["message", "Mounting", "disks"], ["status"], ["stop", "success"]] {
            let client = try underFilter(Paths.products + "/loaderctl", arguments + ["--socket", socket], in: dir, log: "loaderctl.log")
            #expect(try client.wait() == 0, "loaderctl \(arguments.joined(separator: " ")) (128 + 31: killed at a blocking getrandom): \(client.log)")
        }
        // Still serving (159, 128 + SIGSYS, had it asked for blocking randomness on the way), and
        // SIGTERM ends it as usual.
        #expect((try? daemon.wait(timeout: 0.3)) == nil, "\(daemon.log)")
        daemon.signal(SIGTERM)
        #expect(try daemon.wait() == 0, "\(daemon.log)")
    }
}
