import Foundation
import ImageCodecs
import Testing
@testable import LoaderDaemon

/// A recorded boot replayed twice against the real loaderd, as PID 1 sends it: 60 units over
/// about 3 s, one connection per `U` message. The first boot (no timeline) is monotonic and ends
/// at 100; the second maps every unit to its share of the first (its closeness to the clock is
/// printed).
@Suite(.enabled(if: BootTestEnvironment.canIsolate, "needs root and unshare -n"))
struct BootReplayTests {
    static let units: [String] = (0..<60).map { i in
        ["systemd-", "dev-", "sys-kernel-", "network-", "user-"][i % 5] + "unit\(i)" + [".service", ".mount", ".swap"][i % 3]
    }
    /// Scaled boot: unit i becomes active at i · 50 ms (with a little unevenness), quit at 3.1 s.
    static func offset(_ i: Int) -> Double { Double(i) * 0.05 + (i % 7 == 0 ? 0.01 : 0) }
    static let quitAt = 3.1

    struct Sample { let seconds: Double; let progress: Double? }

    /// One boot: the samples (progress after each unit, and its time since loaderd was spawned —
    /// the timeline's origin is loaderd's start, as at boot).
    func boot(directory: String) throws -> [Sample] {
        let spawned = Date()
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"], directory: directory)
        let start = Date()
        var samples: [Sample] = []
        for (i, unit) in Self.units.enumerated() {
            let due = start.addingTimeInterval(Self.offset(i))
            let wait = due.timeIntervalSinceNow
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            // PID 1's way: connect, write, close. Here the test also waits for the ACK after
            // shutting down its side, so that the sample below sees this unit.
            let c = try daemon.connect()
            try c.send(RawPlymouthClient.frame("U", unit))
            c.shutdownWriting()
            _ = try c.receive(1)
            samples.append(Sample(seconds: Date().timeIntervalSince(spawned), progress: try daemon.progress()))
        }
        let quit = start.addingTimeInterval(Self.quitAt).timeIntervalSinceNow
        if quit > 0 { usleep(useconds_t(quit * 1_000_000)) }
        let c = try daemon.connect()
        try c.send(RawPlymouthClient.frame("Q", "\u{1}"))  // retain: the last frame shows the end
        #expect(try c.receive(1) == [0x06])
        #expect(try daemon.process.wait() == 0)
        samples.append(Sample(seconds: Date().timeIntervalSince(spawned), progress: nil))
        return samples
    }

    @Test func secondBootFollowsTheFirstBootsTimeline() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let timeline = dir + "/state/boot-timeline"

        // Boot 1: no history. Monotonic, every unit moves it, below 90; quit shows 100.
        let first = try boot(directory: dir)
        let p1 = first.dropLast().map { $0.progress ?? -1 }
        #expect(zip(p1, p1.dropFirst()).allSatisfy { $0 < $1 }, "first boot: \(p1)")
        #expect(p1.last! < 90)
        let full = try PlymouthFrontEndTests().bar(progress: 100)
        #expect(try ImageFile.read(path: dir + "/frame.ppm") == full)
        let saved = try #require(try BootTimeline.load(path: timeline).get())
        #expect(saved.units.map(\.name) == Self.units)

        // Boot 2: every unit maps to its share of boot 1, as boot 1's saved timeline gives it
        // (exact: the estimate depends on the recorded times, not on when this boot runs).
        let expected: [Double] = {
            var highest = 0
            return saved.units.map { unit in
                let share = Int(min(100_000, unit.at * 100_000 / saved.total))
                highest = max(highest, min(share, BootProgressEstimator.ceiling))
                return Double(highest) / 1000
            }
        }()
        try FileManager.default.removeItem(atPath: dir + "/frame.ppm")
        let second = try boot(directory: dir)
        let total = second.last!.seconds
        let p2 = second.dropLast().map { $0.progress ?? -1 }
        #expect(p2.count == expected.count && zip(p2, expected).allSatisfy { abs($0 - $1) < 0.0005 },
                "second boot: \(p2), expected \(expected)")
        // How closely that follows this boot's clock depends on the machine's load: reported, not
        // asserted (a stall of a few hundred milliseconds on a shared machine moves it).
        let deviations = second.dropLast().map { abs(($0.progress ?? -100) - 100 * $0.seconds / total) }
        let worst = deviations.max() ?? 100
        print("boot replay: first boot ends at \(p1.last!) before quit; second boot max deviation from linear \(String(format: "%.2f", worst)) points over \(second.count - 1) units in \(String(format: "%.2f", total)) s")
        #expect(expected.last! > 90 && expected.first! < 10, "boot 1's timeline spans the boot: \(expected)")
        #expect(try ImageFile.read(path: dir + "/frame.ppm") == full)
        // Boot 2 wrote its own timeline.
        let again = try #require(try BootTimeline.load(path: timeline).get())
        #expect(again.units.map(\.name) == Self.units && again.total >= 3_000_000)
    }

    @Test func aCorruptTimelineIsLoggedAndIgnored() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/state", withIntermediateDirectories: true)
        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: dir + "/state/boot-timeline"))
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"], directory: dir)
        #expect(daemon.process.log.contains("ignoring the boot timeline \(dir)/state/boot-timeline: line 1: expected 'loaderd-boot-timeline 1'"))
        let c = try daemon.connect()
        try c.send(RawPlymouthClient.frame("U", "a.service"))
        #expect(try c.receive(1) == [0x06])
        #expect(try daemon.progress() == 1.764)
        try c.send(RawPlymouthClient.frame("Q", ""))
        #expect(try c.receive(1) == [0x06])
        #expect(try daemon.process.wait() == 0)
        #expect(try BootTimeline.load(path: dir + "/state/boot-timeline").get()?.units.map(\.name) == ["a.service"])
    }
}
