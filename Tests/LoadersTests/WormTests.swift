import FixedPoint
import Foundation
import Loaders
import Raster
import Testing

/// worm, checked against the formulas of LOADERS.md (opacities computed here in Double).
@Suite struct WormTests {
    /// Serial numbers by rows, as LOADERS.md lists them.
    static let serials = [[3, 2, 1], [9, 8, 7], [4, 5, 6]]

    /// LOADERS.md: cycle = 9·0.16 + 0.4; head = c / 0.16 while c < 9·0.16; d = head − (serial − 1);
    /// 0 ≤ d ≤ 2.8 → opacity n^1.2, scale 0.94 + 0.16·n with n = 1 − d / 2.8; else 0 and 1.
    static func expected(serial: Int, t: Int64) -> (opacity: Double, scale: Double) {
        let c = t % 1_840_000
        guard c < 1_440_000 else { return (0, 1) }
        let head = Double(c) / 160_000
        let d = head - Double(serial - 1)
        guard d >= 0, d <= 2.8 else { return (0, 1) }
        let n = 1 - d / 2.8
        return (pow(n, 1.2), 0.94 + 0.16 * n)
    }

    /// 250x250: 10 px per design unit, dots 50 px wide at centres 25, 125, 225. The base is made
    /// transparent so a pixel's alpha is the overlay's opacity times its coverage.
    static func scene() throws -> Scene {
        let loader = try Catalog.make("worm", assignments: [(key: "baseColor", value: "clear"), (key: "headColor", value: "white")])
        return Scene(loader: loader, width: 250, height: 250)
    }

    static let times: [Int64] = [0, 50_000, 160_000, 200_000, 330_000, 500_000, 710_000, 900_000,
                                 1_100_000, 1_300_000, 1_430_000, 1_450_000, 1_600_000, 1_840_000, 1_900_000, 2_500_000]

    @Test("overlay opacity of every dot at a dozen times is n^1.2")
    func opacity() throws {
        var scene = try Self.scene()
        for t in Self.times {
            scene.render(FrameState(elapsed: t))
            for row in 0..<3 {
                for column in 0..<3 {
                    let serial = Self.serials[row][column]
                    let alpha = Double(scene.canvas[25 + 100 * column, 25 + 100 * row].a) / 255
                    let want = Self.expected(serial: serial, t: t).opacity
                    #expect(abs(alpha - want) <= 1.5 / 255, "t=\(t) serial \(serial): opacity \(alpha), expected \(want)")
                }
            }
        }
    }

    @Test("overlay scale is 0.94 + 0.16·n along the trail")
    func scale() throws {
        var options = SceneOptions()
        options.margin = 10
        let loader = try Catalog.make("worm", assignments: [(key: "baseColor", value: "clear"), (key: "headColor", value: "white")])
        var scene = Scene(loader: loader, width: 270, height: 270, options: options)
        var checked = 0
        for t in Self.times {
            scene.render(FrameState(elapsed: t))
            for row in 0..<3 {
                for column in 0..<3 {
                    let (opacity, scale) = Self.expected(serial: Self.serials[row][column], t: t)
                    guard opacity > 0.25 else { continue }
                    // Row through the centre: the sum of alphas over the centre alpha is the chord (≈ diameter).
                    // A 10 px margin keeps the swollen (scale > 1) edge dots off the canvas edge.
                    let cx = 35 + 100 * column, cy = 35 + 100 * row
                    let centre = Double(scene.canvas[cx, cy].a)
                    var sum = 0.0
                    for x in (cx - 40)..<(cx + 40) { sum += Double(scene.canvas[x, cy].a) }
                    let diameter = sum / centre
                    // The grid is drawn shrunk by 25 / 25.5 so the swollen head stays inside its area.
                    let dot = 50 * 25 / 25.5
                    #expect(abs(diameter - dot * scale) <= 1.0, "t=\(t): diameter \(diameter) px, expected \(dot * scale) px")
                    checked += 1
                }
            }
        }
        #expect(checked >= 10)
    }

    @Test("the head visits the dots in serial order, then pauses 0.4 s; cycle 1.84 s")
    func headAndPause() throws {
        var scene = try Self.scene()
        func lit(_ t: Int64) -> [Int] {
            scene.render(FrameState(elapsed: t))
            var result: [Int] = []
            for row in 0..<3 { for column in 0..<3 where scene.canvas[25 + 100 * column, 25 + 100 * row].a > 0 {
                result.append(Self.serials[row][column])
            } }
            return result.sorted()
        }
        // The dot under the head is fully opaque: at t = k·0.16 s the head is exactly on dot k + 1.
        for k in 0..<9 {
            let t = Int64(k) * 160_000
            scene.render(FrameState(elapsed: t))
            let serial = k + 1
            let (row, column) = Self.position(of: serial)
            #expect(scene.canvas[25 + 100 * column, 25 + 100 * row].a == 255, "dot \(serial) at t=\(t)")
        }
        // Last moment before the pause: head ≈ 8.99, so dot 9 (d ≈ 0.99) and dot 8 (d ≈ 1.99) are lit,
        // dot 7 (d ≈ 2.99 > 2.8) no longer.
        #expect(lit(1_439_000) == [8, 9])
        for t: Int64 in [1_440_000, 1_500_000, 1_700_000, 1_839_999] {
            #expect(lit(t).isEmpty, "pause at t=\(t)")
        }
        #expect(lit(1_840_000) == [1])                       // next cycle: head back on dot 1
        #expect(lit(1_840_000 + 160_000) == [1, 2])
        #expect(try Catalog.make("worm").period == 1_840_000)
    }

    static func position(of serial: Int) -> (Int, Int) {
        for row in 0..<3 { for column in 0..<3 where serials[row][column] == serial { return (row, column) } }
        fatalError("no dot \(serial)")
    }

    @Test("base dots are always drawn in baseColor, head or not")
    func baseDots() throws {
        let loader = try Catalog.make("worm", assignments: [(key: "headColor", value: "clear")])
        var scene = Scene(loader: loader, width: 250, height: 250)
        scene.render(FrameState(elapsed: 300_000))
        let base = Color.white.opacity(Fixed(1, over: 5)).premultiplied
        for row in 0..<3 { for column in 0..<3 {
            #expect(scene.canvas[25 + 100 * column, 25 + 100 * row] == base)
        } }
        #expect(scene.canvas[75, 75] == .transparent)     // between dots
    }

    @Test("parameters: defaults of LOADERS.md and validation errors")
    func parameters() throws {
        guard case .worm(let worm) = try Catalog.make("worm") else { Issue.record("not a WormGrid"); return }
        #expect(worm.designSize == DesignSize(width: 25, height: 25))
        #expect(worm.dotDuration == 160_000 && worm.pause == 400_000)
        #expect(abs(worm.trailLength.double - 2.8) < 0.0001)
        for (key, value) in [("dotDuration", "-1"), ("dotDuration", "fast"), ("trailLength", "0"), ("trailLength", "x"),
                             ("pauseBetweenCycles", "-0.1"), ("dotSize", "0"), ("dotSize", "2.5"), ("headColor", "bright"),
                             ("speed", "2")] {
            do {
                _ = try Catalog.make("worm", assignments: [(key: key, value: value)])
                Issue.record("worm accepted \(key)=\(value)")
            } catch {
                guard case .parameter(let p) = error else { Issue.record("\(error)"); continue }
                #expect(p.key == key && p.loader == "worm" && p.value == value)
            }
        }
    }

    @Test("golden frames: 8x8 LED and 100x100")
    func golden() throws {
        for size in [8, 100] {
            var scene = Scene(loader: try Catalog.make("worm"), width: size, height: size)
            for t: Int64 in [400_000, 1_200_000, 1_600_000] {
                scene.render(FrameState(elapsed: t))
                GoldenFrames.check(scene.canvas, named: "worm_\(size)x\(size)_t\(t / 1000)ms")
            }
        }
    }
}
