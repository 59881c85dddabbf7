import FixedPoint
import Loaders
import Raster
import Testing

/// quizup, checked against the formulas of LOADERS.md (not against the implementation).
@Suite struct QuizUpTests {
    static let step: Int64 = 700_000

    static func scene(_ assignments: [(key: String, value: String)] = [], size: Int) throws -> Scene {
        Scene(loader: try Catalog.make("quizup", assignments: assignments), width: size, height: size)
    }

    static func render(_ scene: inout Scene, _ t: Int64, stop: StopState? = nil) -> Canvas {
        scene.render(FrameState(elapsed: t, stop: stop))
        return scene.canvas
    }

    /// cubic-bezier(x1, y1, x2, y2) at time fraction f, in Double: bisection on x(s) = f.
    static func bezier(_ f: Double, _ x1: Double = 0, _ y1: Double = 0, _ x2: Double = 0.58, _ y2: Double = 1) -> Double {
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if b(mid, x1, x2) < f { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, y1, y2)
    }

    static let rgb = [("colors", "#FF0000,#00FF00,#0000FF"), ("showBolt", "false")].map { (key: $0.0, value: $0.1) }
    static let palette = [Color(rgb: 0xFF0000), Color(rgb: 0x00FF00), Color(rgb: 0x0000FF)]

    @Test("the growing circle's radius follows cubic-bezier(0, 0, 0.58, 1) over each step")
    func radiusFollowsEaseOut() throws {
        var scene = try Self.scene(Self.rgb, size: 200)   // scale 2: full radius 100 px, centre (100, 100)
        for f in [0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.75, 0.9, 0.97] {
            // Step 1: green grows over the full red circle, so green = the growing circle's coverage.
            let t = Self.step + Int64(f * Double(Self.step))
            let canvas = Self.render(&scene, t)
            var chord = 0.0
            for x in 0..<200 { chord += Double(canvas[x, 99].g) / 255 }
            let r = 100 * Self.bezier(Double(t - Self.step) / Double(Self.step))
            let expected = r > 0.5 ? 2 * (r * r - 0.25).squareRoot() : 0     // row centre 0.5 px off the circle's centre
            #expect(abs(chord - expected) <= 1.0, "f=\(f): chord \(chord) px, expected \(expected) px")
        }
    }

    @Test("a custom curve is honoured (linear: radius proportional to the step fraction)")
    func customCurve() throws {
        var scene = try Self.scene(Self.rgb + [(key: "curve", value: "0,0,1,1")], size: 200)
        let canvas = Self.render(&scene, Self.step + Self.step / 2)
        var chord = 0.0
        for x in 0..<200 { chord += Double(canvas[x, 99].g) / 255 }
        #expect(abs(chord - 100) <= 1.0)
    }

    @Test("colours cycle in order over two full passes; the first step grows on an empty background")
    func colourOrder() throws {
        var scene = try Self.scene(Self.rgb, size: 200)
        for k in 0..<7 {
            let canvas = Self.render(&scene, Int64(k) * Self.step + Self.step * 3 / 4)
            // The centre is inside the growing circle (scale ≈ 0.9 at 3/4 of the step).
            let front = canvas[100, 100].unpremultiplied
            #expect(front == Self.palette[k % 3], "step \(k): front \(front.hexString)")
            // 96 px above the centre: outside the growing circle, inside the full one behind it.
            let back = canvas[99, 4]
            if k == 0 {
                #expect(back == .transparent, "step 0 must grow on an empty background")
            } else {
                #expect(back.unpremultiplied == Self.palette[(k - 1) % 3], "step \(k): back \(back.unpremultiplied.hexString)")
            }
            // Outside the full circle (a corner of the square) nothing is drawn.
            #expect(canvas[1, 1] == .transparent)
        }
    }

    @Test("the circle at scale 1 is the container's inscribed circle, clipped to the bounds")
    func fullCircleIsInscribed() throws {
        var scene = try Self.scene(Self.rgb, size: 200)
        let canvas = Self.render(&scene, 2 * Self.step - 1)     // end of step 1: green at scale ≈ 1
        var chord = 0.0
        for x in 0..<200 { chord += Double(canvas[x, 99].g) / 255 }
        #expect(abs(chord - 200) <= 1.0)
        #expect(canvas[0, 0] == .transparent && canvas[199, 199] == .transparent)
    }

    @Test("the bolt: white triangles in the 40x60 box inset 30/20")
    func bolt() throws {
        var scene = try Self.scene([(key: "colors", value: "#0000FF")], size: 100)
        let canvas = Self.render(&scene, Self.step * 2)      // full blue background behind a circle at scale 0
        func isWhite(_ x: Int, _ y: Int) -> Bool { canvas[x, y].unpremultiplied == .white }
        func isBlue(_ x: Int, _ y: Int) -> Bool { canvas[x, y].unpremultiplied == Color(rgb: 0x0000FF) }
        // Box x 30...70, y 20...80; w = 40, h = 60.
        #expect(isWhite(47, 50))   // left triangle (w/2, 0), (w/2, 0.66h), (0, 0.66h): near its vertical edge
        #expect(isWhite(35, 57))   // near its bottom-left corner (30, 59.6)
        #expect(isBlue(35, 30))    // above its hypotenuse
        #expect(isWhite(52, 45))   // right triangle (w/2, 0.33h), (w, 0.33h), (w/2, h)
        #expect(isWhite(65, 41))   // near its top-right corner (70, 39.8)
        #expect(isBlue(65, 70))    // below its hypotenuse
        #expect(isWhite(49, 50) && isWhite(50, 50))   // no seam where the triangles meet
        #expect(isBlue(50, 10) && isBlue(50, 90))
        var hidden = try Self.scene([(key: "colors", value: "#0000FF"), (key: "showBolt", value: "false")], size: 100)
        let plain = Self.render(&hidden, Self.step * 2)
        #expect(plain[47, 50].unpremultiplied == Color(rgb: 0x0000FF))
    }

    @Test("stop: the step in progress finishes unfaded, then circles and bolt go")
    func exitFinishesTheStep() throws {
        let loader = try Catalog.make("quizup")
        #expect(loader.fadesOnExit == false)
        for (stop, remaining) in [(Int64(1_000_000), Int64(400_000)), (350_000, 350_000), (2_099_999, 1), (5_000, 695_000)] {
            #expect(loader.exitDuration(stoppedAt: stop) == remaining)
        }
        var running = try Self.scene(size: 64)
        var stopping = try Self.scene(size: 64)
        let stop = StopState(at: 1_000_000, outcome: nil)
        for t: Int64 in [1_000_000, 1_200_000, 1_399_000] {
            let a = Self.render(&running, t)
            let b = Self.render(&stopping, t, stop: stop)
            #expect(a.pixels == b.pixels, "t=\(t): the exit must play the step as if running")
        }
        #expect(stopping.phase(FrameState(elapsed: 1_399_999, stop: stop)) == .exiting)
        #expect(stopping.phase(FrameState(elapsed: 1_400_000, stop: stop)) == .finished)
        for t: Int64 in [1_400_000, 1_500_000, 3_000_000] {
            let c = Self.render(&stopping, t, stop: stop)
            #expect(c.pixels.allSatisfy { $0 == .transparent }, "t=\(t): no new step after the exit")
        }
        // With an outcome, the mark follows the finished step.
        let success = StopState(at: 1_000_000, outcome: .success)
        #expect(stopping.phase(FrameState(elapsed: 1_400_000, stop: success)) == .showingOutcome(.success))
    }

    @Test("golden frames: 16x16 LED and 120x120")
    func golden() throws {
        for size in [16, 120] {
            var scene = try Self.scene(size: size)
            for t: Int64 in [350_000, 1_050_000, 2_450_000] {
                GoldenFrames.check(Self.render(&scene, t), named: "quizup_\(size)x\(size)_t\(t / 1000)ms")
            }
        }
    }
}
