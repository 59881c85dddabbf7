import FixedPoint
import Foundation
@testable import Loaders
import Raster
import Testing

/// `linkedin`, checked against LOADERS.md: fill centre c(t) = W · bezier(0.6, 0, 0.4, 1)(t / 0.85)
/// for the first 0.85 s, then back; fill W/2 wide; everything clipped to the container.
@Suite struct LinkedInBarTests {
    static let blue = Color(rgb: 0x007AFF).premultiplied
    static let track = Color(rgb: 0x8E8E93).opacity(Fixed(1, over: 2)).premultiplied

    /// Columns of the centre row that are mostly fill colour.
    static func fillColumns(_ canvas: Canvas, row: Int) -> [Int] {
        (0..<canvas.width).filter { Support.share(canvas[$0, row], fill: blue, track: track) > 0.5 }
    }

    static func frame(_ t: Double, width: Int = 100, height: Int = 10) -> Canvas {
        Support.render("linkedin", width: width, height: height, state: FrameState(elapsed: Support.seconds(t)))
    }

    /// Expected fill centre in pixels for a bar `w` wide, from the spec (Double).
    static func centre(_ t: Double, w: Double) -> Double {
        let d = 0.85
        let c = t.truncatingRemainder(dividingBy: 2 * d)
        let s = c <= d ? c / d : (2 * d - c) / d
        return w * Support.cubicBezier(0.6, 0, 0.4, 1, s)
    }

    @Test("worked values at W = 100: visible fill span", arguments: [
        (0.0, 0..<25), (0.425, 25..<75), (0.85, 75..<100), (1.275, 25..<75),
    ])
    func workedValues(t: Double, span: Range<Int>) {
        let canvas = Self.frame(t)
        for row in [4, 5] {
            #expect(Self.fillColumns(canvas, row: row) == Array(span), "t = \(t), row \(row)")
        }
    }

    @Test func trackFillsTheContainerAndNothingOutside() {
        let canvas = Self.frame(0.425)
        // Columns 0..<25 and 75..<100 of the centre row are track.
        for x in [2, 10, 24, 75, 90, 97] {
            #expect(abs(Support.share(canvas[x, 5], fill: Self.blue, track: Self.track)) < 0.02, "x = \(x)")
        }
        // The container is a capsule of radius 5: the corner pixels stay (nearly) empty.
        #expect(canvas[0, 0].a < 40)
        #expect(canvas[99, 9].a < 40)
    }

    @Test("auto-reverse: the frame at t equals the frame at 1.7 s − t", arguments: [0.0, 0.1, 0.3, 0.425, 0.6, 0.8])
    func autoReverse(t: Double) {
        #expect(Self.frame(t).pixels == Self.frame(1.7 - t).pixels)
    }

    @Test("the symmetric curve mirrors the frame at t and 0.85 s − t", arguments: [0.0, 0.1, 0.2, 0.3])
    func mirror(t: Double) {
        let a = Self.frame(t), b = Self.frame(0.85 - t)
        var worst = 0
        for y in 0..<10 {
            for x in 0..<100 {
                let p = a[x, y], q = b[99 - x, y]
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            }
        }
        #expect(worst <= 2)
    }

    @Test("period 1.7 s, also hours in", arguments: [0.0, 0.2, 0.7, 1.3])
    func period(t: Double) {
        #expect(Support.loader("linkedin").period == 1_700_000)
        let base = Self.frame(t).pixels
        #expect(Self.frame(t + 1.7).pixels == base)
        let later = Support.render("linkedin", width: 100, height: 10,
                                   state: FrameState(elapsed: Support.seconds(t) + 10_000 * 1_700_000))
        #expect(later.pixels == base)
    }

    @Test func durationParameterScalesTime() {
        let slow = Support.render("linkedin", [("duration", "1.7")], width: 100, height: 10, state: FrameState(elapsed: 850_000))
        #expect(Self.fillColumns(slow, row: 5) == Array(25..<75))
    }

    /// At 32x3 (a strip the bar fills) the visible fill's extent tracks the formula to a
    /// fraction of a pixel at every 60 fps frame of a period: no whole-pixel jumps.
    @Test func smallSizeTracksTheFormula() {
        let w = 32.0
        for frame in 0..<102 {
            let t = Double(frame) / 60
            let canvas = Self.frame(t, width: 32, height: 3)
            let c = Self.centre(t, w: w)
            let left = max(0, c - w / 4), right = min(w, c + w / 4)
            var s0 = 0.0, s1 = 0.0
            for x in 0..<32 {
                let f = Support.share(canvas[x, 1], fill: Self.blue, track: Self.track)
                s0 += f; s1 += f * (Double(x) + 0.5)
            }
            #expect(abs(s0 - (right - left)) < 0.1, "frame \(frame): visible width \(s0), expected \(right - left)")
            #expect(abs(s1 / s0 - (left + right) / 2) < 0.1, "frame \(frame): visible centre \(s1 / s0), expected \((left + right) / 2)")
        }
    }

    /// The 1/4-pixel motion test: frames timed so the fill's leading edge advances exactly 1/4
    /// pixel each (the slow start of the curve, 32 px wide). Every frame changes the edge pixel's
    /// coverage, by about a quarter.
    @Test func quarterPixelPerFrame() {
        let w = 32.0
        // While the centre is left of W/4, the visible fill is [0, c + W/4).
        func time(forEdge edge: Double) -> Double {
            var lo = 0.0, hi = 0.425
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if Self.centre(mid, w: w) + w / 4 < edge { lo = mid } else { hi = mid }
            }
            return (lo + hi) / 2
        }
        var previous: (edge: Double, canvas: Canvas)? = nil
        var edge = 8.0
        while edge < 15.9 {
            let canvas = Self.frame(time(forEdge: edge), width: 32, height: 3)
            var measured = 0.0
            for x in 0..<32 { measured += Support.share(canvas[x, 1], fill: Self.blue, track: Self.track) }
            #expect(abs(measured - edge) < 0.05, "edge \(edge): measured \(measured)")
            if let previous {
                #expect(canvas.pixels != previous.canvas.pixels, "edge \(edge): frame did not change")
                // Edges step 8, 8.25, 8.5, ...: each quarter step stays inside one column.
                let column = Int((edge - 0.125).rounded(.down))
                let before = Support.share(previous.canvas[column, 1], fill: Self.blue, track: Self.track)
                let after = Support.share(canvas[column, 1], fill: Self.blue, track: Self.track)
                #expect(abs((after - before) - 0.25) < 0.05, "edge \(edge): column \(column) coverage \(before) → \(after)")
            }
            previous = (edge, canvas)
            edge += 0.25
        }
    }
}
