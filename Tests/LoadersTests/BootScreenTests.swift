import FixedPoint
import Foundation
import ImageCodecs
@testable import Loaders
import Raster
import Testing

/// The composed boot screen (framebuffer sizes) and the packed LED layouts.
@Suite struct BootScreenTests {
    /// A 240x120 logo: a white ring on dark blue, written once per run.
    static let logoPath: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-test-logo-\(getpid()).png").path
        var bytes = [UInt8](repeating: 0, count: 240 * 120 * 3)
        for y in 0..<120 { for x in 0..<240 {
            let d = ((x - 120) * (x - 120) + (y - 60) * (y - 60) * 4)
            let ring = d > 40 * 40 && d < 55 * 55
            let i = (y * 240 + x) * 3
            bytes[i] = ring ? 255 : 16; bytes[i + 1] = ring ? 255 : 32; bytes[i + 2] = ring ? 255 : 96
        } }
        try? PNG.write(RGBImage(width: 240, height: 120, bytes: bytes), to: path)
        return path
    }()

    static func scene(_ name: String, _ width: Int, _ height: Int, logo: Bool = false) -> Scene {
        var options = SceneOptions()
        if logo { options.logoPath = logoPath }
        return Scene(loader: Support.loader(name), width: width, height: height, options: options)
    }

    @Test("boot screens at 800x480 and 1920x1080, with and without logo and message (goldens)")
    func goldens() {
        for (w, h) in [(800, 480), (1920, 1080)] {
            for name in ["linkedin", "worm", "bar"] {
                for (logo, message) in [(false, false), (false, true), (true, true)] {
                    var scene = Self.scene(name, w, h, logo: logo)
                    #expect(scene.logoError == nil)
                    var state = FrameState(elapsed: 600_000, progress: name == "bar" ? ProgressState(Fixed(45, over: 100)) : nil)
                    if message { state.message = "Starting services" }
                    scene.render(state)
                    GoldenFrames.checkLarge(scene.canvas, named: "boot-\(name)-\(w)x\(h)\(logo ? "-logo" : "")\(message ? "-message" : "")")
                }
            }
        }
    }

    @Test("a screen's loader is sized for it, with margins; the message is below it with a gap, above the margin")
    func screenLayout() {
        for (w, h) in [(800, 480), (1280, 720), (1920, 1080)] {
            let u = min(w, h)
            for name in Catalog.names {
                let scene = Self.scene(name, w, h)
                let l = scene.layout(message: "Starting services")
                let margin = u / 20
                #expect(l.loader.x >= margin && l.loader.maxX <= w - margin, "\(name) \(w)x\(h): \(l.loader)")
                #expect(l.loader.y >= margin && l.loader.maxY <= h - margin, "\(name) \(w)x\(h): \(l.loader)")
                if name == "shimmer" {
                    // The text is the loader, centred on a line as wide as any message line: a long
                    // message is cut where the others' message lines cut it.
                    #expect(l.loader.x == margin && l.loader.width == w - 2 * margin, "shimmer \(w)x\(h): \(l.loader)")
                } else {
                    #expect(l.loader.width <= w * 80 / 100, "\(name) \(w)x\(h) is edge to edge: \(l.loader)")
                }
                #expect(l.loader.height <= h / 5, "\(name) \(w)x\(h) is too tall: \(l.loader)")
                if name != "shimmer" {
                    let m = try! #require(l.message, "\(name) \(w)x\(h) has no message line")
                    #expect(m.y >= l.loader.maxY + u / 25, "\(name) \(w)x\(h): no gap")
                    #expect(m.maxY <= h - margin, "\(name) \(w)x\(h): message in the margin")
                }
            }
        }
        // The bar of 1920x1080 is a bar, not a 1920x192 slab.
        let bar = Self.scene("linkedin", 1920, 1080).layout(message: nil).loader
        #expect(bar.width < 1000 && bar.height < 40)
    }

    @Test("the logo sits centred above the loader, scaled down to fit")
    func logoPlacement() throws {
        let scene = Self.scene("worm", 800, 480, logo: true)
        let logo = try #require(scene.logo)
        #expect(logo.width <= 480 && logo.height <= 168)
        let l = scene.layout(message: nil)
        let rect = try #require(l.logo)
        #expect(rect.maxY < l.loader.y)
        #expect(abs((rect.x + rect.width / 2) - 400) <= 1)
        // A missing logo is reported, and the screen still draws.
        var options = SceneOptions()
        options.logoPath = "/nonexistent/logo.png"
        var broken = Scene(loader: Support.loader("worm"), width: 800, height: 480, options: options)
        #expect(broken.logo == nil && broken.logoError != nil)
        broken.render(FrameState(elapsed: 0))
        #expect(broken.canvas.pixels.contains { $0.a != 0 })
    }

    @Test("a logo in binary PPM draws as its PNG twin; a file that is neither is named and refused")
    func logoFormats() throws {
        let png = try PNG.read(path: Self.logoPath)
        let ppmPath = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-test-logo-\(getpid()).ppm").path
        try PPM.write(png, to: ppmPath)
        defer { try? FileManager.default.removeItem(atPath: ppmPath) }
        func render(_ path: String) -> Scene {
            var options = SceneOptions()
            options.logoPath = path
            var scene = Scene(loader: Support.loader("bar"), width: 800, height: 480, options: options)
            scene.render(FrameState(elapsed: 0, progress: ProgressState(Fixed(45, over: 100))))
            return scene
        }
        let fromPNG = render(Self.logoPath), fromPPM = render(ppmPath)
        #expect(fromPNG.logo != nil && fromPPM.logo != nil)
        #expect(fromPPM.canvas.pixels == fromPNG.canvas.pixels)
        let textPath = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-test-logo-\(getpid()).txt").path
        try "not an image".write(toFile: textPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: textPath) }
        let refused = render(textPath)
        #expect(refused.logo == nil)
        #expect(refused.logoError?.contains("neither a PNG nor a binary PPM (P6) file") == true)
        #expect(refused.logoError?.contains(textPath) == true)
    }

    @Test("screen.* settings given with the loader set the scene")
    func screenSettings() throws {
        let loader = try Catalog.make("bar", assignments: [(key: "screen.background", value: "#102030"), (key: "screen.margin", value: "7")])
        var scene = Scene(loader: loader, width: 64, height: 16)
        #expect(scene.options.margin == 7)
        scene.render(FrameState(elapsed: 0))
        #expect(scene.canvas[0, 0] == Color(r: 0x10, g: 0x20, b: 0x30).premultiplied)
        #expect(throws: LoaderError.self) { try Catalog.make("bar", assignments: [(key: "screen.nope", value: "1")]) }
    }

    @Test("LED strips: bars use the whole height and width; 8x8 centres a half-height bar")
    func stripLayouts() {
        func rows(_ canvas: Canvas) -> [Int] { (0..<canvas.height).filter { y in (0..<canvas.width).contains { canvas[$0, y].a > 0 } } }
        func columns(_ canvas: Canvas) -> [Int] { (0..<canvas.width).filter { x in (0..<canvas.height).contains { canvas[x, $0].a > 0 } } }
        for (w, h) in [(64, 8), (32, 8)] {
            let l = Support.render("linkedin", width: w, height: h, state: FrameState(elapsed: 0))
            #expect(rows(l) == Array(0..<h))
            let b = Support.render("bar", width: w, height: h, state: FrameState(elapsed: 0))
            #expect(columns(b) == Array(0..<w) && rows(b) == Array(0..<h))
        }
        let small = Support.render("linkedin", width: 8, height: 8, state: FrameState(elapsed: 0))
        #expect(rows(small) == [2, 3, 4, 5])
    }

    @Test("on an 8-row strip the loader and a message take turns: the loader 3 s, then the message held or scrolled through once")
    func stripMessageTurns() {
        func lit(_ c: Canvas) -> Int { c.pixels.filter { $0.a > 0 }.count }
        // "Booting" (7 glyphs of the 5x7's eight-row cut, 41 px) fits 64x8: held 2 s.
        let short = "Booting"
        for (t, turn) in [(2_900_000, "loader"), (3_100_000, "message"), (4_900_000, "message"), (5_100_000, "loader"), (8_100_000, "message")] {
            let with = Support.render("linkedin", width: 64, height: 8, state: FrameState(elapsed: Int64(t), message: short))
            let without = Support.render("linkedin", width: 64, height: 8, state: FrameState(elapsed: Int64(t)))
            if turn == "loader" {
                #expect(with.pixels == without.pixels ? true : false, "t = \(t): the loader's turn shows the loader alone")
            } else {
                var text = Canvas(width: 64, height: 8)
                var mask = Mask(width: 64, height: 8)
                ShimmerText.layOut(short, font: .large8, scale: 1, in: PixelRect(x: 0, y: 0, width: 64, height: 8), mask: &mask)
                text.fill(mask, with: .solid(SceneOptions().messageColor))
                #expect(with.pixels == text.pixels ? true : false, "t = \(t): the message's turn shows the message, centred, in the 5x7's eight rows")
            }
        }
        // A message too long for the strip scrolls through once: 1 s held, then (width + gap) at
        // 16 px/s, and the loader's turn comes back.
        let long = "Starting network services"
        let turn = StripMessage.turn(of: long, font: .large8, width: 32)
        #expect(turn == 1_000_000 + Int64(BitmapFont.large8.width(of: long, scale: 1) + Marquee.gap(font: .large8, scale: 1)) * 1_000_000 / 16)
        let first = Support.render("worm", width: 32, height: 8, state: FrameState(elapsed: 3_500_000, message: long))
        let later = Support.render("worm", width: 32, height: 8, state: FrameState(elapsed: 5_000_000, message: long))
        #expect(lit(first) > 0 && (first.pixels != later.pixels ? true : false), "the long message moves")
        let back = 3_000_000 + turn + 100_000
        let same = Support.render("worm", width: 32, height: 8, state: FrameState(elapsed: back, message: long)).pixels
            == Support.render("worm", width: 32, height: 8, state: FrameState(elapsed: back)).pixels
        #expect(same, "the loader's turn again after one pass")
        // Where the message fits under the loader (64x16) nothing takes turns.
        let tall = Support.render("linkedin", width: 64, height: 16, state: FrameState(elapsed: 3_100_000, message: short))
        #expect((0..<16).contains { y in tall[0, y].a > 0 }, "the bar is still drawn on 64x16")
    }

    @Test("the worm's swollen head stays round inside an 8x8 module: no lit pixel is cut by the edge")
    func wormHeadInside() throws {
        // At t = 0 the head is on dot 1 (top right) at scale 1.10.
        let loader = Support.loader("worm", [(key: "baseColor", value: "clear")])
        var scene = Scene(loader: loader, width: 100, height: 100)
        scene.render(FrameState(elapsed: 0))
        // Its chord along row 11 is whole (symmetric about its centre), not cut at x = 100.
        let k = 25.0 / 25.5, r = 2.5 * 1.1 * k * 4, cx = 22.75 * k * 4, cy = 2.75 * k * 4
        let chord = 2 * (r * r - (11.5 - cy) * (11.5 - cy)).squareRoot()
        let head = try #require(Support.runs(scene.canvas, row: 11).last)
        #expect(abs((head.right - head.left) - chord) < 0.3, "\(head), expected width \(chord)")
        #expect(abs((head.left + head.right) / 2 - cx) < 0.2)
        #expect(head.right <= 100)
    }

    @Test("the outcome mark grows and fades in, then fades out: no one-frame pop")
    func outcomeTransition() {
        var scene = Scene(loader: Support.loader("worm"), width: 64, height: 64)
        let stop = StopState(at: 1_000_000, outcome: .success)
        let markStart = 1_000_000 + Scene.fadeDuration
        func coverage(_ t: Int64) -> Int {
            scene.render(FrameState(elapsed: t, stop: stop))
            return scene.canvas.pixels.reduce(0) { $0 + Int($1.a) }
        }
        let steps = [0, 50_000, 100_000, 150_000, 200_000].map { coverage(markStart + $0) }
        #expect(steps == steps.sorted() && steps[0] < steps[4] / 4, "\(steps)")
        let end = markStart + SceneOptions().outcomeHold
        let out = [300_000, 200_000, 100_000, 1].map { coverage(end - $0) }
        #expect(out == out.sorted(by: >) && out[3] < out[0] / 10, "\(out)")
    }

    @Test("on a light screen.background the catalog's white parts are drawn black, the message darker; given colours stay")
    func lightBackgroundKeepsTheLoaderVisible() throws {
        func darkest(_ name: String, _ more: [(key: String, value: String)] = []) throws -> (luma: Int, red: Bool) {
            let loader = try Catalog.make(name, assignments: [(key: "screen.background", value: "white")] + more)
            var scene = Scene(loader: loader, width: 320, height: 240)
            scene.render(FrameState(elapsed: 600_000, progress: ProgressState(Fixed.ratio(40, 100))))
            var luma = 255, red = false
            for p in scene.canvas.pixels {
                luma = min(luma, (54 * Int(p.r) + 183 * Int(p.g) + 19 * Int(p.b)) / 256)
                red = red || (p.r > 200 && p.g < 80 && p.b < 80)
            }
            return (luma, red)
        }
        for name in ["pagedots", "worm", "bar"] {
            #expect(try darkest(name).luma < 128, "\(name) is not seen on white")
        }
        let given = try darkest("pagedots", [(key: "color", value: "red")])
        #expect(given.red, "a colour the user gave is kept")
        // The message's gray: #8E8E93 on black, darker on white.
        var scene = Scene(loader: try Catalog.make("linkedin", assignments: [(key: "screen.background", value: "#F4F4F4")]), width: 320, height: 240)
        #expect(scene.options.messageColor == Color(r: 0x55, g: 0x55, b: 0x5A))
        scene = Scene(loader: try Catalog.make("linkedin"), width: 320, height: 240)
        #expect(scene.options.messageColor == .gray)
    }

    @Test("a failure keeps its message, whole, through the exit and under the mark, for twice the success hold")
    func failureKeepsItsMessage() throws {
        var scene = Scene(loader: Support.loader("worm"), width: 320, height: 240)
        let area = try #require(scene.areas(message: "Mount failed").message)
        func ink(_ t: Int64, _ outcome: Outcome?) -> Int {
            scene.render(FrameState(elapsed: t, message: "Mount failed", stop: outcome.map { StopState(at: 1_000_000, outcome: $0) }))
            var sum = 0
            for y in area.y..<(area.y + area.height) { for x in area.x..<(area.x + area.width) { sum += Int(scene.canvas[x, y].g) } }
            return sum
        }
        let running = ink(900_000, nil)
        let markStart = 1_000_000 + Scene.fadeDuration, hold = SceneOptions().outcomeHold
        #expect(running > 0)
        #expect(ink(1_000_000 + Scene.fadeDuration / 2, .failure) == running, "the exit faded a failure's message")
        #expect(ink(1_000_000 + Scene.fadeDuration / 2, .success) < running, "a success's message fades with the loader")
        #expect(ink(markStart + hold / 2, .failure) == running, "the failure's mark hides its message")
        #expect(ink(markStart + hold / 2, .success) == 0)
        #expect(scene.phase(FrameState(elapsed: markStart + hold + 1, stop: StopState(at: 1_000_000, outcome: .success))) == .finished)
        #expect(scene.phase(FrameState(elapsed: markStart + 2 * hold - 1, stop: StopState(at: 1_000_000, outcome: .failure))) == .showingOutcome(.failure))
        #expect(ink(markStart + 2 * hold - Scene.markFadeOut / 2, .failure) < running, "the message fades out with the mark")
    }

    @Test("a stop fades the loader and its message together, over a screen.background that stays")
    func exitFadeKeepsTheBackground() throws {
        let loader = try Catalog.make("pagedots", assignments: [(key: "screen.background", value: "#336699")])
        var scene = Scene(loader: loader, width: 320, height: 240)
        let background = Color(r: 0x33, g: 0x66, b: 0x99).premultiplied
        let stop = StopState(at: 1_000_000, outcome: .success)
        // The brightest pixel of the message's rows, and whether every other pixel is the background.
        func frame(_ t: Int64, stopped: Bool) -> (message: Int, backgroundKept: Bool) {
            scene.render(FrameState(elapsed: t, message: "Boot complete", stop: stopped ? stop : nil))
            let canvas = scene.canvas
            var brightest = 0, kept = true
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let p = canvas[x, y]
                    if y >= canvas.height / 2 + 16 { brightest = max(brightest, Int(p.r) + Int(p.g) + Int(p.b)) }
                    if x < 8 || y < 8 { kept = kept && p == background }
                }
            }
            return (brightest, kept)
        }
        let before = frame(1_000_000, stopped: false)
        let during = [50_000, 125_000, 200_000].map { frame(1_000_000 + $0, stopped: true) }
        let mark = [0, 100_000].map { frame(1_000_000 + Scene.fadeDuration + $0, stopped: true) }
        #expect(before.backgroundKept && during.allSatisfy(\.backgroundKept) && mark.allSatisfy(\.backgroundKept),
                "the background darkened with the fade")
        let messages = [before.message] + during.map(\.message)
        #expect(messages == messages.sorted(by: >) && messages[3] < messages[0], "the message did not fade with the loader: \(messages)")
    }

    @Test("golden frames: every loader on 8-row strips")
    func stripGoldens() {
        for name in Catalog.names {
            for (w, h) in [(64, 8), (32, 8)] {
                var scene = Scene(loader: Support.loader(name), width: w, height: h)
                scene.render(FrameState(elapsed: 600_000, progress: name == "bar" ? ProgressState(Fixed(45, over: 100)) : nil))
                GoldenFrames.check(scene.canvas, named: "strip-\(name)-\(w)x\(h)")
            }
        }
    }
}
