import Foundation
import Testing
@testable import FixedPoint

/// Springs against the `Double` closed form, under-, critically and over-damped.
@Suite struct SpringTests {
    /// The requirement.
    static let required = 1.0 / 500
    /// What Spring.swift states.
    static let stated = 1.0 / 20000

    /// x(t) for t in seconds, from rest at 0 towards 1 (mass 1, k = ω₀², c = 2ζω₀).
    static func reference(response: Double, zeta: Double, t: Double) -> Double {
        let w0 = 2 * Double.pi / response
        if zeta == 1 {
            return 1 - exp(-w0 * t) * (1 + w0 * t)
        } else if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let a = w0 * (zeta - root), b = w0 * (zeta + root)
            return 1 - (b * exp(-a * t) - a * exp(-b * t)) / (b - a)
        }
    }

    static func worstError(_ spring: Spring, until end: Microseconds = 2_000_000, step: Microseconds = 250) -> Double {
        let r = spring.response.double, zeta = spring.dampingFraction.double
        var worst = 0.0
        var t: Microseconds = 0
        while t <= end {
            worst = max(worst, abs(spring.value(at: t).double - reference(response: r, zeta: zeta, t: Double(t) / 1e6)))
            t += step
        }
        return worst
    }

    @Test(arguments: [
        (0.3, 0.75),   // pagedots
        (0.3, 1.0), (0.3, 1.5),
        (0.3, 0.5), (0.5, 0.3), (0.2, 0.1), (1.0, 0.05),
        (0.3, 0.9), (0.3, 0.99), (0.3, 0.999), (0.3, 0.9999),
        (0.3, 1.0001), (0.3, 1.001), (0.3, 1.01), (0.3, 1.1),
        (0.55, 2.5), (0.05, 4.0), (0.1, 20.0), (2.0, 0.8),
        (0.3, 0.0),    // undamped
    ])
    func closedForm(_ parameters: (Double, Double)) {
        let spring = Spring(response: parameters.0, dampingFraction: parameters.1)
        let worst = Self.worstError(spring)
        print("Spring: response \(parameters.0) ζ \(parameters.1): max error \(worst), settles at \(spring.settlingDuration) µs")
        #expect(worst <= Self.required)
        #expect(worst <= Self.stated)
    }

    @Test func startsAtRestAndEnds() {
        for zeta in [0.5, 1.0, 1.5] {
            let spring = Spring(response: 0.3, dampingFraction: zeta)
            #expect(spring.value(at: 0) == .zero)
            #expect(spring.value(at: -1_000_000) == .zero)
            #expect(spring.value(at: .min) == .zero)
            #expect(spring.value(at: 60_000_000) == .one)
            #expect(spring.value(at: .max) == .one)
            #expect(spring.value(at: 123_456) == spring.value(at: 123_456))  // a pure function of t
        }
    }

    @Test func settlingDuration() {
        for (r, zeta) in [(0.3, 0.75), (0.3, 1.0), (0.3, 1.5), (0.5, 0.3), (0.1, 3.0), (0.3, 0.9999)] {
            let spring = Spring(response: r, dampingFraction: zeta)
            let settle = spring.settlingDuration
            let rq = spring.response.double, zq = spring.dampingFraction.double
            // At rest from then on (checked for 3 s, in both the fixed and the Double model).
            for t in stride(from: settle, through: settle + 3_000_000, by: 500) {
                #expect((spring.value(at: t).double - 1).magnitude < 1.0 / 1000 + 1.0 / 65536)
                #expect(abs(Self.reference(response: rq, zeta: zq, t: Double(t) / 1e6) - 1) < 1.0 / 1000 + 1e-5)
            }
            if zq >= 1 {
                // Monotonic approach: the deviation is exactly the threshold there.
                let before = abs(Self.reference(response: rq, zeta: zq, t: Double(settle - 1000) / 1e6) - 1)
                #expect(before > 0.9 / 1000, "(\(r), \(zeta)) settles late at \(settle)")
            } else {
                // Under-damped: the envelope's time, ln(1000/√(1−ζ²)) / ζω₀.
                let envelope = log(1000 / (1 - zq * zq).squareRoot()) / (zq * 2 * Double.pi / rq)
                #expect(abs(Double(settle) / 1e6 - envelope) < 0.001, "(\(r), \(zeta)): \(settle) vs \(envelope)")
            }
        }
        // The pagedots spring: response 0.3, ζ 0.75 settles in about half a second.
        let pagedots = Spring(response: 0.3, dampingFraction: 0.75)
        #expect((400_000...700_000).contains(pagedots.settlingDuration))
        #expect(Spring(response: 0.3, dampingFraction: 0).settlingDuration == .max)
    }

    @Test func undampedStaysExactForLongTimes() {
        let spring = Spring(response: 0.3, dampingFraction: 0)
        let r = spring.response.double
        for t in stride(from: Microseconds(1_000_000_000), through: 1_001_000_000, by: 997) {
            let expected = 1 - cos(2 * Double.pi / r * Double(t) / 1e6)
            #expect(abs(spring.value(at: t).double - expected) <= 1.0 / 5000)
        }
    }

    @Test func clampsInputs() {
        let tiny = Spring(response: Fixed.zero, dampingFraction: Fixed(-1))
        #expect(tiny.response == Fixed(raw: 66))
        #expect(tiny.dampingFraction == .zero)
        let stiff = Spring(response: .epsilon, dampingFraction: .max)
        #expect(stiff.dampingFraction == Fixed(100))
        #expect(stiff.value(at: 1) >= .zero)
        #expect(stiff.value(at: 10_000_000_000) <= .one)
        #expect(Self.worstError(stiff, until: 100_000, step: 7) <= Self.required)
        #expect(Self.worstError(tiny, until: 100_000, step: 7) <= Self.required)
    }
}
