/// A damped spring moving from rest at 0 to a target of 1, in the SwiftUI parametrisation
/// (`response`, `dampingFraction`), evaluated in closed form from the elapsed time.
///
/// Why closed form: time is derived, so a frame must be a function of t alone; integrating the
/// spring step by step would make the result depend on frame timing. Mass 1, stiffness
/// k = (2π / response)², damping c = 4π · dampingFraction / response, so ω₀ = 2π / response and
/// ζ = dampingFraction. With the deviation d(t) = 1 − x(t):
/// - under-damped (ζ < 1):  d = e^(−ζω₀t) · (cos ω_d t + ζ/√(1−ζ²) · sin ω_d t), ω_d = ω₀√(1−ζ²)
/// - critically damped:    d = e^(−ω₀t) · (1 + ω₀t)
/// - over-damped (ζ > 1):  d = A·e^(−a t) − B·e^(−b t), a, b = ω₀(ζ ∓ √(ζ²−1)), A = b/(b−a), B = a/(b−a)
///
/// `init` runs once when a loader starts and may use `Double` (it converts the rates into
/// integer coefficients); `value(at:)` runs per frame and is integer only: two table lookups for
/// the exponential (`Fixed.exp2NegativeQ30`), two for the oscillation (`Fixed.sineQ30`), a handful
/// of 64-bit multiplies. The oscillation phase is t × frequency taken modulo one turn with
/// wrapping integer arithmetic, so it stays exact for any t (an undamped spring runs for ever).
///
/// Damping fractions within 10⁻⁴ of 1 use the critical form (the other two divide by √|1−ζ²|;
/// the difference is below 10⁻⁴). Inputs are clamped: response ≥ 1 ms, 0 ≤ dampingFraction ≤ 100.
///
/// Error: |value(at: t) − x(t)| ≤ 1/20000 against the `Double` closed form with the same
/// (Q16.16) parameters. Measured over t = 0...2 s every 250 µs (SpringTests): ≤ 1.3 × 10⁻⁵ for
/// ζ = 0...0.9999 and 1.001...20, ≤ 2.9 × 10⁻⁵ at ζ = 1.0001 where the critical form stands in.
/// The loaders' requirement is 1/500.
public struct Spring: Sendable, Hashable {
    public let response: Fixed
    public let dampingFraction: Fixed
    /// Time after which |value(at: t) − 1| < 1/1000 for ever: the spring is at rest, a loader can
    /// stop redrawing it. For under-damped springs this is where the decay envelope
    /// e^(−ζω₀t)/√(1−ζ²) falls below 1/1000 (conservative by at most one half-oscillation);
    /// for the others the deviation itself. `Microseconds.max` for an undamped spring (ζ = 0).
    public private(set) var settlingDuration: Microseconds

    @usableFromInline enum Kind: Sendable, Hashable { case under, critical, over }
    @usableFromInline let kind: Kind
    /// Decay rates in log₂ units per microsecond, Q48: e^(−r t) = 2^(−t · rate / 2⁴⁸).
    /// under: ζω₀; critical: ω₀; over: rate1 = a (slow), rate2 = b (fast).
    @usableFromInline let rate1: Int64, rate2: Int64
    /// t from which the term's exponent is ≥ 31 (it is 0 in Q30); also keeps t · rate in range.
    @usableFromInline let cutoff1: Microseconds, cutoff2: Microseconds
    /// under: ω_d / 2π in turns per microsecond, Q48. critical: ω₀ per microsecond, Q48.
    @usableFromInline let frequency: Int64
    /// under: ζ/√(1−ζ²) (the sine's weight), Q24. over: A and B, Q24.
    @usableFromInline let weight1: Int64, weight2: Int64

    public init(response: Fixed, dampingFraction: Fixed) {
        let response = Swift.max(response, Fixed(raw: 66))  // ≥ 1 ms
        let dampingFraction = dampingFraction.clamped(.zero, 100)
        self.response = response
        self.dampingFraction = dampingFraction
        let r = Double(response.raw) / 65536, zeta = Double(dampingFraction.raw) / 65536
        let omega0PerMicrosecond = 2 * Double.pi / r / 1e6
        let log2e = 1.4426950408889634
        let q48 = 281_474_976_710_656.0  // 2⁴⁸
        func rate(_ perMicrosecond: Double) -> Int64 { Int64((perMicrosecond * log2e * q48).rounded()) }
        func cutoff(_ rate: Int64) -> Microseconds { rate <= 0 ? .max : (31 << 48) / rate }
        func q24(_ v: Double) -> Int64 { Int64((v * 16_777_216).rounded()) }

        if (zeta - 1).magnitude < 1e-4 {
            kind = .critical
            rate1 = rate(omega0PerMicrosecond); rate2 = 0
            frequency = Int64((omega0PerMicrosecond * q48).rounded())
            weight1 = 0; weight2 = 0
        } else if zeta < 1 {
            kind = .under
            let root = (1 - zeta * zeta).squareRoot()
            rate1 = rate(zeta * omega0PerMicrosecond); rate2 = 0
            frequency = Int64((root / r / 1e6 * q48).rounded())
            weight1 = q24(zeta / root); weight2 = q24(1 / root)  // weight2: the envelope's height
        } else {
            kind = .over
            let root = (zeta * zeta - 1).squareRoot()
            let fast = zeta + root, slow = 1 / fast  // slow = ζ − √(ζ²−1) without cancellation
            rate1 = rate(slow * omega0PerMicrosecond); rate2 = rate(fast * omega0PerMicrosecond)
            frequency = 0
            weight1 = q24(fast / (fast - slow)); weight2 = q24(slow / (fast - slow))
        }
        cutoff1 = cutoff(rate1); cutoff2 = cutoff(rate2)
        settlingDuration = 0  // every stored property must be set before `self` can be used
        settlingDuration = findSettlingDuration()
    }

    /// Input boundary (config, command line). Not per frame.
    public init(response: Double, dampingFraction: Double) {
        self.init(response: Fixed(response), dampingFraction: Fixed(dampingFraction))
    }

    /// Position at `t` microseconds after the spring was released: 0 for t ≤ 0, heading to 1.
    @inlinable public func value(at t: Microseconds) -> Fixed {
        if t <= 0 { return .zero }
        let position = (1 << 30) - deviationQ30(t)
        return Fixed(saturatingRaw: (position + (1 << 13)) >> 14)
    }

    /// 1 − x(t) in Q2.30, for t > 0.
    @inlinable func deviationQ30(_ t: Microseconds) -> Int64 {
        switch kind {
        case .under:
            if t >= cutoff1 { return 0 }
            let decay = Fixed.exp2NegativeQ30(q32: (t * rate1) >> 16)
            // Phase in 2⁻³² turns: bits 16...47 of t · frequency; wrapping keeps them exact.
            let phase = UInt32(truncatingIfNeeded: (UInt64(t) &* UInt64(frequency)) >> 16)
            let amplitude = (Fixed.cosineQ30(phase: phase) >> 6) + ((weight1 * Fixed.sineQ30(phase: phase)) >> 30)  // Q24
            return (decay * amplitude) >> 24
        case .critical:
            if t >= cutoff1 { return 0 }
            let decay = Fixed.exp2NegativeQ30(q32: (t * rate1) >> 16)
            let omegaT = (t * frequency) >> 18  // Q30; t · frequency < t · rate1 ≤ 31 · 2⁴⁸
            return (decay * ((1 << 30) + omegaT)) >> 30  // (1 + u)·e^(−u) ≤ 1, so < 2⁶¹
        case .over:
            var deviation: Int64 = 0
            if t < cutoff1 { deviation += (weight1 * Fixed.exp2NegativeQ30(q32: (t * rate1) >> 16)) >> 24 }
            if t < cutoff2 { deviation -= (weight2 * Fixed.exp2NegativeQ30(q32: (t * rate2) >> 16)) >> 24 }
            return deviation
        }
    }

    /// Init only: the first t from which the (non-increasing) envelope stays below 1/1000.
    private func findSettlingDuration() -> Microseconds {
        if cutoff1 == .max { return .max }  // undamped
        let threshold: Int64 = (1 << 30) / 1000
        func envelope(_ t: Microseconds) -> Int64 {
            switch kind {
            case .under:
                if t >= cutoff1 { return 0 }
                return (Fixed.exp2NegativeQ30(q32: (t * rate1) >> 16) * weight2) >> 24
            case .critical, .over:
                return t <= 0 ? 1 << 30 : deviationQ30(t)
            }
        }
        var lo: Microseconds = 0, hi = cutoff1  // envelope(lo) ≥ threshold, envelope(hi) = 0
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if envelope(mid) < threshold { hi = mid } else { lo = mid }
        }
        return hi
    }
}
