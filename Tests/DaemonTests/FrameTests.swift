import FixedPoint
import Foundation
import ImageCodecs
import Loaders
import Raster
import Testing

/// What the image display writes is exactly what the renderer draws.
@Suite struct FrameTests {
    func expected(_ name: String, _ assignments: [(key: String, value: String)] = [], width: Int, height: Int,
                  state: FrameState, background: Color = .black, brightness: Int = 100) throws -> RGBImage {
        var scene = Scene(loader: try Catalog.make(name, assignments: assignments), width: width, height: height)
        scene.render(state)
        var canvas = scene.canvas
        if brightness < 100 {
            let s = UInt8(brightness * 255 / 100)
            for i in canvas.pixels.indices { canvas.pixels[i] = canvas.pixels[i].scaled(by: s) }
        }
        return RGBImage(canvas: canvas, background: background)
    }

    func waitForImage(_ path: String, _ image: RGBImage) -> Bool {
        eventually { (try? ImageFile.read(path: path)) == image }
    }

    @Test func frozenFrameEqualsInProcessRender() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "1.5", "--loader", "linkedin"], size: "48x16")
        let t: Microseconds = 1_500_000
        #expect(waitForImage(daemon.imagePath, try expected("linkedin", width: 48, height: 16, state: FrameState(elapsed: t))))
        let c = try daemon.client()
        #expect(try c.request("start pagedots") == "OK started pagedots")
        #expect(try c.request("progress 40") == "OK progress 40")
        let state = FrameState(elapsed: t, progress: ProgressState(Fixed.ratio(40, 100)))
        #expect(waitForImage(daemon.imagePath, try expected("pagedots", width: 48, height: 16, state: state)))
        #expect(try c.request("start quizup") == "OK started quizup")
        #expect(try c.request("brightness 50") == "OK brightness 50")
        #expect(waitForImage(daemon.imagePath, try expected("quizup", width: 48, height: 16,
                                                             state: FrameState(elapsed: t, progress: ProgressState(Fixed.ratio(40, 100))), brightness: 50)))
        #expect(try daemon.terminate() == 0)
    }

    /// A `screen.margin` too large for the display draws with the largest that fits (a blank
    /// frame would look like a dead display) and the log says what was asked and what was drawn.
    /// A screen crowded by a large logo and loader has no room for the message: one warning for
    /// the display (it was left out without a word), not one per message.
    @Test func noRoomForTheMessageIsLoggedOnce() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let logo = dir + "/logo.ppm"
        FileManager.default.createFile(atPath: logo, contents: Data("P6\n200 200\n255\n".utf8) + Data(repeating: 0x80, count: 200 * 200 * 3))
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "quizup", "--set", "screen.logo=" + logo,
                                                   "--set", "screen.loaderSize=400", "--message", "Starting network"], size: "320x240")
        #expect(try daemon.client().request("message Mounting /home") == "OK")
        #expect(try daemon.client().request("ping") == "OK pong")
        let said = "no room for the message under the loader (320x240): not drawn; a smaller screen.logo, screen.loaderSize or screen.margin makes room"
        #expect(daemon.process.log.components(separatedBy: said).count == 2, "\(daemon.process.log)")
        #expect(try daemon.terminate() == 0)
    }

    @Test func aMarginTooLargeForTheDisplayIsCutAndLogged() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6"], size: "48x16")
        #expect(try daemon.client().request("start linkedin screen.margin=1000") == "OK started linkedin")
        #expect(waitForImage(daemon.imagePath, try expected("linkedin", [("screen.margin", "7")], width: 48, height: 16,
                                                             state: FrameState(elapsed: 600_000))))
        let said = "screen.margin 1000 leaves no room on image:\(daemon.imagePath) (48x16, the margin is taken from every side): drawing with 7"
        #expect(eventually { daemon.process.log.contains(said) }, "\(daemon.process.log)")
        // Said once for the display, as a missing logo is: boot scripts start loaders all the time.
        #expect(try daemon.client().request("start worm screen.margin=1000") == "OK started worm")
        #expect(try daemon.client().request("start linkedin screen.margin=900") == "OK started linkedin")
        let other = "screen.margin 900 leaves no room on image:\(daemon.imagePath)"
        #expect(eventually { daemon.process.log.contains(other) }, "\(daemon.process.log)")
        #expect(daemon.process.log.components(separatedBy: "screen.margin 1000 leaves no room").count == 2, "\(daemon.process.log)")
        #expect(try daemon.terminate() == 0)
    }

    /// A parameter value with spaces, from loaderctl's command line to the frame: loaderctl sends it
    /// in quotes and the daemon draws the text as given.
    @Test func aTextWithSpacesFromLoaderctl() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6"], size: "128x16")
        let ctl = try Spawned(Paths.products + "/loaderctl", ["start", "shimmer", #"text=Say "hi" now"#, "--socket", daemon.socketPath],
                              logPath: daemon.directory + "/ctl.out")
        #expect(try ctl.wait() == 0, "\(ctl.log)")
        #expect(waitForImage(daemon.imagePath, try expected("shimmer", [("text", #"Say "hi" now"#)], width: 128, height: 16,
                                                             state: FrameState(elapsed: 600_000))))
        #expect(try daemon.terminate() == 0)
    }

    /// A line or paragraph separator in a message is drawn as a space, and the characters that
    /// are invisible by definition (soft hyphen, zero-width space, byte-order mark) are not drawn:
    /// each was the font's replacement glyph. `status` keeps the message as it was given.
    @Test func separatorsAndInvisibleCharactersInAMessage() throws {
        let daemon = try DaemonProcess(arguments: ["--freeze-time", "0.6", "--loader", "linkedin",
                                                   "--message", "Wi\u{00AD}Fi\u{2028}ready"], size: "128x32")
        #expect(waitForImage(daemon.imagePath, try expected("linkedin", width: 128, height: 32,
                                                             state: FrameState(elapsed: 600_000, message: "WiFi ready"))))
        #expect(try daemon.client().request("message \u{200B}Mounting\u{2029}/home\u{FEFF}") == "OK")
        let shown = try expected("linkedin", width: 128, height: 32, state: FrameState(elapsed: 600_000, message: "Mounting /home"))
        #expect(shown != (try expected("linkedin", width: 128, height: 32, state: FrameState(elapsed: 600_000, message: "Mounting\u{2029}/home"))))
        #expect(waitForImage(daemon.imagePath, shown))
        #expect(try daemon.client().request("status").contains("\"message\":\"\u{200B}Mounting\\u2029/home\u{FEFF}\""))
        #expect(try daemon.terminate() == 0)
    }

    @Test func pngWithBackgroundAndParameters() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/f.png"
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s", "--display", "image:path=\(path),size=40x20,background=#102030",
                                            "--freeze-time", "0.7", "--loader", "worm", "--set", "headColor=red"], logPath: dir + "/log")
        let image = try expected("worm", [("headColor", "red")], width: 40, height: 20, state: FrameState(elapsed: 700_000),
                                 background: try Color(parsing: "#102030"))
        #expect(waitForImage(path, image))
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }

    @Test func severalDisplaysEachWithItsOwnSize() throws {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Spawned(Paths.loaderd, ["--socket", dir + "/s",
                                            "--display", "image:path=\(dir)/a.ppm,size=64x16,fps=20",
                                            "--display", "image:path=\(dir)/b.ppm,size=16x16,fps=10",
                                            "--freeze-time", "0.25", "--loader", "skeleton"], logPath: dir + "/log")
        let state = FrameState(elapsed: 250_000)
        #expect(waitForImage(dir + "/a.ppm", try expected("skeleton", width: 64, height: 16, state: state)))
        #expect(waitForImage(dir + "/b.ppm", try expected("skeleton", width: 16, height: 16, state: state)))
        let status = try Client(path: dir + "/s").request("status")
        #expect(status.contains("{\"name\":\"image:\(dir)/b.ppm\",\"width\":16,\"height\":16,\"fps\":10,\"state\":\"ok\"}"))
        #expect(status.contains("\"fps\":20"))
        p.signal(SIGTERM)
        #expect(try p.wait() == 0)
    }

    /// SIGTERM (how the boot's quit units end the splash) shows the end as a person should see it:
    /// the bar complete from the 30 % it showed, then the exit, then the display cleared. The
    /// 100 % frame's time counts from when it is drawn, not from the signal.
    @Test func sigtermShowsTheBarCompleteThenTheExit() throws {
        let daemon = try DaemonProcess(arguments: ["--loader", "bar"], size: "32x8")
        #expect(try daemon.client().request("progress 30") == "OK progress 30")
        let complete = try expected("bar", width: 32, height: 8, state: FrameState(elapsed: 0, progress: ProgressState(Fixed.one)))
        #expect(eventually { (try? ImageFile.read(path: daemon.imagePath)) != nil })
        usleep(300_000)  // the bar settles at 30 %
        daemon.process.signal(SIGTERM)
        var seen: [RGBImage] = []
        let end = Date().addingTimeInterval(5)
        while Date() < end {
            if let image = try? ImageFile.read(path: daemon.imagePath), image != seen.last {
                seen.append(image)
                if image.bytes.allSatisfy({ $0 == 0 }) { break }
            }
        }
        #expect(try daemon.process.wait() == 0)
        let full = seen.firstIndex(of: complete)
        #expect(full != nil, "no frame with the bar complete among the \(seen.count) drawn after SIGTERM")
        #expect(seen.last?.bytes.allSatisfy({ $0 == 0 }) == true, "the display was not cleared at the end")
        if let full { #expect(seen.count - full >= 3, "no exit between the complete bar and the cleared display") }
    }

    /// A settled determinate bar and an idle daemon draw nothing more (no timer armed).
    @Test func stillFramesAreNotRedrawn() throws {
        let daemon = try DaemonProcess(size: "32x8")
        let c = try daemon.client()
        #expect(try c.request("progress 50") == "OK progress 50")
        // Wait until the progress animation (0.05 s) is over and the frame count stops moving.
        var last = -1
        #expect(eventually {
            let n = statusField((try? c.request("status")) ?? "", "frames_drawn") ?? -2
            defer { last = n }
            usleep(100_000)
            return n == last
        })
        usleep(300_000)
        #expect(statusField(try c.request("status"), "frames_drawn") == last)
        // Idle after stop now: the blank frame once, then nothing.
        #expect(try c.request("stop now") == "OK stopped")
        usleep(100_000)
        let idle = statusField(try c.request("status"), "frames_drawn")
        usleep(300_000)
        #expect(statusField(try c.request("status"), "frames_drawn") == idle)
        let image = try ImageFile.read(path: daemon.imagePath)
        #expect(image.bytes.allSatisfy { $0 == 0 })
        // An animating loader keeps drawing.
        #expect(try c.request("start linkedin") == "OK started linkedin")
        let before = statusField(try c.request("status"), "frames_drawn") ?? 0
        #expect(eventually { (statusField((try? c.request("status")) ?? "", "frames_drawn") ?? 0) > before + 3 })
        _ = try daemon.terminate()
    }

    /// A still bar with a message on an LED strip keeps drawing: the message scrolls or takes turns
    /// with the bar there (on the 32x8 strip both), and a still frame would freeze it.
    @Test func aMessageOnAStripKeepsAStillBarDrawing() throws {
        let daemon = try DaemonProcess(size: "32x8")
        let c = try daemon.client()
        #expect(try c.request("progress 50") == "OK progress 50")
        #expect(try c.request("message Starting network") == "OK")
        let before = statusField(try c.request("status"), "frames_drawn") ?? 0
        #expect(eventually { (statusField((try? c.request("status")) ?? "", "frames_drawn") ?? 0) > before + 10 })
        _ = try daemon.terminate()
    }
}
