/// Integer square root: the largest r with r × r ≤ n. Exact, no floating point.
/// Digit-by-digit (base 4) method: 32 iterations of shifts and compares for a 64-bit input.
@inlinable public func isqrt(_ n: UInt64) -> UInt64 {
    var remainder = n
    var root: UInt64 = 0
    var bit: UInt64 = 1 << 62
    while bit > remainder { bit >>= 2 }
    while bit != 0 {
        if remainder >= root + bit {
            remainder -= root + bit
            root = (root >> 1) + bit
        } else {
            root >>= 1
        }
        bit >>= 2
    }
    return root
}

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
