import Foundation
import Testing
import PropertyBased
@testable import FixedPoint

/// cubic-bezier timing curves against a `Double` reference (bisection to full precision).
@Suite struct CubicBezierTests {
    /// The requirement.
    static let required = 1.0 / 1000
    /// What CubicBezier.swift states.
    static let stated = 1.0 / 20000

    /// y at the s where x(s) = t, in Double, from the control points as given.
    static func reference(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ t: Double) -> Double {
        func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<56 {
            let mid = (lo + hi) / 2
            if bezier(x1, x2, mid) < t { lo = mid } else { hi = mid }
        }
        return bezier(y1, y2, (lo + hi) / 2)
    }

    /// Worst |curve(t) − reference| over `samples` + 1 evenly spaced t in [0, 1].
    static func worstError(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, samples: Int = 10_000) -> Double {
        let curve = CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
        var worst = 0.0
        for i in 0...samples {
            let t = Fixed.ratio(Int64(i), Int64(samples))  // the Q16.16 t the curve really gets
            worst = max(worst, abs(curve(t).double - reference(x1, y1, x2, y2, t.double)))
        }
        return worst
    }

    @Test(arguments: [
        (0.6, 0.0, 0.4, 1.0),     // linkedin bar
        (0.0, 0.0, 0.58, 1.0),    // ease-out (quizup)
        (0.42, 0.0, 0.58, 1.0),   // ease-in-out
        (0.25, 0.1, 0.25, 1.0),   // ease
        (0.42, 0.0, 1.0, 1.0),    // ease-in
        (0.0, 0.0, 1.0, 1.0),     // linear
        (0.0, 1.0, 0.0, 1.0),     // vertical start: x'(0) = 0
        (1.0, 0.0, 1.0, 0.0),     // x flat at the end
        (0.3, -0.6, 0.7, 1.6),    // overshoot both ways
        (0.68, -0.55, 0.265, 1.55), // easeInOutBack
        (0.0, 16.0, 1.0, -16.0),  // the y extremes
    ])
    func namedCurves(_ points: (Double, Double, Double, Double)) {
        let worst = Self.worstError(points.0, points.1, points.2, points.3)
        print("CubicBezier: \(points) max error \(worst)")
        #expect(worst <= Self.required)
        #expect(worst <= Self.stated)
    }

    @Test func randomControlPoints() async {
        let unit = Gen.double(in: 0...1)
        var worstOfAll = 0.0
        await propertyCheck(count: 60, input: unit, unit, unit, unit) { x1, y1, x2, y2 in
            let worst = Self.worstError(x1, y1, x2, y2)
            worstOfAll = max(worstOfAll, worst)
            #expect(worst <= Self.required, "cubic-bezier(\(x1), \(y1), \(x2), \(y2))")
            #expect(worst <= Self.stated, "cubic-bezier(\(x1), \(y1), \(x2), \(y2)): \(worst)")
        }
        print("CubicBezier: random control points, max error \(worstOfAll)")
    }

    @Test func endpointsAndClamping() {
        for curve in [CubicBezier.linear, .ease, .easeIn, .easeOut, .easeInOut, CubicBezier(x1: 0.3, y1: -2, x2: 0.7, y2: 3)] {
            #expect(curve(.zero) == .zero)
            #expect(curve(.one) == .one)
            #expect(curve(Fixed(-3)) == .zero)
            #expect(curve(Fixed(5)) == .one)
        }
        let wild = CubicBezier(x1: -1, y1: 100, x2: 2, y2: -100)
        #expect(wild.x1 == .zero && wild.x2 == .one && wild.y1 == Fixed(16) && wild.y2 == Fixed(-16))
        #expect(CubicBezier.ease == CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))
        #expect(CubicBezier.easeIn == CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1))
        #expect(CubicBezier.easeOut == CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1))
        #expect(CubicBezier.easeInOut == CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
    }

    @Test func linearIsIdentityAndCurvesAreMonotonic() {
        var previous = Fixed.zero
        for raw in stride(from: Int32(0), through: 65536, by: 7) {
            let t = Fixed(raw: raw)
            #expect((CubicBezier.linear(t) - t).magnitude <= .epsilon)
            let v = CubicBezier.easeInOut(t)
            #expect(v >= previous - .epsilon)
            previous = v
        }
    }

    /// LOADERS.md, linkedin: the fill's centre is at W/2 half-way through the forward leg.
    @Test func linkedinHalfway() {
        let curve = CubicBezier(x1: 0.6, y1: 0, x2: 0.4, y2: 1)
        #expect((curve(.half) - .half).magnitude <= Fixed(raw: 2))
    }
}
