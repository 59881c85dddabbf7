import FixedPoint
import Foundation
@testable import Loaders
import Raster
import Testing

/// `pagedots`, checked against LOADERS.md at its native 64x8 (one design unit per pixel):
/// dots 8, gaps 6, pill 36; seen 0.7, unseen 0.35, track 0.35; spring response 0.3 s,
/// damping fraction 0.75 on every page change; timer pages of 4 s.
@Suite struct PageDotsTests {
    /// All opacities at 1, so a pixel's alpha is the shapes' coverage and runs can be measured.
    static let opaque: [(key: String, value: String)] = [("seenOpacity", "1"), ("unseenOpacity", "1"), ("trackOpacity", "1")]

    static func frame(_ state: FrameState, _ assignments: [(key: String, value: String)] = opaque) -> Canvas {
        Support.render("pagedots", assignments, width: 64, height: 8, state: state)
    }

    /// Expected [left, right) of each slot when slot `from` collapses and `to` expands with spring value v.
    static func expectedSlots(count: Int = 3, from: Int, to: Int, v: Double) -> [(left: Double, right: Double)] {
        var x = 0.0
        var result: [(left: Double, right: Double)] = []
        for slot in 0..<count {
            var w = 8.0
            if slot == from { w = 36 - 28 * v } else if slot == to { w = 8 + 28 * v }
            result.append((x, x + w))
            x += w + 6
        }
        return result
    }

    static func check(_ canvas: Canvas, against expected: [(left: Double, right: Double)], tolerance: Double = 0.2,
                      _ note: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // Row 4 (centre 4.5) is half a pixel off the dots' centre line: a circle of radius 4
        // measures 2·√(16 − 0.25) ≈ 7.94 there, so ends are allowed 0.03 px more.
        let measured = Support.runs(canvas, row: 4)
        #expect(measured.count == expected.count, "\(note): \(measured)", sourceLocation: sourceLocation)
        for (m, e) in zip(measured, expected) {
            #expect(abs(m.left - e.left) < tolerance && abs(m.right - e.right) < tolerance,
                    "\(note): measured [\(m.left), \(m.right)), expected [\(e.left), \(e.right))", sourceLocation: sourceLocation)
        }
    }

    @Test func designSizeIsTheRow() {
        #expect(Support.loader("pagedots").designSize == DesignSize(width: 64, height: 8))
        #expect(Support.loader("pagedots", [("count", "5")]).designSize == DesignSize(width: 8 * 4 + 6 * 4 + 36, height: 8))
        #expect(Support.loader("pagedots").period == 12_000_000)
    }

    @Test func settledRowOnEachTimerPage() {
        for (t, page) in [(1.0, 0), (5.0, 1), (9.0, 2), (13.0, 0)] {
            let canvas = Self.frame(FrameState(elapsed: Support.seconds(t)))
            Self.check(canvas, against: Self.expectedSlots(from: -1, to: page, v: 1), "t = \(t)")
        }
    }

    @Test("timer page change 0 → 1 at 4 s follows the spring", arguments: [0.0, 0.02, 0.05, 0.08, 0.12, 0.17, 0.23, 0.3, 0.45, 0.8])
    func timerSpring(tau: Double) {
        let canvas = Self.frame(FrameState(elapsed: Support.seconds(4 + tau)))
        // 0.25: where the pill's fill starts on its track's rounded end, fill over track adds the
        // track's share of the edge pixel (c + 0.35·c·(1 − c)), which reads up to 0.22 px wider.
        Self.check(canvas, against: Self.expectedSlots(from: 0, to: 1, v: Support.spring(tau)), tolerance: 0.25, "τ = \(tau)")
    }

    @Test("timer wraps: page change 2 → 0 at 12 s", arguments: [0.0, 0.06, 0.15, 0.3])
    func timerWrapSpring(tau: Double) {
        let canvas = Self.frame(FrameState(elapsed: Support.seconds(12 + tau)))
        Self.check(canvas, against: Self.expectedSlots(from: 2, to: 0, v: Support.spring(tau)), "τ = \(tau)")
    }

    @Test func springParametersAreUsed() {
        // A slower spring: response 1 s, damping 0.5.
        let tau = 0.25
        let canvas = Self.frame(FrameState(elapsed: Support.seconds(4 + tau)),
                                Self.opaque + [("springResponse", "1"), ("springDamping", "0.5")])
        Self.check(canvas, against: Self.expectedSlots(from: 0, to: 1, v: Support.spring(tau, response: 1, damping: 0.5)), "slow spring")
    }

    @Test func seenAndUnseenOpacities() {
        // Timer page 1, a quarter through: dot 0 seen, dot 2 not yet, pill [14, 50) filled to 14 + 9.
        let canvas = Support.render("pagedots", width: 64, height: 8, state: FrameState(elapsed: 5_000_000))
        func alpha(_ x: Int) -> Int { Int(canvas[x, 4].a) }
        #expect(abs(alpha(4) - 179) <= 1, "seen dot at 0.7")
        #expect(abs(alpha(60) - 89) <= 1, "unseen dot at 0.35")
        #expect(abs(alpha(18) - 255) <= 1, "pill fill")
        #expect(abs(alpha(40) - 89) <= 1, "pill track at 0.35")
        #expect(canvas[11, 4].a == 0, "gap")
        // White: premultiplied channels equal alpha.
        #expect(canvas[4, 4].r == canvas[4, 4].a && canvas[60, 4].b == canvas[60, 4].a)
    }

    /// The pill's fill: its length along the centre row from alpha between track (0.35) and fill (1).
    static func fillLength(_ canvas: Canvas, pillLeft: Int) -> Double {
        var sum = 0.0
        for x in pillLeft..<(pillLeft + 36) { sum += (Double(canvas[x, 4].a) - 89) / (255 - 89) }
        return sum
    }

    @Test("determinate page = min(N − 1, ⌊P·N⌋), pill shows that page's fraction", arguments: [
        (0.0, 0, 0.0), (0.2, 0, 0.6), (0.5, 1, 0.5), (0.9, 2, 0.7), (0.999, 2, 0.997), (1.0, 2, 1.0),
    ])
    func determinatePage(p: Double, page: Int, fraction: Double) {
        let state = FrameState(elapsed: 10_000_000, progress: ProgressState(Fixed(p)))
        Self.check(Self.frame(state), against: Self.expectedSlots(from: -1, to: page, v: 1), "P = \(p)")
        let canvas = Support.render("pagedots", width: 64, height: 8, state: state)
        let pillLeft = page * 14
        #expect(abs(Self.fillLength(canvas, pillLeft: pillLeft) - 36 * fraction) < 0.3, "P = \(p)")
        for dot in 0..<3 where dot != page {
            let x = dot < page ? dot * 14 + 4 : dot * 14 + 28 + 4
            #expect(abs(Int(canvas[x, 4].a) - (dot < page ? 179 : 89)) <= 1, "P = \(p), dot \(dot)")
        }
        if p == 1.0 {
            // The last pill is full: every pixel of its centre row is the fill colour.
            for x in 29..<63 { #expect(canvas[x, 4].a == 255, "x = \(x)") }
        }
    }

    @Test("determinate crossing of 1/3 during the 0.05 s smoothing starts the spring then", arguments: [0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.6])
    func determinateSpring(tau: Double) {
        let progress = ProgressState(from: Fixed(0.3), to: Fixed(0.4), changedAt: 1_000_000)
        // The displayed progress is 0.3 + (0.4 − 0.3)(t − 1 s)/0.05 s: it reaches 1/3 at…
        let crossing = 1.0 + 0.05 * (1.0 / 3 - 0.3) / 0.1
        let canvas = Self.frame(FrameState(elapsed: Support.seconds(crossing + tau) + 1, progress: progress))
        // 0.25: where the pill's fill starts on its track's rounded end, fill over track adds the
        // track's share of the edge pixel (c + 0.35·c·(1 − c)), which reads up to 0.22 px wider.
        Self.check(canvas, against: Self.expectedSlots(from: 0, to: 1, v: Support.spring(tau)), tolerance: 0.25, "τ = \(tau)")
    }

    @Test func determinateBeforeTheCrossingIsStillOnTheFirstPage() {
        let progress = ProgressState(from: Fixed(0.3), to: Fixed(0.4), changedAt: 1_000_000)
        let canvas = Self.frame(FrameState(elapsed: 1_010_000, progress: progress))
        Self.check(canvas, against: Self.expectedSlots(from: -1, to: 0, v: 1), "before the crossing")
    }
}
