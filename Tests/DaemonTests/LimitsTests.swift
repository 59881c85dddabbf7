import Foundation
import Testing

/// The limits that must hold under abuse (docs/PROTOCOL.md, "Limits that hold under abuse").
@Suite struct LimitsTests {
    @Test func clientsOverTheLimitGetBusyAndAreClosed() throws {
        let daemon = try DaemonProcess(arguments: ["--max-clients", "3"])
        let a = try daemon.client()
        // The harness's own first connection must be gone before the slots are counted.
        #expect(try eventually { statusField(try a.request("status"), "clients") == 1 })
        let b = try daemon.client(), c = try daemon.client()
        for x in [a, b, c] { #expect(try x.request("ping") == "OK pong") }
        let d = try daemon.client()
        let line = try d.readLine()
        #expect(line?.hasPrefix("ERR busy ") == true)
        #expect(try d.readLine() == nil)
        // The others are unaffected; a freed slot is usable again.
        #expect(try a.request("ping") == "OK pong")
        _ = c  // keep c alive until here
        shutdown(b.fd, Int32(SHUT_RDWR))
        #expect(eventually {
            guard let e = try? daemon.client() else { return false }
            return (try? e.request("ping")) == "OK pong"
        })
        _ = try daemon.terminate()
    }

    @Test func idleClientsAreClosed() throws {
        let daemon = try DaemonProcess(arguments: ["--idle-timeout", "0.3"])
        let c = try daemon.client()
        #expect(try c.request("ping") == "OK pong")
        #expect(try c.readLine() == nil)  // closed by the daemon after 0.3 s of silence
        _ = try daemon.terminate()
    }

    @Test func aClientThatNeverReadsIsDroppedWhileOthersAreServed() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "linkedin"])
        let hog = try daemon.client()
        let other = try daemon.client()
        // Send status requests without ever reading the replies, until the daemon hangs up.
        let request = Array(String(repeating: "status\n", count: 100).utf8)
        var dropped = false
        let end = Date().addingTimeInterval(20)
        var rounds = 0
        while Date() < end {
            let n = request.withUnsafeBytes { send(hog.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && (errno == EPIPE || errno == ECONNRESET) { dropped = true; break }
            rounds += 1
            if rounds % 20 == 0 { #expect(try other.request("ping") == "OK pong") }
        }
        #expect(dropped)
        #expect(try other.request("ping") == "OK pong")
        #expect(daemon.process.log.contains("dropped a client"))
        _ = try daemon.terminate()
    }

    /// 50 clients × 200 commands at once: every reply right, and frames keep coming.
    @Test func fiftyConcurrentClients() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "linkedin"], size: "64x16")
        let clients = 50, commands = 200
        let failures = Failures()
        let latencies = Latencies()
        let group = DispatchGroup()
        let startFrames = try statusField(daemon.client().request("status"), "frames_drawn") ?? 0
        // A watcher that counts how often the image file changes while the clients run.
        let watcher = ImageWatcher(path: daemon.imagePath)
        watcher.start()
        for k in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let c = try daemon.client()
                    var samples: [UInt64] = []
                    samples.reserveCapacity(commands)
                    for i in 0..<commands {
                        let (request, expected): (String, String)
                        switch (i + k) % 6 {
                        case 0: (request, expected) = ("ping", "OK pong")
                        case 1: (request, expected) = ("progress \(i % 100) force", "OK progress \(i % 100)")
                        case 2: (request, expected) = ("message client \(k) says \(i)", "OK")
                        case 3: (request, expected) = ("status", "OK {\"loader\":\"linkedin\"")
                        case 4: (request, expected) = ("list", "OK linkedin pagedots quizup shimmer worm skeleton bar")
                        default: (request, expected) = ("nonsense \(i)", "ERR unknown-command ")
                        }
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        let reply = try c.request(request)
                        samples.append(DispatchTime.now().uptimeNanoseconds - t0)
                        if !reply.hasPrefix(expected) { failures.add("client \(k) #\(i) \(request) → \(reply)") }
                    }
                    latencies.add(samples)
                } catch {
                    failures.add("client \(k): \(error)")
                }
            }
        }
        #expect(group.wait(timeout: .now() + 50) == .success)
        watcher.stop()
        #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")
        let endFrames = try statusField(daemon.client().request("status"), "frames_drawn") ?? 0
        #expect(endFrames > startFrames)
        #expect(watcher.changes >= 2, "the image file kept changing during the load")
        let sorted = latencies.all.sorted()
        if !sorted.isEmpty {
            let p50 = Double(sorted[sorted.count / 2]) / 1000, p99 = Double(sorted[sorted.count * 99 / 100]) / 1000
            print("round trip under \(clients) clients: p50 \(p50) µs, p99 \(p99) µs, n=\(sorted.count); frames drawn \(endFrames - startFrames), image changes seen \(watcher.changes)")
        }
        _ = try daemon.terminate()
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

final class Latencies: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [UInt64] = []
    func add(_ s: [UInt64]) { lock.lock(); items += s; lock.unlock() }
    var all: [UInt64] { lock.lock(); defer { lock.unlock() }; return items }
}

/// Reads the image file in a loop and counts distinct consecutive contents.
final class ImageWatcher: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var running = true
    private var count = 0
    private let done = DispatchSemaphore(value: 0)
    init(path: String) { self.path = path }
    func start() {
        Thread.detachNewThread {
            var last: Data? = nil
            while true {
                self.lock.lock(); let go = self.running; self.lock.unlock()
                if !go { break }
                if let data = FileManager.default.contents(atPath: self.path), data != last {
                    last = data
                    self.lock.lock(); self.count += 1; self.lock.unlock()
                }
                usleep(20_000)
            }
            self.done.signal()
        }
    }
    func stop() { lock.lock(); running = false; lock.unlock(); done.wait() }
    var changes: Int { lock.lock(); defer { lock.unlock() }; return count }
}
