/// A CSS / Core Animation timing curve, `cubic-bezier(x1, y1, x2, y2)`, evaluated in integers.
///
/// The curve runs from P0 = (0, 0) to P3 = (1, 1) with control points P1 = (x1, y1) and
/// P2 = (x2, y2). A progress t is mapped by solving x(s) = t for the curve parameter s and
/// returning y(s). This is what lets loaders use the timing curves their articles name
/// (ease-out circles, the LinkedIn bar's (0.6, 0, 0.4, 1)) and come out frame-exact on every box.
///
/// Why integers with extra fraction bits: Q16.16 alone loses the solve near flat stretches of
/// x(s), so the polynomial is evaluated in `Int64` with 28 fraction bits for s and x (Q4.28) and
/// 24 for y (which may leave 0...1). The coefficients are precomputed once, exactly, in `init`.
/// Per call: Newton's method (usually 2–4 steps of three multiplies and a divide) with a
/// bisection fallback (≤ 30 steps) where the slope is too flat for Newton; no allocation.
///
/// Domain: x1 and x2 are clamped to 0...1 (as CSS requires, so that x(s) is monotonic); y1 and
/// y2 are clamped to −16...16 (anything beyond is not a timing curve anyone means). t is clamped
/// to 0...1: t ≤ 0 gives 0 and t ≥ 1 gives 1 (CSS would extrapolate; loaders never ask).
///
/// Error: |curve(t) − y(s*)| ≤ 1/20000, where s* is the exact root of x(s) = t and the control
/// points are the decimals as written (so the bound includes rounding them to Q16.16). Measured
/// against a `Double` reference over 10,000 t (CubicBezierTests): ≤ 1.2 × 10⁻⁵ for the CSS
/// presets, the loaders' curves and random control points in [0, 1]⁴; ≤ 2.4 × 10⁻⁵ for curves
/// overshooting to y = −0.55...1.55 or with y1, y2 = ±16. The final rounding to Q16.16 alone is
/// 7.6 × 10⁻⁶. The loaders' requirement is 1/1000.
public struct CubicBezier: Sendable, Hashable {
    public let x1: Fixed, y1: Fixed, x2: Fixed, y2: Fixed

    // x(s) = ((ax·s + bx)·s + cx)·s in Q4.28; y(s) likewise in Q8.24 coefficients (s stays Q28).
    @usableFromInline let ax: Int64, bx: Int64, cx: Int64
    @usableFromInline let ay: Int64, by: Int64, cy: Int64

    @usableFromInline static let oneQ28: Int64 = 1 << 28
    /// Newton / bisection stop when |x(s) − t| ≤ 2⁻²⁶.
    @usableFromInline static let toleranceQ28: Int64 = 1 << 2

    public init(_ x1: Fixed, _ y1: Fixed, _ x2: Fixed, _ y2: Fixed) {
        let x1 = x1.unitClamped, x2 = x2.unitClamped
        let y1 = y1.clamped(-16, 16), y2 = y2.clamped(-16, 16)
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        // Q16.16 → Q28 and → Q24 are exact shifts, so the coefficients are exact.
        let cx = 3 * (Int64(x1.raw) << 12)
        let bx = 3 * ((Int64(x2.raw) - Int64(x1.raw)) << 12) - cx
        self.cx = cx; self.bx = bx; self.ax = CubicBezier.oneQ28 - cx - bx
        let cy = 3 * (Int64(y1.raw) << 8)
        let by = 3 * ((Int64(y2.raw) - Int64(y1.raw)) << 8) - cy
        self.cy = cy; self.by = by; self.ay = (1 << 24) - cy - by
    }

    /// Input boundary (config, presets written as decimals): rounds to Q16.16. Not per frame.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.init(Fixed(x1), Fixed(y1), Fixed(x2), Fixed(y2))
    }

    /// The progress at time fraction `t` (clamped to 0...1).
    @inlinable public func callAsFunction(_ t: Fixed) -> Fixed {
        if t.raw <= 0 { return .zero }
        if t.raw >= 1 << 16 { return .one }
        let s = solve(Int64(t.raw) << 12)
        return Fixed(saturatingRaw: (sampleY(s) + (1 << 7)) >> 8)
    }

    @inlinable func sampleX(_ s: Int64) -> Int64 {
        (((((((ax * s) >> 28) + bx) * s) >> 28) + cx) * s) >> 28
    }

    @inlinable func sampleY(_ s: Int64) -> Int64 {
        (((((((ay * s) >> 28) + by) * s) >> 28) + cy) * s) >> 28
    }

    /// dx/ds in Q28.
    @inlinable func slopeX(_ s: Int64) -> Int64 {
        (((((3 * ax * s) >> 28) + 2 * bx) * s) >> 28) + cx
    }

    /// The s in 0...1 (Q28) with x(s) = t (Q28, in 0...1).
    @inlinable func solve(_ t: Int64) -> Int64 {
        let tolerance = CubicBezier.toleranceQ28
        var s = t
        for _ in 0..<8 {
            let error = sampleX(s) - t
            if error.magnitude <= tolerance { return s }
            let slope = slopeX(s)
            if slope.magnitude < 1 << 16 { break }      // flatter than 2⁻¹²: Newton would overshoot
            s -= (error << 28) / slope
            if s < 0 || s > CubicBezier.oneQ28 { break }
        }
        // x(s) is monotonic on 0...1, so bisection always converges: ≤ 30 halvings of 2²⁸.
        var lo: Int64 = 0, hi = CubicBezier.oneQ28
        s = t
        for _ in 0..<30 {
            let x = sampleX(s)
            if (x - t).magnitude <= tolerance { return s }
            if x < t { lo = s } else { hi = s }
            s = (lo + hi) >> 1
        }
        return s
    }

    public static let linear = CubicBezier(0, 0, 1, 1)
    /// CSS `ease`: cubic-bezier(0.25, 0.1, 0.25, 1).
    public static let ease = CubicBezier(Fixed(raw: 16384), Fixed(raw: 6554), Fixed(raw: 16384), .one)
    /// CSS `ease-in`: cubic-bezier(0.42, 0, 1, 1).
    public static let easeIn = CubicBezier(Fixed(raw: 27525), .zero, .one, .one)
    /// CSS `ease-out`: cubic-bezier(0, 0, 0.58, 1).
    public static let easeOut = CubicBezier(.zero, .zero, Fixed(raw: 38011), .one)
    /// CSS `ease-in-out`: cubic-bezier(0.42, 0, 0.58, 1).
    public static let easeInOut = CubicBezier(Fixed(raw: 27525), .zero, Fixed(raw: 38011), .one)
}
