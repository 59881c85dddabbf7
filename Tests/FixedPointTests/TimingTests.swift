import Testing
import PropertyBased
@testable import FixedPoint

/// Derived-time progress: repeating legs, auto-reverse, delays and holds.
@Suite struct TimingTests {
    /// The linkedin bar: 0.85 s legs, auto-reversing, forever.
    @Test func autoreversingLegs() {
        let timing = Repeating(duration: 850_000, autoreverses: true)
        #expect(timing.cycleDuration == 1_700_000)
        #expect(timing.fraction(at: 0) == .zero)
        #expect(timing.fraction(at: 425_000) == .half)
        #expect(timing.fraction(at: 850_000) == .one)
        #expect(timing.fraction(at: 1_275_000) == .half)
        #expect(timing.fraction(at: 1_700_000) == .zero)
        #expect(timing.fraction(at: 1_700_000 + 212_500) == Fixed(1, over: 4))
        #expect(timing.fraction(at: 850_000 + 212_500) == Fixed(3, over: 4))
        #expect(timing.cycle(at: 0) == 0)
        #expect(timing.cycle(at: 1_699_999) == 0)
        #expect(timing.cycle(at: 1_700_000) == 1)
    }

    /// The shimmer presets: 2 s legs with a 0.5 s pause.
    @Test func repeatDelayHolds() {
        let end = Repeating(duration: 2_000_000, repeatDelay: 500_000)
        let start = Repeating(duration: 2_000_000, repeatDelay: 500_000, hold: .start)
        #expect(end.fraction(at: 1_000_000) == .half)
        #expect(start.fraction(at: 1_000_000) == .half)
        #expect(end.fraction(at: 2_000_000) == .one)
        #expect(end.fraction(at: 2_499_999) == .one)
        #expect(start.fraction(at: 2_000_000) == .zero)
        #expect(start.fraction(at: 2_499_999) == .zero)
        #expect(end.fraction(at: 2_500_000) == .zero)
        #expect(end.cycle(at: 2_499_999) == 0)
        #expect(end.cycle(at: 2_500_000) == 1)
        let reversing = Repeating(duration: 1_000_000, autoreverses: true, repeatDelay: 300_000)
        #expect(reversing.fraction(at: 2_100_000) == .zero)
        #expect(reversing.fraction(at: 2_300_000) == .zero)
        #expect(reversing.fraction(at: 2_800_000) == .half)
    }

    @Test func startDelay() {
        let timing = Repeating(duration: 1_000_000, delay: 250_000)
        #expect(timing.fraction(at: 0) == .zero)
        #expect(timing.fraction(at: 249_999) == .zero)
        #expect(timing.cycle(at: 249_999) == -1)
        #expect(timing.cycle(at: .min) == -1)
        #expect(timing.fraction(at: 250_000) == .zero)
        #expect(timing.cycle(at: 250_000) == 0)
        #expect(timing.fraction(at: 750_000) == .half)
        let early = Repeating(duration: 1_000_000, delay: -250_000)  // starts a quarter in
        #expect(early.fraction(at: 0) == Fixed(1, over: 4))
        #expect(early.fraction(at: -250_000) == .zero)
        #expect(early.cycle(at: 750_000) == 1)
    }

    @Test func degenerateInputs() {
        let instant = Repeating(duration: 0)
        #expect(instant.fraction(at: 0) == .one)
        #expect(instant.fraction(at: 1_000) == .one)
        #expect(instant.cycle(at: 1_000) == 0)
        #expect(Repeating(duration: 0, autoreverses: true).fraction(at: 5) == .zero)
        #expect(Repeating(duration: -5).duration == 0)
        #expect(Repeating(duration: 5, repeatDelay: -5).repeatDelay == 0)
        let huge = Repeating(duration: .max, autoreverses: true, delay: .min, repeatDelay: .max)
        #expect(huge.fraction(at: .max) >= .zero)
        #expect(huge.fraction(at: .min) >= .zero)
        _ = huge.cycle(at: .max)
        let normal = Repeating(duration: 1_000, delay: 5)
        #expect(normal.fraction(at: .max) <= .one)
        #expect(normal.fraction(at: .min) == .zero)
    }

    /// Time is derived: the fraction at t is the exact fraction of the leg, and adding whole
    /// cycles changes nothing, however late.
    @Test func derivedAndPeriodic() async {
        await propertyCheck(count: 500, input: Gen.int64(in: 1...5_000_000), Gen.int64(in: 0...2_000_000),
                            Gen.int64(in: 0...(1 << 40)), Gen.bool()) { duration, repeatDelay, t, autoreverses in
            let timing = Repeating(duration: duration, autoreverses: autoreverses, delay: 100, repeatDelay: repeatDelay)
            let f = timing.fraction(at: t)
            #expect(f >= .zero && f <= .one)
            let later = t + 1_000 * timing.cycleDuration
            #expect(timing.fraction(at: later) == f)
            if t >= 100 { #expect(timing.cycle(at: later) == timing.cycle(at: t) + 1_000) }
            let c = (t - 100) % timing.cycleDuration
            if t >= 100 && c < duration { #expect(f == Fixed.ratio(c, duration)) }
        }
    }

    @Test func timingCurves() {
        #expect(TimingCurve.linear(Fixed(1, over: 3)) == Fixed(1, over: 3))
        #expect(TimingCurve.linear(Fixed(-1)) == .zero)
        #expect(TimingCurve.linear(Fixed(2)) == .one)
        let bar = CubicBezier(x1: 0.6, y1: 0, x2: 0.4, y2: 1)
        for raw in stride(from: Int32(-100), through: 65_700, by: 113) {
            let t = Fixed(raw: raw)
            #expect(TimingCurve.bezier(bar)(t) == bar(t))
            #expect(TimingCurve.easeOut(t) == CubicBezier.easeOut(t))
        }
        #expect(TimingCurve.ease == .bezier(.ease))
        #expect(TimingCurve.easeIn == .bezier(.easeIn))
        #expect(TimingCurve.easeInOut == .bezier(.easeInOut))
    }

    /// LOADERS.md worked values for the linkedin bar at W = 100: the fill (width 50) is centred
    /// at W · curve(fraction), so the visible part is [centre − 25, centre + 25) ∩ [0, 100].
    @Test func linkedinWorkedValues() {
        let timing = Repeating(duration: 850_000, autoreverses: true)
        let curve = TimingCurve.bezier(CubicBezier(x1: 0.6, y1: 0, x2: 0.4, y2: 1))
        func centre(_ t: Microseconds) -> Fixed { Fixed(100) * curve(timing.fraction(at: t)) }
        #expect(centre(0) == .zero)
        #expect((centre(425_000) - Fixed(50)).magnitude <= Fixed(1, over: 100))
        #expect(centre(850_000) == Fixed(100))
        #expect((centre(1_275_000) - Fixed(50)).magnitude <= Fixed(1, over: 100))
    }
}
