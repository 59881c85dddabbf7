/// A CSS / Core Animation timing curve, `cubic-bezier(x1, y1, x2, y2)`, evaluated in integers.
///
/// The curve runs from P0 = (0, 0) to P3 = (1, 1) with control points P1 = (x1, y1) and
/// P2 = (x2, y2). A progress t is mapped by solving x(s) = t for the curve parameter s and
/// returning y(s). This is what lets loaders use the timing curves their articles name
/// (ease-out circles, the LinkedIn bar's (0.6, 0, 0.4, 1)) and come out frame-exact on every box.
///
/// Why integers with extra fraction bits: Q16.16 alone loses the solve near flat stretches of
/// x(s), so the control points are kept and the polynomial is evaluated in `Int64` with 28
/// fraction bits for s and x (Q4.28) and 24 for y (which may leave 0...1). The coefficients are
/// precomputed once, exactly, in `init`.
/// Per call: Newton's method (usually 2–4 steps of three multiplies and a divide) with a
/// bisection fallback (≤ 30 steps) where the slope is too flat for Newton; no allocation.
///
/// Domain: x1 and x2 are clamped to 0...1 (as CSS requires, so that x(s) is monotonic); y1 and
/// y2 are clamped to −16...16 (anything beyond is not a timing curve anyone means). t is clamped
/// to 0...1: t ≤ 0 gives 0 and t ≥ 1 gives 1 (CSS would extrapolate; loaders never ask).
///
/// Error: |curve(t) − y(s*)| ≤ 1/20000, where s* is the exact root of x(s) = t for the control
/// points as written (decimals keep 28 bits, so the bound covers their rounding too). Measured
/// against a `Double` reference over 10,001 t (CubicBezierTests): ≤ 7.8 × 10⁻⁶, i.e. the final
/// rounding to Q16.16 (7.6 × 10⁻⁶) plus < 2 × 10⁻⁷, for the CSS presets, the loaders' curves,
/// overshooting curves and random control points in [0, 1]⁴; 1.2 × 10⁻⁵ where x is flat at an
/// end, (1, 0, 1, 0); 2.1 × 10⁻⁵ with y1, y2 = ±16. The loaders' requirement is 1/1000.
public struct CubicBezier: Sendable, Hashable {
    // The control points, x in Q4.28 and y in Q8.24: finer than Q16.16 so that a curve written
    // as decimals (0.42, 0.58, ...) is the curve CSS means, not one nudged by 1/131072.
    @usableFromInline let x1Q28: Int64, x2Q28: Int64, y1Q24: Int64, y2Q24: Int64

    // x(s) = ((ax·s + bx)·s + cx)·s in Q4.28; y(s) likewise with Q8.24 coefficients (s stays Q28).
    @usableFromInline let ax: Int64, bx: Int64, cx: Int64
    @usableFromInline let ay: Int64, by: Int64, cy: Int64

    @usableFromInline static let oneQ28: Int64 = 1 << 28
    /// Newton / bisection stop when |x(s) − t| ≤ 2⁻²⁶.
    @usableFromInline static let toleranceQ28: Int64 = 1 << 2

    /// Control points in Q16.16 (converted exactly).
    public init(_ x1: Fixed, _ y1: Fixed, _ x2: Fixed, _ y2: Fixed) {
        self.init(x1Q28: Int64(x1.raw) << 12, y1Q24: Int64(y1.raw) << 8, x2Q28: Int64(x2.raw) << 12, y2Q24: Int64(y2.raw) << 8)
    }

    /// Input boundary (config, command line, presets written as decimals): keeps 28 fraction
    /// bits of x and 24 of y. NaN counts as 0. Not per frame.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        func scaled(_ v: Double, _ scale: Double, _ limit: Double) -> Int64 {
            v.isNaN ? 0 : Int64((Swift.min(Swift.max(v, -limit), limit) * scale).rounded())
        }
        self.init(x1Q28: scaled(x1, 268_435_456, 2), y1Q24: scaled(y1, 16_777_216, 16),
                  x2Q28: scaled(x2, 268_435_456, 2), y2Q24: scaled(y2, 16_777_216, 16))
    }

    /// Clamps (x to 0...1, y to −16...16) and precomputes the polynomial coefficients exactly.
    init(x1Q28: Int64, y1Q24: Int64, x2Q28: Int64, y2Q24: Int64) {
        let one = CubicBezier.oneQ28
        let x1 = Swift.min(Swift.max(x1Q28, 0), one), x2 = Swift.min(Swift.max(x2Q28, 0), one)
        let y1 = Swift.min(Swift.max(y1Q24, -16 << 24), 16 << 24), y2 = Swift.min(Swift.max(y2Q24, -16 << 24), 16 << 24)
        self.x1Q28 = x1; self.x2Q28 = x2; self.y1Q24 = y1; self.y2Q24 = y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = one - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = (1 << 24) - cy - by
    }

    /// The control points, rounded to Q16.16 (for display and configuration round trips).
    public var x1: Fixed { Fixed(saturatingRaw: (x1Q28 + (1 << 11)) >> 12) }
    public var y1: Fixed { Fixed(saturatingRaw: (y1Q24 + (1 << 7)) >> 8) }
    public var x2: Fixed { Fixed(saturatingRaw: (x2Q28 + (1 << 11)) >> 12) }
    public var y2: Fixed { Fixed(saturatingRaw: (y2Q24 + (1 << 7)) >> 8) }

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
    public static let ease = CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
    /// CSS `ease-in`: cubic-bezier(0.42, 0, 1, 1).
    public static let easeIn = CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// CSS `ease-out`: cubic-bezier(0, 0, 0.58, 1).
    public static let easeOut = CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// CSS `ease-in-out`: cubic-bezier(0.42, 0, 0.58, 1).
    public static let easeInOut = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
}
