import FixedPoint

// The coverage of a pixel near a circular outline (a circle, a rounded corner), with the exact
// square root found from a start next to it.
//
// The shapes' `coverage(x:y:)` computes it as edgeCoverage(hypot(dx, dy) − r): the exact integer
// root h = ⌊√n⌋ of n = dx² + dy² (raw units, Q32.32), then v = ½ − (h − r) and the byte
// (v × 255 + ½) >> 16, clamped. Here the same exact root comes from Newton steps started at r
// rather than from `isqrt`'s table: near the outline r is already close to it.

/// `edgeCoverage(signedDistance: Fixed.hypot(dx, dy) − radius)` for n = dx² + dy² (raw², as
/// hypot squares them) and `radius` = radius.raw, exactly, for 0 ≤ radius ≤ 2²⁹ (a tame radius:
/// then neither the saturating hypot nor the subtractions can change the result; see below).
///
/// Exactness: with h = ⌊√n⌋, hypot gives min(h, 2³¹ − 1); minus r ≥ 0 and subtracted from ½ nothing
/// else saturates, so v = 2¹⁵ + r − min(h, 2³¹ − 1), and `unitByte` of v is the byte.
@inlinable @inline(__always) func circleEdgeCoverage(squaredDistance n: UInt64, radius r: Int64) -> UInt8 {
    // h = ⌊√n⌋ exactly, by integer Newton steps x ← ⌊(x + ⌊n / x⌋) / 2⌋ started at the radius: for
    // the pixels along the outline the root is within half a pixel of it, so a few steps (one
    // division each) reach h. After the first step x ≥ h whatever the start (integer AM–GM), and
    // from there the steps decrease strictly until the first that does not, which is at h.
    // Below 2⁶² x + n / x cannot overflow; further out (far off any canvas) `isqrt` answers.
    var h: UInt64 = 0
    if n >> 62 != 0 {
        h = isqrt(n)
    } else if n != 0 {
        let start = UInt64(Swift.max(1, r))
        var x = (start &+ n / start) >> 1
        while true {
            let y = (x &+ n / x) >> 1
            if y >= x { break }
            x = y
        }
        h = x
    }
    // v = ½ − (min(h, 2³¹ − 1) − r) in raw units; the byte is (v × 255 + ½) >> 16, clamped.
    let v = 0x8000 + r - Int64(Swift.min(h, 0x7FFF_FFFF))
    return v <= 0 ? 0 : (v >= 0x10000 ? 255 : UInt8(truncatingIfNeeded: (v &* 255 &+ 0x8000) >> 16))
}
