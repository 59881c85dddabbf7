import FixedPoint

// TEMPORARY: stand-ins for `CubicBezier` and `Fixed.powUnit`, which are being added to
// FixedPoint on branch `math`. Same names and call shapes, so the loaders compile unchanged
// when this file is deleted after `git merge math`.

/// cubic-bezier(x1, y1, x2, y2) with CSS semantics: solve x(s) = t by bisection, return y(s).
public struct CubicBezier: Sendable, Hashable {
    public let x1: Fixed, y1: Fixed, x2: Fixed, y2: Fixed
    public init(_ x1: Fixed, _ y1: Fixed, _ x2: Fixed, _ y2: Fixed) {
        self.x1 = x1.unitClamped; self.y1 = y1; self.x2 = x2.unitClamped; self.y2 = y2
    }
    /// Bernstein form in Q32 for s in Q32 (Int64 with care: s ≤ 2^32, coefficients ≤ 2^20).
    private func sample(_ p1: Fixed, _ p2: Fixed, _ s: Int64) -> Int64 {
        let one: Int64 = 1 << 32
        let u = one - s
        // 3u²s·p1 + 3us²·p2 + s³, each term computed with 16-bit pre-shifts to stay in Int64.
        let s16 = s >> 16, u16 = u >> 16
        let uus = (u16 * u16) >> 16     // u² in Q16
        let a = (uus * s16) >> 16      // u²s in Q16
        let uss = (u16 * s16) >> 16
        let b = (uss * s16) >> 16      // us² in Q16
        let c = (((s16 * s16) >> 16) * s16) >> 16
        return (3 * a * Int64(p1.raw) + 3 * b * Int64(p2.raw)) + (c << 16)   // Q32
    }
    public func callAsFunction(_ t: Fixed) -> Fixed {
        if t.raw <= 0 { return .zero }
        if t.raw >= 1 << 16 { return .one }
        let target = Int64(t.raw) << 16
        var lo: Int64 = 0, hi: Int64 = 1 << 32
        for _ in 0..<32 {
            let mid = (lo + hi) >> 1
            if sample(x1, x2, mid) < target { lo = mid } else { hi = mid }
        }
        return Fixed(saturatingRaw: (sample(y1, y2, (lo + hi) >> 1) + (1 << 15)) >> 16)
    }
}

extension Fixed {
    /// x^p for x in 0...1, p ≥ 0, via 2^(−p·(−log₂x)) with bit-by-bit log and exp.
    static func powUnit(_ x: Fixed, _ exponent: Fixed) -> Fixed {
        if exponent.raw <= 0 { return .one }
        if x.raw <= 0 { return .zero }
        if x.raw >= 1 << 16 { return .one }
        // −log₂ x in Q30: normalise to m in [1, 2) (Q30), then 30 squarings for the fraction bits.
        let top = 31 - UInt32(bitPattern: x.raw).leadingZeroBitCount
        var m = Int64(x.raw) << (30 - top)
        var log: Int64 = Int64(top - 16) << 30
        var bit: Int64 = 1 << 29
        while bit > 0 {
            m = (m * m) >> 30
            if m >= 2 << 30 { m >>= 1; log += bit }
            bit >>= 1
        }
        let y = ((-log) * Int64(exponent.raw)) >> 16      // Q30, ≥ 0
        let whole = y >> 30
        if whole >= 31 { return .zero }
        var r: Int64 = 1 << 30
        var f = y & ((1 << 30) - 1)
        var i = 0
        while f > 0 && i < 30 {
            if f & (1 << 29) != 0 { r = (r * Fixed.pendingRoots[i]) >> 30 }
            f = (f << 1) & ((1 << 30) - 1)
            i += 1
        }
        r >>= whole
        return Fixed(saturatingRaw: (r + (1 << 13)) >> 14)
    }

    /// 2^(−2^−(i+1)) in Q30, by repeated integer square roots.
    static let pendingRoots: [Int64] = {
        var roots: [Int64] = []
        var c = Int64(isqrt(UInt64(1 << 29) << 30))    // √0.5 in Q30
        for _ in 0..<30 { roots.append(c); c = Int64(isqrt(UInt64(c) << 30)) }
        return roots
    }()
}
