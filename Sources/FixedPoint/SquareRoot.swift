/// Integer square root: the largest r with r × r ≤ n. Exact, no floating point.
///
/// It runs per edge pixel (through `Fixed.hypot`), so it is Newton's method from a close start
/// instead of the 32-step digit-by-digit loop: the top 7–8 bits of n (an even shift, so the
/// root's exponent is exact) pick a root with ~7 correct bits from `isqrtEstimates`, and each
/// Newton step x ← ⌊(x + ⌊n / x⌋) / 2⌋ doubles that. After any step x ≥ r (the integer AM–GM
/// inequality), so a final decrement makes it exact.
@inlinable public func isqrt(_ n: UInt64) -> UInt64 {
    if n < 2 { return n }
    var x = isqrtTableEstimate(n)
    // Relative error < 2⁻⁶ here (so x + n / x cannot overflow), < 2⁻¹³ after one step, < 2⁻²⁷
    // after two: enough for roots below 2²⁴ (n < 2⁴⁸, every pixel distance) to be within one of
    // r; larger inputs take a third step.
    x = (x + n / x) >> 1
    x = (x + n / x) >> 1
    if n >> 48 != 0 { x = (x + n / x) >> 1 }
    // The root of a UInt64 is < 2³², so clamping keeps x ≥ r and the square cannot overflow.
    x = Swift.min(x, 0xFFFF_FFFF)
    while x * x > n { x -= 1 }
    return x
}

/// A start for Newton's method on n ≥ 2: √n with relative error < 2⁻⁶, from the top 7–8 bits of n
/// (an even shift, so the root's exponent is exact) looked up in `isqrtEstimates`. Never 0.
@inlinable @inline(__always) func isqrtTableEstimate(_ n: UInt64) -> UInt64 {
    let bits = 64 - n.leadingZeroBitCount                // 2...64
    let shift = bits > 8 ? (bits - 7) & ~1 : 0           // even: n >> shift keeps 7 or 8 bits
    let top = Int(truncatingIfNeeded: n >> UInt64(shift)) // < 256
    return Swift.max(1, (UInt64(isqrtEstimates[top]) << UInt64(shift / 2)) >> 4)
}

/// √n within a relative error of 2⁻¹³ (one Newton step from `isqrtTableEstimate`), for callers
/// that only need to know roughly where the root is and then decide exactly by comparing squares
/// (see `circleEdgeCoverage`): one division instead of isqrt's two or three and its final loop.
/// Not monotone and not a bound in either direction: never use it as the root itself.
@inlinable public func approximateSquareRoot(_ n: UInt64) -> UInt64 {
    if n < 2 { return n }
    let x = isqrtTableEstimate(n)
    return (x + n / x) >> 1
}

/// ⌊16 √(m + ½)⌋ for m = 0 ..< 256, i.e. ⌊√(256 m + 128)⌋: the root of the middle of the
/// interval of inputs whose top bits are m, in units of 1/16. A literal, so it is static data
/// (no lazy initialisation on the per-pixel path); SquareRootTests checks it against the formula.
@usableFromInline let isqrtEstimates: [UInt8] = [
     11,  19,  25,  29,  33,  37,  40,  43,  46,  49,  51,  54,  56,  58,  60,  62,
     64,  66,  68,  70,  72,  74,  75,  77,  79,  80,  82,  83,  85,  86,  88,  89,
     91,  92,  93,  95,  96,  97,  99, 100, 101, 103, 104, 105, 106, 107, 109, 110,
    111, 112, 113, 114, 115, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
    128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 139, 140, 141, 142,
    143, 144, 145, 146, 147, 147, 148, 149, 150, 151, 152, 153, 153, 154, 155, 156,
    157, 157, 158, 159, 160, 161, 161, 162, 163, 164, 165, 165, 166, 167, 168, 168,
    169, 170, 171, 171, 172, 173, 174, 174, 175, 176, 177, 177, 178, 179, 179, 180,
    181, 182, 182, 183, 184, 184, 185, 186, 186, 187, 188, 188, 189, 190, 190, 191,
    192, 192, 193, 194, 194, 195, 196, 196, 197, 198, 198, 199, 200, 200, 201, 202,
    202, 203, 203, 204, 205, 205, 206, 207, 207, 208, 208, 209, 210, 210, 211, 211,
    212, 213, 213, 214, 214, 215, 216, 216, 217, 217, 218, 219, 219, 220, 220, 221,
    221, 222, 223, 223, 224, 224, 225, 225, 226, 227, 227, 228, 228, 229, 229, 230,
    231, 231, 232, 232, 233, 233, 234, 234, 235, 235, 236, 237, 237, 238, 238, 239,
    239, 240, 240, 241, 241, 242, 242, 243, 243, 244, 245, 245, 246, 246, 247, 247,
    248, 248, 249, 249, 250, 250, 251, 251, 252, 252, 253, 253, 254, 254, 255, 255,
]

extension Fixed {
    /// √self, truncated to the Q16.16 step (error < 1/65536). Negative inputs return 0.
    /// The corresponding integer routine is `isqrt`: √(raw × 2¹⁶) = √raw × 2⁸ in Q16.16.
    @inlinable public var squareRoot: Fixed {
        guard raw > 0 else { return .zero }
        return Fixed(raw: Int32(truncatingIfNeeded: isqrt(UInt64(raw) << 16)))
    }

    /// √(a² + b²) without intermediate overflow for any pair of Q16.16 inputs.
    @inlinable public static func hypot(_ a: Fixed, _ b: Fixed) -> Fixed {
        let a2 = UInt64(a.raw.magnitude) * UInt64(a.raw.magnitude), b2 = UInt64(b.raw.magnitude) * UInt64(b.raw.magnitude)
        // Each square is ≤ 2⁶² (Int32.min² = 2⁶² exactly), so the sum is ≤ 2⁶³: it fits a UInt64
        // but not an Int64 (hypot(.min, .min) used to trap). The root of a Q32.32 square is Q16.16.
        return Fixed(saturatingRaw: Int64(isqrt(a2 + b2)))
    }
}
