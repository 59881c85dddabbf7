/// A signed Q16.16 fixed-point number: 16 integer bits, 16 fraction bits, in an `Int32`.
///
/// Everything the renderer does per frame is in `Fixed` (or plain integers): positions in pixels,
/// times as fractions of a period, colours' opacities. Integer arithmetic makes a frame bit-exact
/// on every machine, which is what lets the golden tests compare frames byte for byte, and it is
/// cheap on cores with a slow or missing FPU.
///
/// Range: −32768 ... 32767.99998, step 1/65536 (≈ 0.0000153).
///
/// Overflow: `+`, `−`, `×`, `÷` and the integer conversions *saturate* at `Fixed.min` / `Fixed.max`
/// instead of wrapping, so a coordinate that runs off a 4096-pixel canvas stays far off-canvas
/// instead of wrapping around into garbage on the other side. Division by zero saturates towards
/// the sign of the dividend (0 / 0 is 0). The `&+`-style wrapping operators are not provided on
/// purpose.
///
/// `Double` enters only at input boundaries (config, command line, protocol) through
/// `init(_: Double)`; nothing called per frame converts to or from floating point.
public struct Fixed: Sendable, Hashable, Comparable {
    /// The raw Q16.16 bits: `value × 65536`.
    public var raw: Int32

    public static let fractionBits: Int32 = 16
    public static let scale: Int64 = 1 << 16

    @inlinable public init(raw: Int32) { self.raw = raw }

    /// Saturating construction from a 64-bit raw value.
    @inlinable public init(saturatingRaw value: Int64) {
        if value > Int64(Int32.max) { raw = .max } else if value < Int64(Int32.min) { raw = .min } else { raw = Int32(truncatingIfNeeded: value) }
    }

    /// An integer, saturated to the representable range.
    @inlinable public init(_ integer: Int) {
        if integer > 32767 { raw = .max } else if integer < -32768 { raw = .min } else { raw = Int32(truncatingIfNeeded: integer) << 16 }
    }

    /// `numerator / denominator`, rounded to nearest. Saturates; a zero denominator saturates by sign.
    @inlinable public init(_ numerator: Int, over denominator: Int) {
        self = Fixed.ratio(Int64(numerator), Int64(denominator))
    }

    /// Input-boundary conversion (config files, command lines). Rounds to nearest; NaN becomes 0;
    /// out-of-range values saturate. Never call this per frame.
    public init(_ value: Double) {
        if value.isNaN { raw = 0; return }
        let scaled = (value * 65536).rounded()
        if scaled >= Double(Int32.max) { raw = .max } else if scaled <= Double(Int32.min) { raw = .min } else { raw = Int32(scaled) }
    }

    /// `a / b` as a fixed-point fraction, rounded to nearest, saturating. Used to turn integer
    /// times (microseconds) into fractions of a period without ever passing through floating point.
    @inlinable public static func ratio(_ a: Int64, _ b: Int64) -> Fixed {
        if b == 0 { return a == 0 ? .zero : (a > 0 ? .max : .min) }
        let (shifted, overflow) = a.multipliedReportingOverflow(by: scale)
        if overflow || (shifted == .min && b == -1) { return wideRatio(a, b) }
        let (q, r) = shifted.quotientAndRemainder(dividingBy: b)
        return rounded(q, r, a, b)
    }

    /// `ratio` for |a| ≥ 2⁴⁷ µs (4.4 years), where a·2¹⁶ overflows: the quotient is still in range
    /// when b is large too, so it is found without saturating. a·2¹⁶/b is whole·2¹⁶ plus
    /// rest·2¹⁶/b with |rest| < |b|, and that fraction's sixteen bits come from long division of
    /// the magnitudes (twice rest still fits in 64 bits). Out of line and without 128-bit
    /// arithmetic: `dividingFullWidth` was a call to the C library's 128-bit division
    /// (`__divti3`, 0.9 KB of aarch64's loaderd) inlined at every use of `ratio`.
    @usableFromInline @inline(never) static func wideRatio(_ a: Int64, _ b: Int64) -> Fixed {
        let (whole, wholeOverflow) = a.dividedReportingOverflow(by: b)  // Int64.min / −1
        if wholeOverflow || whole.magnitude >= 32768 { return (a < 0) != (b < 0) ? .min : .max }
        var rest = (a - whole * b).magnitude  // |whole·b| ≤ |a|: no overflow
        let divisor = b.magnitude
        var fraction: Int64 = 0
        for _ in 0..<fractionBits {
            rest <<= 1
            fraction <<= 1
            if rest >= divisor { rest -= divisor; fraction |= 1 }
        }
        let q = whole * scale + ((a < 0) != (b < 0) ? -fraction : fraction)  // |q| < 2³¹
        return rounded(q, a < 0 ? -Int64(rest) : Int64(rest), a, b)
    }

    /// q rounded by the remainder r of a / b: halves away from zero. From the remainder, since
    /// adding b/2 before dividing could overflow when both are near 2⁶³.
    @inlinable static func rounded(_ q: Int64, _ r: Int64, _ a: Int64, _ b: Int64) -> Fixed {
        let rounded = r.magnitude >= b.magnitude - r.magnitude ? q + ((a < 0) == (b < 0) ? 1 : -1) : q
        return Fixed(saturatingRaw: rounded)
    }

    // Computed and inlinable rather than `static let`: a stored static is a lazily initialised
    // global that other modules reach through an accessor call, on every use, per pixel.
    @inlinable public static var zero: Fixed { Fixed(raw: 0) }
    @inlinable public static var one: Fixed { Fixed(raw: 1 << 16) }
    @inlinable public static var half: Fixed { Fixed(raw: 1 << 15) }
    @inlinable public static var max: Fixed { Fixed(raw: .max) }
    @inlinable public static var min: Fixed { Fixed(raw: .min) }
    /// The smallest positive step, 1/65536.
    @inlinable public static var epsilon: Fixed { Fixed(raw: 1) }

    // MARK: Conversions out

    /// The largest integer ≤ self.
    @inlinable public var floor: Int { Int(raw >> 16) }
    /// The smallest integer ≥ self.
    @inlinable public var ceil: Int { Int((Int64(raw) + 0xFFFF) >> 16) }
    /// Nearest integer, halves rounded up.
    @inlinable public var rounded: Int { Int((Int64(raw) + 0x8000) >> 16) }
    /// self − floor(self), in [0, 1).
    @inlinable public var fraction: Fixed { Fixed(raw: raw & 0xFFFF) }
    /// For tests and diagnostics only.
    public var double: Double { Double(raw) / 65536 }

    /// Value × 255, rounded and clamped to 0...255: an opacity or channel as a byte.
    @inlinable public var unitByte: UInt8 {
        if raw <= 0 { return 0 }
        if raw >= 1 << 16 { return 255 }
        return UInt8(truncatingIfNeeded: (Int64(raw) * 255 + 0x8000) >> 16)
    }

    /// A byte 0...255 as a fraction 0...1.
    @inlinable public init(unitByte b: UInt8) { self = Fixed.ratio(Int64(b), 255) }

    // MARK: Arithmetic (saturating)

    @inlinable public static func + (a: Fixed, b: Fixed) -> Fixed { Fixed(saturatingRaw: Int64(a.raw) + Int64(b.raw)) }
    @inlinable public static func - (a: Fixed, b: Fixed) -> Fixed { Fixed(saturatingRaw: Int64(a.raw) - Int64(b.raw)) }
    @inlinable public static prefix func - (a: Fixed) -> Fixed { Fixed(saturatingRaw: -Int64(a.raw)) }
    /// Product, rounded to nearest.
    @inlinable public static func * (a: Fixed, b: Fixed) -> Fixed { Fixed(saturatingRaw: (Int64(a.raw) * Int64(b.raw) + 0x8000) >> 16) }
    /// Quotient, truncated towards zero. Division by zero saturates by the dividend's sign.
    @inlinable public static func / (a: Fixed, b: Fixed) -> Fixed {
        if b.raw == 0 { return a.raw == 0 ? .zero : (a.raw > 0 ? .max : .min) }
        return Fixed(saturatingRaw: (Int64(a.raw) << 16) / Int64(b.raw))
    }
    @inlinable public static func * (a: Fixed, b: Int) -> Fixed {
        let (product, overflow) = Int64(a.raw).multipliedReportingOverflow(by: Int64(clamping: b))
        if overflow { return (a.raw < 0) != (b < 0) ? .min : .max }
        return Fixed(saturatingRaw: product)
    }
    @inlinable public static func * (a: Int, b: Fixed) -> Fixed { b * a }
    @inlinable public static func / (a: Fixed, b: Int) -> Fixed {
        if b == 0 { return a.raw == 0 ? .zero : (a.raw > 0 ? .max : .min) }
        return Fixed(saturatingRaw: Int64(a.raw) / Int64(b))
    }

    @inlinable public static func += (a: inout Fixed, b: Fixed) { a = a + b }
    @inlinable public static func -= (a: inout Fixed, b: Fixed) { a = a - b }
    @inlinable public static func *= (a: inout Fixed, b: Fixed) { a = a * b }

    @inlinable public static func < (a: Fixed, b: Fixed) -> Bool { a.raw < b.raw }

    @inlinable public var magnitude: Fixed { raw < 0 ? -self : self }

    /// Clamped to lower...upper.
    @inlinable public func clamped(_ lower: Fixed, _ upper: Fixed) -> Fixed { self < lower ? lower : (self > upper ? upper : self) }
    /// Clamped to 0...1: the usual state of a progress, opacity or curve parameter.
    @inlinable public var unitClamped: Fixed { clamped(.zero, .one) }

    /// Linear interpolation a + (b − a) × t.
    @inlinable public static func lerp(_ a: Fixed, _ b: Fixed, _ t: Fixed) -> Fixed { a + (b - a) * t }
}

extension Fixed: CustomStringConvertible {
    public var description: String {
        // Exact decimal rendering without floating point: up to 5 fraction digits.
        let negative = raw < 0
        let magnitude = Int64(raw).magnitude
        let whole = magnitude >> 16
        let frac = ((magnitude & 0xFFFF) * 100_000 + 0x8000) >> 16
        var wholePart = whole, fracPart = frac
        if fracPart >= 100_000 { wholePart += 1; fracPart -= 100_000 }
        var digits = String(fracPart)
        while digits.count < 5 { digits = "0" + digits }
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        return (negative ? "-" : "") + String(wholePart) + (digits == "0" ? "" : "." + digits)
    }
}

extension Fixed: ExpressibleByIntegerLiteral {
    @inlinable public init(integerLiteral value: Int) { self.init(value) }
}
