import FixedPoint
import Loaders
import Raster
import Testing

/// skeleton, checked against LOADERS.md: a black → white → black gradient as wide as the view,
/// centred just off the right edge (1.5 W) at the start of each 2 s sweep and just off the left
/// edge (−0.5 W) at its end, screen-blended onto the gray blocks only.
@Suite struct SkeletonTests {
    static let width = 320, height = 80          // design 64 x 16 at 5 px per unit
    static let gray = 142.0                      // #8E8E93: red channel

    static func scene(_ assignments: [(key: String, value: String)] = []) throws -> Scene {
        Scene(loader: try Catalog.make("skeleton", assignments: assignments), width: width, height: height)
    }

    /// Gradient value (0 black ... 1 white) at pixel column x, time t.
    static func highlight(x: Int, t: Int64) -> Double {
        let phase = Double(t % 2_000_000) / 2_000_000
        let centre = Double(width) * (1.5 - 2 * phase)
        return max(0, 1 - abs(Double(x) + 0.5 - centre) / (Double(width) / 2))
    }

    /// Screen of gray with the gradient value, in 0...255.
    static func expectedRed(x: Int, t: Int64) -> Double {
        let g = highlight(x: x, t: t)
        return 255 * (1 - (1 - gray / 255) * (1 - g))
    }

    static let times: [Int64] = stride(from: Int64(0), to: 2_000_000, by: 20_000).map { $0 }

    @Test("a block pixel column brightens as the highlight passes, at the time the sweep predicts")
    func highlightMovesRightToLeft() throws {
        var scene = try Self.scene()
        let columns = [100, 150, 200]        // inside text line 1 (x 90 ..< 222, rows 10 ..< 30)
        var curves = [[Double]](repeating: [], count: columns.count)
        for t in Self.times {
            scene.render(FrameState(elapsed: t))
            for (i, x) in columns.enumerated() {
                let red = Double(scene.canvas[x, 20].r)
                curves[i].append(red)
                #expect(abs(red - Self.expectedRed(x: x, t: t)) <= 3, "x=\(x) t=\(t): red \(red), expected \(Self.expectedRed(x: x, t: t))")
            }
        }
        for (i, x) in columns.enumerated() {
            let peak = Self.times[curves[i].firstIndex(of: curves[i].max()!)!]
            // Centre 1.5 W − 2 W · t / 2 s reaches x + 0.5 at t = (1.5 − (x + 0.5) / W) s.
            let predicted = 1.5 - (Double(x) + 0.5) / Double(Self.width)
            #expect(abs(Double(peak) / 1e6 - predicted) <= 0.03, "x=\(x): brightest at \(peak) µs, predicted \(predicted) s")
            #expect(curves[i].max()! >= 250)     // the white centre passes over every column
        }
        // Right-to-left: the right column peaks first.
        let peaks = curves.map { curve in curve.firstIndex(of: curve.max()!)! }
        #expect(peaks[2] < peaks[1] && peaks[1] < peaks[0])
    }

    @Test("the screen blend touches only the blocks: the background stays transparent")
    func backgroundUntouched() throws {
        var scene = try Self.scene()
        for t in Self.times {
            scene.render(FrameState(elapsed: t))
            let canvas = scene.canvas
            var touched = 0
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    let outside = y < 9 || y > 71                     // above and below every block
                        || (x >= 72 && x < 89)                        // between avatar (x < 70) and lines (x ≥ 90)
                        || (x >= 91 && y >= 31 && y < 49)             // between the two lines
                        || (x >= 224 && y < 31) || (x >= 180 && y >= 49)   // right of line 1 and line 2
                    if outside && canvas[x, y] != .transparent { touched += 1 }
                }
            }
            #expect(touched == 0, "t=\(t): \(touched) background pixels changed")
        }
    }

    @Test("with the highlight off the view, blocks show their plain colour")
    func plainBlocks() throws {
        var scene = try Self.scene()
        scene.render(FrameState(elapsed: 0))             // gradient spans W ... 2 W: nothing on the blocks
        let gray = Color.gray.premultiplied
        #expect(scene.canvas[40, 40] == gray)           // avatar centre
        #expect(scene.canvas[150, 20] == gray)          // line 1
        #expect(scene.canvas[120, 60] == gray)          // line 2
        scene.render(FrameState(elapsed: 1_999_999))    // centre near −0.5 W: the left edge just clear
        #expect(scene.canvas[150, 20] == gray)
    }

    @Test("lines are 60 % and 40 % of the text column by default, and follow the parameters")
    func lineWidths() throws {
        func length(_ scene: inout Scene, row: Int) -> Double {
            scene.render(FrameState(elapsed: 0))
            var sum = 0.0
            for x in 80..<Self.width { sum += Double(scene.canvas[x, row].a) / 255 }
            return sum
        }
        var scene = try Self.scene()
        let l1 = length(&scene, row: 20), l2 = length(&scene, row: 60)
        #expect(abs(l1 / l2 - 1.5) < 0.02)
        var custom = try Self.scene([(key: "line1Width", value: "100"), (key: "line2Width", value: "0")])
        #expect(length(&custom, row: 20) > l1 * 1.6)
        #expect(length(&custom, row: 60) == 0)
    }

    @Test("exit fades (≤ 0.3 s), then the outcome shows")
    func exit() throws {
        let loader = try Catalog.make("skeleton")
        #expect(loader.fadesOnExit)
        #expect(loader.exitDuration(stoppedAt: 1_000_000) <= 300_000)
        let scene = try Self.scene()
        let stop = StopState(at: 1_000_000, outcome: .failure)
        #expect(scene.phase(FrameState(elapsed: 1_100_000, stop: stop)) == .exiting)
        #expect(scene.phase(FrameState(elapsed: 1_300_001, stop: stop)) == .showingOutcome(.failure))
    }

    @Test("parameter validation names the loader, key and value")
    func parameters() throws {
        for (key, value) in [("line1Width", "150"), ("line2Width", "-5"), ("duration", "0"), ("duration", "two"),
                             ("cornerRadius", "-1"), ("blockColor", "#12345"), ("highlight", "white@2"), ("avatar", "maybe"),
                             ("lines", "3")] {
            do {
                _ = try Catalog.make("skeleton", assignments: [(key: key, value: value)])
                Issue.record("skeleton accepted \(key)=\(value)")
            } catch {
                guard case .parameter(let p) = error else { Issue.record("\(error)"); continue }
                #expect(p.key == key && p.loader == "skeleton" && p.value == value)
            }
        }
        for (key, value) in [("colors", ""), ("colors", "blue,,pink"), ("stepDuration", "0"), ("curve", "0,0,2,1"),
                             ("curve", "0,0,0.58"), ("showBolt", "perhaps"), ("boltColor", "light")] {
            do {
                _ = try Catalog.make("quizup", assignments: [(key: key, value: value)])
                Issue.record("quizup accepted \(key)=\(value)")
            } catch {
                guard case .parameter(let p) = error else { Issue.record("\(error)"); continue }
                #expect(p.key == key && p.loader == "quizup")
            }
        }
        for name in ["quizup", "worm", "skeleton"] { #expect(Catalog.names.contains(name)) }
    }

    @Test("golden frames: 32x8 and 32x16 LED, 200x60")
    func golden() throws {
        for (w, h) in [(32, 8), (32, 16), (200, 60)] {
            var scene = Scene(loader: try Catalog.make("skeleton"), width: w, height: h)
            for t: Int64 in [600_000, 1_000_000, 1_400_000] {
                scene.render(FrameState(elapsed: t))
                GoldenFrames.check(scene.canvas, named: "skeleton_\(w)x\(h)_t\(t / 1000)ms")
            }
        }
    }
}
