import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing
@testable import LoaderDaemon

/// The Plymouth front end against Debian's real `plymouth` client and against the raw bytes
/// systemd's PID 1 sends, each daemon in a network namespace of its own.
@Suite(.enabled(if: BootTestEnvironment.canIsolate, "needs root and unshare -n (abstract sockets are per network namespace)"))
struct PlymouthFrontEndTests {
    init() {
        if !BootTestEnvironment.hasPlymouthClient {
            Issue.record("the plymouth client is not installed: scripts/install-build-deps installs it (apt-get install plymouth)")
        }
    }

    static let ack: [UInt8] = [0x06], nak: [UInt8] = [0x15], noAnswer: [UInt8] = [0x05]

    func bar(progress percent: Int, _ assignments: [(key: String, value: String)] = [], width: Int = 32, height: Int = 8) throws -> RGBImage {
        var scene = Scene(loader: try Catalog.make("bar", assignments: assignments), width: width, height: height)
        scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed.ratio(Int64(percent), 100))))
        return RGBImage(canvas: scene.canvas, background: .black)
    }

    @Test func pingExitsZeroWhenAnsweredAndOneWhenNothingListens() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let alone = try Spawned("/usr/bin/unshare", ["-n", BootTestEnvironment.plymouth, "--ping"], logPath: "/dev/null")
        #expect(try alone.wait() == 1)
        let daemon = try IsolatedDaemon()
        #expect(try daemon.plymouth("--ping") == 0)
        #expect(try daemon.plymouth("--sysinit") == 0)
        #expect(try daemon.plymouth("--newroot=/sysroot") == 0)
        #expect(try daemon.plymouth("report-error") == 0)
        // Only a framebuffer counts as a VT display: an image display has none.
        #expect(try daemon.plymouth("--has-active-vt") == 1)
        #expect(try daemon.terminate() == 0)
    }

    @Test func realClientDrivesProgressMessagesAndSplash() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"])
        #expect(try daemon.progress() == nil)
        // First boot (no timeline): each unit moves the estimate, 90·n/(n+50).
        #expect(try daemon.plymouth("update", "--status=systemd-udevd.service") == 0)
        #expect(try daemon.progress() == 1.764)
        #expect(try daemon.plymouth("update", "--status=systemd-journald.service") == 0)
        #expect(try daemon.progress() == 3.461)
        // The same unit again does not count twice.
        #expect(try daemon.plymouth("update", "--status=systemd-journald.service") == 0)
        #expect(try daemon.progress() == 3.461)

        #expect(try daemon.plymouth("display-message", "--text=Checking disks") == 0)
        #expect(try daemon.message() == "Checking disks")
        #expect(try daemon.plymouth("hide-message", "--text=Something else") == 0)
        #expect(try daemon.message() == "Checking disks")
        #expect(try daemon.plymouth("hide-message", "--text=Checking disks") == 0)
        #expect(try daemon.message() == nil)

        // Paused: units are counted but the shown progress waits for unpause.
        #expect(try daemon.plymouth("pause-progress") == 0)
        #expect(try daemon.plymouth("update", "--status=a.mount") == 0)
        #expect(try daemon.progress() == 3.461)
        #expect(try daemon.plymouth("unpause-progress") == 0)
        #expect(try daemon.progress() == 5.094)

        #expect(try daemon.plymouth("hide-splash") == 0)
        #expect(try daemon.loader() == nil)
        #expect(try daemon.plymouth("update", "--status=b.mount") == 0)
        #expect(try daemon.loader() == nil)
        #expect(try daemon.plymouth("show-splash") == 0)
        #expect(try daemon.loader() == "bar")
        #expect(try daemon.progress() == 6.666)

        #expect(try daemon.plymouth("system-update", "--progress=42") == 0)
        #expect(try daemon.progress() == 42)

        // Questions get NO_ANSWER: the client gives up at once (exit 1, as with no daemon) and
        // the asker falls back to its console prompt.
        #expect(try daemon.plymouth("ask-for-password", "--prompt=Passphrase") == 1)
        #expect(try daemon.plymouth("ask-question", "--prompt=Continue?") == 1)

        #expect(try daemon.plymouth("quit") == 0)
        #expect(try daemon.process.wait() == 0)
        #expect(try ImageFile.read(path: daemon.imagePath).bytes.allSatisfy { $0 == 0 })
        let saved = try BootTimeline.load(path: daemon.timelinePath).get()
        #expect(saved?.units.map(\.name) == ["systemd-udevd.service", "systemd-journald.service", "a.mount", "b.mount"])
    }

    /// Hidden (a display manager, an emergency shell has the screen) is hidden until `show-splash`:
    /// a progress or a mode change waits for it, and a hide after another client brought a loader
    /// back blanks the screen again (it kept drawing: the second hide was taken as done).
    @Test func aHiddenSplashStaysHiddenUntilShown() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar", "--mode-loader", "shutdown=quizup"])
        #expect(try daemon.plymouth("hide-splash") == 0)
        #expect(try daemon.plymouth("system-update", "--progress=60") == 0)
        #expect(try daemon.loader() == nil, "a progress does not bring the splash back")
        #expect(try daemon.client().request("start worm") == "OK started worm", "loaderctl's explicit start does")
        #expect(try daemon.plymouth("hide-splash") == 0)
        #expect(try daemon.loader() == nil, "hidden again")
        #expect(try daemon.client().request("start worm") == "OK started worm")
        #expect(try daemon.plymouth("deactivate") == 0)
        #expect(try daemon.loader() == nil, "deactivate blanks, every time")
        #expect(try daemon.plymouth("change-mode", "--shutdown") == 0)
        #expect(try daemon.loader() == nil, "a mode change waits for show-splash")
        #expect(try daemon.plymouth("show-splash") == 0)
        #expect(try daemon.loader() == "quizup")
        #expect(try daemon.progress() == 60)
        // Shown while hidden by another client: show-splash keeps it.
        #expect(try daemon.plymouth("hide-splash") == 0)
        #expect(try daemon.client().request("start pagedots") == "OK started pagedots")
        #expect(try daemon.plymouth("show-splash") == 0)
        #expect(try daemon.loader() == "pagedots")
        daemon.process.signal(SIGTERM)
        #expect(try daemon.process.wait() == 0)
    }

    /// A script ends the splash early (`loaderctl stop`) and puts something else on screen: PID 1's
    /// unit messages and system-update's progress do not bring the bar back over it (they did,
    /// at the next unit started); a client's start or `show-splash` does.
    @Test func progressFromPID1DoesNotUndoAClientsStop() throws {
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"])
        func fire(_ bytes: [UInt8]) throws { try daemon.connect().send(bytes) }
        #expect(try daemon.client().request("stop") == "OK stopping")  // loaderctl stop: the exit, then nothing
        #expect(eventually { (try? daemon.loader()) == nil })
        for unit in ["systemd-journald.service", "dev-sda1.device.mount", "swap.swap"] {
            try fire(RawPlymouthClient.frame("U", unit))
        }
        try fire(RawPlymouthClient.frame("u", "60"))
        usleep(200_000)
        #expect(try daemon.loader() == nil, "the boot's progress restarted the bar after loaderctl stop")
        #expect(try daemon.client().request("start worm") == "OK started worm")
        try fire(RawPlymouthClient.frame("U", "late.service"))
        #expect(eventually { (try? daemon.progress()) ?? 0 > 0 }, "progress resumes once a client starts a loader")
        #expect(try daemon.loader() == "worm")
        #expect(try daemon.client().request("stop now") == "OK stopped")
        try fire(RawPlymouthClient.frame("$"))
        #expect(eventually { (try? daemon.loader()) == "bar" }, "show-splash brings the splash back")
        #expect(try daemon.terminate() == 0)
    }

    /// PID 1 sends each unit's message on a connection of its own and closes it without waiting.
    /// When more arrive than there is room for, the oldest are read before they are dropped:
    /// a burst of 150 lost the messages of the connections dropped unread.
    @Test func aBurstOfClientsThatCloseAtOnceLosesNoMessage() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"])
        daemon.process.signal(SIGSTOP)  // all of them wait in the backlog, as in a busy boot
        for n in 0..<100 {
            let c = try daemon.connect()
            try c.send(RawPlymouthClient.frame("U", "unit\(n).service"))
        }
        daemon.process.signal(SIGCONT)
        #expect(try daemon.plymouth("quit") == 0)
        #expect(try daemon.process.wait() == 0)
        let saved = try BootTimeline.load(path: daemon.timelinePath).get()
        #expect(saved?.units.count == 100, "\(saved?.units.count ?? 0) of 100 units: \(daemon.process.log)")
        #expect(!daemon.process.log.contains("dropping the oldest"), "only closed connections were dropped")
    }

    @Test func quitRetainSplashLeavesTheLastFrameAt100() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"])
        #expect(try daemon.plymouth("update", "--status=x.service") == 0)
        #expect(try daemon.plymouth("quit", "--retain-splash") == 0)
        #expect(try daemon.process.wait() == 0)
        #expect(try ImageFile.read(path: daemon.imagePath) == bar(progress: 100))
        #expect(daemon.process.log.contains("retaining the splash"))
    }

    @Test func nonRootPeersGetNAK() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar"])
        #expect(try daemon.plymouth("--ping", asUser: 65534) == 1)
        #expect(try daemon.plymouth("system-update", "--progress=50", asUser: 65534) == 1)
        #expect(try daemon.progress() == nil)
        #expect(try daemon.plymouth("quit", asUser: 65534) == 1)
        #expect(try daemon.plymouth("--ping") == 0)
        #expect(daemon.process.log.contains("refused requests from uid 65534"))
        #expect(try daemon.terminate() == 0)
    }

    @Test func changeModePicksTheConfiguredLoader() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar", "--mode-loader", "shutdown=worm", "--mode-loader", "reboot=quizup"])
        #expect(try daemon.plymouth("change-mode", "--shutdown") == 0)
        #expect(try daemon.loader() == "worm")
        #expect(try daemon.plymouth("change-mode", "--reboot") == 0)
        #expect(try daemon.loader() == "quizup")
        #expect(try daemon.plymouth("change-mode", "--updates") == 0)
        #expect(try daemon.loader() == "quizup")
        // Not boot-up: quit records no timeline.
        #expect(try daemon.plymouth("quit") == 0)
        #expect(try daemon.process.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.timelinePath))
    }

    // MARK: Raw bytes, as systemd sends them

    @Test func systemdFireAndForgetMessages() throws {
        let daemon = try IsolatedDaemon(arguments: ["--loader", "bar", "--boot-status-messages", "--mode-loader", "shutdown=worm"])
        // PID 1: one connection per message, non-blocking, closed right after writing, never read.
        func fire(_ bytes: [UInt8]) throws {
            let c = try daemon.connect()
            try c.send(bytes)
        }
        for unit in ["systemd-journald.service", "dev-sda1.device.mount", "swap.swap"] {
            try fire(RawPlymouthClient.frame("U", unit))
        }
        #expect(eventually { (try? daemon.message()) == "swap.swap" })
        #expect(try daemon.progress() == 5.094)
        try fire(RawPlymouthClient.frame("M", "Battery low") + RawPlymouthClient.frame("A"))
        #expect(eventually { (try? daemon.message()) == "Battery low" })
        try fire(RawPlymouthClient.frame("U", "held.service"))
        usleep(100_000)
        #expect(try daemon.progress() == 5.094)
        try fire(RawPlymouthClient.frame("a"))
        #expect(eventually { (try? daemon.progress()) == 6.666 })
        try fire(RawPlymouthClient.frame("C", "shutdown"))
        #expect(eventually { (try? daemon.loader()) == "worm" })
        try fire(RawPlymouthClient.frame("C", "boot-up"))
        try fire([0x48, 0x00])  // "H\0": firstboot hides the splash
        #expect(eventually { (try? daemon.loader()) == nil })
        #expect(try daemon.terminate() == 0)
    }

    @Test func pipelinedRequestsGetTheirRepliesInOrder() throws {
        let daemon = try IsolatedDaemon()
        let c = try daemon.connect()
        let requests = RawPlymouthClient.frame("P") + RawPlymouthClient.frame("U", "a.service") + RawPlymouthClient.frame("*", "Passphrase")
            + RawPlymouthClient.frame("c", "Passphrase") + RawPlymouthClient.frame("W", "Continue?") + RawPlymouthClient.frame("K")
            + RawPlymouthClient.frame("L") + RawPlymouthClient.frame("V") + RawPlymouthClient.frame("Z") + RawPlymouthClient.frame("S")
        // Split at an awkward place: the framing survives partial requests.
        try c.send(Array(requests.prefix(7)))
        usleep(20_000)
        try c.send(Array(requests.dropFirst(7)))
        #expect(try c.receive(10) == Self.ack + Self.ack + Self.noAnswer + Self.noAnswer + Self.noAnswer + Self.noAnswer + Self.ack + Self.nak + Self.nak + Self.ack)
        // A last request followed by the client's shutdown is still answered, then closed.
        try c.send(RawPlymouthClient.frame("P"))
        c.shutdownWriting()
        #expect(try c.receive(1) == Self.ack)
        #expect(c.closedByPeer())
        #expect(try daemon.terminate() == 0)
    }

    @Test func malformedFramesDropOnlyThatConnection() throws {
        let daemon = try IsolatedDaemon()
        let good = try daemon.connect()
        for bad: [UInt8] in [[0x50, 0x01], [0x55, 0x02, 0x00], [0x55, 0x02, 0x03, 0x61, 0x62, 0x63]] {
            let c = try daemon.connect()
            try c.send(RawPlymouthClient.frame("P") + bad)
            #expect(try c.receive(1) == Self.ack)
            #expect(c.closedByPeer())
        }
        try good.send(RawPlymouthClient.frame("P"))
        #expect(try good.receive(1) == Self.ack)
        #expect(daemon.process.log.contains("broke the framing"))
        // Each says how: the shipped build once logged "(cannot print value in embedded Swift)".
        for why in ["after the command came byte 1, where 0 (no argument) or 2 (an argument follows) belongs",
                    "an argument of length 0", "an argument that does not end with a NUL byte"] {
            #expect(daemon.process.log.contains("broke the framing: " + why), "\(daemon.process.log)")
        }
        #expect(try daemon.terminate() == 0)
    }

    @Test func oldNameWithTheFullLengthAddress() throws {
        let daemon = try IsolatedDaemon()
        let old = try daemon.connect(name: "/ply-boot-protocol", trimmed: false)
        try old.send(RawPlymouthClient.frame("P"))
        #expect(try old.receive(1) == Self.ack)
        // The names are exact: the trimmed form of the old name and the padded form of the new one are other addresses.
        #expect(throws: (any Error).self) { _ = try daemon.connect(name: "/ply-boot-protocol", trimmed: true) }
        #expect(throws: (any Error).self) { _ = try daemon.connect(name: "/org/freedesktop/plymouthd", trimmed: false) }
        #expect(try daemon.terminate() == 0)
    }

    @Test func aSecondPlymouthListenerIsRefusedWithAClearError() throws {
        let first = try IsolatedDaemon()
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let second = try IsolatedDaemon(directory: dir, namespaceOf: first, waitForSocket: false)
        #expect(try second.process.wait() == 1)
        #expect(second.process.log.contains("cannot bind the Plymouth socket @/org/freedesktop/plymouthd: Address already in use (plymouthd (or another loaderd) is running"))
        #expect(try first.terminate() == 0)
    }

    /// `[boot] plymouth = "auto"` (config/boot-splash.toml): answers when the name is free; when
    /// plymouthd (here another loaderd) holds it, starts anyway and says why it does not answer.
    @Test func autoAnswersWhenFreeAndStepsAsideWhenTaken() throws {
        guard BootTestEnvironment.hasPlymouthClient else { return }
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/auto.toml"
        try "[boot]\nplymouth = \"auto\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let first = try IsolatedDaemon(arguments: ["--config", config], plymouthFlag: false)
        #expect(try first.plymouth("--ping") == 0)
        #expect(try first.plymouth("update", "--status=dbus.service") == 0)
        let second = try IsolatedDaemon(arguments: ["--config", config], directory: dir, namespaceOf: first, plymouthFlag: false)
        #expect(try second.client().request("ping").hasPrefix("OK"))
        #expect(second.process.log.contains("Plymouth front end (auto): @/org/freedesktop/plymouthd is taken, plymouthd is running; not answering Plymouth's protocol"))
        #expect(try second.terminate() == 0)
        // The first still has the name: the second did not disturb it.
        #expect(try first.plymouth("--ping") == 0)
        #expect(try first.terminate() == 0)
    }
}

extension IsolatedDaemon {
    func terminate() throws -> Int32 {
        process.signal(SIGTERM)
        return try process.wait()
    }
}
