import FixedPoint

// The coverage of a pixel near a circular outline (a circle, a rounded corner) without the exact
// square root.
//
// The shapes' `coverage(x:y:)` computes it as edgeCoverage(hypot(dx, dy) − r): the exact integer
// root h = ⌊√n⌋ of n = dx² + dy² (raw units, Q32.32), then v = ½ − (h − r) and the byte
// (v × 255 + ½) >> 16, clamped. The byte only has 256 values, and whether it is at least b is one
// comparison of n with a square: so here a rough root picks the likely byte, and comparisons of
// n with the squares at that byte's bounds make it exact (moving it while they fail). The rough
// root only decides how many comparisons that takes, never the answer.

/// The smallest v (raw) with (v × 255 + 2¹⁵) >> 16 ≥ b, for b in 1...255: coverage ½ − d is at
/// least byte b exactly when it is at least this, clamping included (v ≤ 0 gives 0 < 129 =
/// `lowestRawForByte(1)`; v ≥ 2¹⁶ gives 255 and is ≥ `lowestRawForByte(255)` = 65408).
@inlinable @inline(__always) func lowestRawForByte(_ b: Int64) -> Int64 { (b << 16 - 0x8000 + 254) / 255 }

/// `edgeCoverage(signedDistance: Fixed.hypot(dx, dy) − radius)` for n = dx² + dy² (raw², as
/// hypot squares them) and `radius` = radius.raw, exactly, for 0 ≤ radius ≤ 2²⁹ (a tame radius:
/// then neither the saturating hypot nor the subtractions can change the result; see below).
///
/// Exactness: with h = ⌊√n⌋, hypot gives min(h, 2³¹ − 1); minus r ≥ 0 and subtracted from ½ nothing
/// else saturates, so v = 2¹⁵ + r − min(h, 2³¹ − 1). The byte is ≥ b (b ≥ 1) ⇔ v ≥ lowestRawForByte(b)
/// ⇔ min(h, 2³¹ − 1) ≤ K = r + 2¹⁵ − lowestRawForByte(b) ⇔ h ≤ K (K < 2³¹ − 1) ⇔ K ≥ 0 and
/// n < (K + 1)². The byte is the largest b for which that holds (0 if none).
@inlinable @inline(__always) func circleEdgeCoverage(squaredDistance n: UInt64, radius r: Int64) -> UInt8 {
    @inline(__always) func atLeast(_ b: Int64) -> Bool {
        let k = r + 0x8000 - lowestRawForByte(b)
        return k >= 0 && n < UInt64(k + 1) * UInt64(k + 1)
    }
    // The likely byte, from the rough root (its error is a few raw units at pixel scales).
    let v = 0x8000 + r - Int64(approximateSquareRoot(n))
    var b: Int64 = v <= 0 ? 0 : (v >= 0x10000 ? 255 : (v * 255 + 0x8000) >> 16)
    // Then exactly: up while the next byte holds, down while this one does not.
    while b < 255 && atLeast(b + 1) { b += 1 }
    while b > 0 && !atLeast(b) { b -= 1 }
    return UInt8(truncatingIfNeeded: b)
}
