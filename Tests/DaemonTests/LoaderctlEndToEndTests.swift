import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `loaderctl` against the real `loaderd`: what a boot script sees, exit codes included.
@Suite struct LoaderctlEndToEndTests {
    struct Run { let status: Int32; let output: String }

    func loaderctl(_ arguments: [String], socket: String, in dir: String) throws -> Run {
        let log = dir + "/ctl-\(UUID().uuidString.prefix(6)).out"
        let p = try Spawned(Paths.products + "/loaderctl", arguments + ["--socket", socket], logPath: log)
        let status = try p.wait()
        return Run(status: status, output: p.log)
    }

    @Test func aBootDrivenByLoaderctl() throws {
        let daemon = try DaemonProcess(size: "64x16")
        let sock = daemon.socketPath, dir = daemon.directory
        #expect(try loaderctl(["ping"], socket: sock, in: dir).output.contains("pong"))
        #expect(try loaderctl(["start", "pagedots"], socket: sock, in: dir).status == 0)
        #expect(try loaderctl(["progress", "40"], socket: sock, in: dir).status == 0)
        #expect(try loaderctl(["progress", "30"], socket: sock, in: dir).status == 0, "kept at 40, not an error")
        #expect(try loaderctl(["message", "Starting", "network"], socket: sock, in: dir).status == 0)
        let status = try loaderctl(["status", "--json"], socket: sock, in: dir)
        #expect(status.status == 0)
        #expect(status.output.contains("\"loader\":\"pagedots\""))
        #expect(status.output.contains("\"progress\":40.0"))
        #expect(status.output.contains("\"message\":\"Starting network\""))
        // A bad parameter is caught before anything is sent: exit 2.
        #expect(try loaderctl(["start", "pagedots", "count=99"], socket: sock, in: dir).status == 2)
        // Frames were written to the image display.
        #expect(eventually { FileManager.default.fileExists(atPath: daemon.imagePath) })
        #expect(try loaderctl(["stop", "now"], socket: sock, in: dir).status == 0)
        #expect(try daemon.terminate() == 0)
        // Nobody listening any more: exit 3, naming the socket.
        let unreachable = try loaderctl(["ping"], socket: sock, in: dir)
        #expect(unreachable.status == 3)
        #expect(unreachable.output.contains(sock))
    }

    /// A daemon with no room for another client for the whole --timeout never took the request:
    /// exit 3 (not reached in time), with the daemon's reason; it was 1, as a refusal.
    @Test func aDaemonBusyForTheWholeTimeoutExitsThreeWithItsReason() throws {
        let daemon = try DaemonProcess(arguments: ["--max-clients", "1"])
        // The start-up check's own connection may still be closing: retry until ours is the one served.
        var holder: Client? = nil
        #expect(eventually {
            let c = try? daemon.client()
            if (try? c?.request("ping")) == "OK pong" { holder = c; return true }
            return false
        })
        #expect(holder != nil)
        let refused = try loaderctl(["ping", "--timeout", "0.3"], socket: daemon.socketPath, in: daemon.directory)
        #expect(refused.status == 3)
        #expect(refused.output.contains("was busy for the whole --timeout") && refused.output.contains("too many clients"), "\(refused.output)")
        // A busy daemon is asked again until --timeout: once the other client leaves, the call
        // goes through (a boot script's progress must not fail for a moment's crowd).
        let waiting = try Spawned(Paths.products + "/loaderctl", ["progress", "40", "--socket", daemon.socketPath], logPath: daemon.directory + "/wait.out")
        usleep(300_000)
        holder = nil
        #expect(try waiting.wait() == 0, "\(waiting.log)")
        #expect(waiting.log.contains("progress 40"), "\(waiting.log)")
        #expect(try daemon.terminate() == 0)
    }
}
