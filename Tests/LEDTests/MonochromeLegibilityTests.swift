import Displays
import FixedPoint
import Loaders
import Raster
import Testing
import Transports

/// Every loader on MAX7219 matrices with the defaults (threshold 128), as the daemon draws for
/// them (the display says it is monochrome; the scene draws the loaders' lit/unlit designs),
/// decoded from the wire. With the colour designs, linkedin, shimmer, quizup and pagedots lit
/// nothing at 8x8, 32x8 and 64x8 (#007AFF has luma 106).
@Suite struct MonochromeLegibilityTests {
    /// Lit LEDs of each frame over one cycle of `name` on a `modules`-module strip.
    static func litFrames(_ name: String, modules: Int, monochrome: Bool = true) throws -> [Set<Int>] {
        var c = MAX7219Display.Configuration()
        c.modules = modules
        let capture = SPICapture()
        let display = try MAX7219Display(configuration: c, bus: capture)
        var options = SceneOptions()
        options.monochrome = monochrome && display.isMonochrome
        let loader = try Catalog.make(name)
        var scene = Scene(loader: loader, width: display.canvasWidth, height: display.canvasHeight, options: options)
        var chain = MAX7219Chain(modules: modules)
        var frames: [Set<Int>] = []
        let period = name == "bar" ? 2_000_000 : loader.period
        for i in 0..<24 {
            let t = period * Int64(i) / 24
            // The bar moves only with progress: drive it from 0 to 100 % over the cycle.
            let progress = name == "bar" ? ProgressState(Fixed(i * 100 / 23, over: 100)) : nil
            scene.render(FrameState(elapsed: t, progress: progress))
            try display.show(scene.canvas)
            capture.messages.forEach { chain.message($0) }
            capture.removeAll()
            let picture = chain.picture(columns: modules, blockOrientation: 0, reverseOrder: false)
            frames.append(Set(picture.values.indices.filter { picture.values[$0] }))
        }
        return frames
    }

    @Test("with the defaults every loader lights LEDs where it is, and the lit area moves as it does",
          arguments: [1, 4, 8])
    func legible(modules: Int) throws {
        for name in Catalog.names {
            let frames = try Self.litFrames(name, modules: modules)
            let leds = modules * 64
            let lit = frames.filter { !$0.isEmpty }.count
            // The worm rests 0.4 s of its 1.84 s cycle with no head: everything else lights every frame.
            let needed = name == "worm" ? 16 : 24
            #expect(lit >= needed, "\(name) on \(modules) module(s): only \(lit) of 24 frames light anything")
            #expect(frames.allSatisfy { $0.count < leds }, "\(name) on \(modules) module(s): a frame lights every LED")
            #expect(Set(frames).count >= 3, "\(name) on \(modules) module(s): the lit LEDs do not move (\(Set(frames).count) patterns)")
        }
    }

    /// The shimmer on on/off LEDs: its sweep shows the letters under it in reverse (unlit on lit),
    /// so each stays whole. An unlit band took strokes out of the 5-pixel letters ("Star!ing").
    @Test("the shimmer's sweep on on/off LEDs reverses the letters under it, never erases a stroke")
    func monochromeShimmerKeepsTheLetters() throws {
        var options = SceneOptions()
        options.monochrome = true
        let loader = try Catalog.make("shimmer", assignments: [(key: "text", value: "Boot")])
        var scene = Scene(loader: loader, width: 32, height: 8, options: options)
        func lit(_ t: Int64) -> [Bool] {
            scene.render(FrameState(elapsed: t))
            return scene.canvas.pixels.map { $0.r > 127 }
        }
        let plain = lit(0)  // the band starts left of the text
        let inkRows = (0..<8).filter { y in (0..<32).contains { plain[y * 32 + $0] } }
        #expect(!inkRows.isEmpty)
        var swept = 0
        for i in 1..<24 {
            let frame = lit(loader.period * Int64(i) / 24)
            let columns = Set(frame.indices.filter { frame[$0] != plain[$0] }.map { $0 % 32 })
            guard let lo = columns.min(), let hi = columns.max() else { continue }
            swept += 1
            #expect(hi - lo + 1 == columns.count, "at \(i)/24 the band is not one run of columns: \(columns.sorted())")
            for x in lo...hi {
                for y in inkRows {
                    #expect(frame[y * 32 + x] == !plain[y * 32 + x], "at \(i)/24, (\(x), \(y)) is not the letter reversed")
                }
            }
        }
        #expect(swept >= 6, "the sweep crossed the text in only \(swept) of 23 frames")
    }

    @Test("the colour designs at threshold 128 were illegible (why the monochrome designs exist)")
    func colourDesignsWereIllegible() throws {
        for name in ["linkedin", "quizup", "shimmer"] {
            let frames = try Self.litFrames(name, modules: 8, monochrome: false)
            let moving = Set(frames).count
            let lit = frames.filter { !$0.isEmpty }.count
            #expect(lit < 24 || moving < 3, "\(name) was legible in colour after all")
        }
    }

    @Test("the worm on one module is a run of whole 2x2 dots: its head and the trail behind it, never a grey pixel")
    func wormIsARunOfDots() throws {
        let worm = try Catalog.make("worm")
        var options = SceneOptions()
        options.monochrome = true
        var scene = Scene(loader: worm, width: 8, height: 8, options: options)
        // Head positions (in dots) and the dots lit then: those 0 to 2.8 dots behind the head.
        for (head, dots) in [(0.5, 1), (1.5, 2), (3.75, 3), (8.5, 3)] {
            scene.render(FrameState(elapsed: Int64(head * 160_000)))
            let lumas: [Int] = scene.canvas.pixels.map { Int(luma($0)) }
            #expect(lumas.allSatisfy { $0 == 0 || $0 == 255 }, "head at \(head): a pixel neither lit nor unlit: \(lumas)")
            let lit = lumas.filter { $0 == 255 }.count
            #expect(lit == 4 * dots, "head at \(head): \(lit) pixels lit")
        }
    }

    @Test("success and failure marks read on LEDs: a lit disc with an unlit stroke through it")
    func outcomeMarks() throws {
        var options = SceneOptions()
        options.monochrome = true
        for outcome in [Outcome.success, .failure] {
            var scene = Scene(loader: try Catalog.make("worm"), width: 8, height: 8, options: options)
            let stop = StopState(at: 0, outcome: outcome)
            scene.render(FrameState(elapsed: Scene.fadeDuration + 600_000, stop: stop))
            let lit = scene.canvas.pixels.filter { luma($0) >= 128 }.count
            #expect(lit >= 20 && lit <= 56, "\(outcome): \(lit) of 64 lit")
            // The centre of a check or a cross is unlit inside the lit disc.
            let dark = (2..<6).flatMap { y in (2..<6).map { x in scene.canvas[x, y] } }.filter { luma($0) < 128 }.count
            #expect(dark >= 2, "\(outcome): the stroke does not show")
        }
    }
}
