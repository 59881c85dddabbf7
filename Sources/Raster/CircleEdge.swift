import FixedPoint

// The coverage of a pixel near a circular outline (a circle, a rounded corner), with the exact
// square root found from a start next to it.
//
// The shapes' `coverage(x:y:)` computes it as edgeCoverage(hypot(dx, dy) − r): the exact integer
// root h = ⌊√n⌋ of n = dx² + dy² (raw units, Q32.32), then v = ½ − (h − r) and the byte
// (v × 255 + ½) >> 16, clamped. Here the same exact root comes from Newton steps started at r
// rather than from `isqrt`'s table: near the outline r is already close to it, and the table is
// a global, which costs an accessor call from another module.

/// `edgeCoverage(signedDistance: Fixed.hypot(dx, dy) − radius)` for n = dx² + dy² (raw², as
/// hypot squares them) and `radius` = radius.raw, exactly, for 0 ≤ radius ≤ 2²⁹ (a tame radius:
/// then neither the saturating hypot nor the subtractions can change the result; see below).
///
/// Exactness: with h = ⌊√n⌋, hypot gives min(h, 2³¹ − 1); minus r ≥ 0 and subtracted from ½ nothing
/// else saturates, so v = 2¹⁵ + r − min(h, 2³¹ − 1), and `unitByte` of v is the byte.
@inlinable @inline(__always) func circleEdgeCoverage(squaredDistance n: UInt64, radius r: Int64) -> UInt8 {
    // h = ⌊√n⌋ exactly, by three integer Newton steps x ← ⌊(x + ⌊n / x⌋) / 2⌋ started at the
    // radius, then down to the root. After any step x ≥ h (integer AM–GM). Along the outline the
    // root is within half a pixel of r ≥ 1 pixel, and three steps bring x within 2 of h (the error
    // e becomes e² / 2x each step): a fixed three divisions, where stepping until the sequence
    // stops falling took four or five. Anywhere else (far from the outline, a tiny radius, n
    // beyond 2⁶²) isqrt answers.
    var h: UInt64
    if n >> 62 != 0 || r < 0x10000 {
        h = isqrt(n)
    } else {
        let s = UInt64(r)
        h = (s &+ n / s) >> 1
        h = (h &+ n / h) >> 1
        h = (h &+ n / h) >> 1
        // More than 2 above the root (or a square that could overflow): far from the outline.
        if h < 2 || h > 0xFFFF_FFFF || (h - 2) &* (h - 2) > n { h = isqrt(n) } else { while h &* h > n { h &-= 1 } }
    }
    // v = ½ − (min(h, 2³¹ − 1) − r) in raw units; the byte is (v × 255 + ½) >> 16, clamped.
    let v = 0x8000 &+ r &- Int64(smaller(h, 0x7FFF_FFFF))
    return v <= 0 ? 0 : (v >= 0x10000 ? 255 : UInt8(truncatingIfNeeded: (v &* 255 &+ 0x8000) >> 16))
}


/// One slot of `EdgeRootMemo`: n, and the radius and the byte as radius << 8 | byte (−1: empty).
@usableFromInline struct EdgeRootSlot: Sendable {
    @usableFromInline var n: UInt64
    @usableFromInline var tag: Int64
    @inlinable init(n: UInt64, tag: Int64) { self.n = n; self.tag = tag }
    @inlinable static var empty: EdgeRootSlot { EdgeRootSlot(n: 0, tag: -1) }
}

/// `circleEdgeCoverage` remembered by its arguments in a small direct-mapped table (the canvas's,
/// sized with it). The byte is a pure function of (n, radius), and the same pairs come back
/// often: a circle's or capsule's left and right edges, and its top and bottom rows, when its
/// centre sits on the pixel grid; dots of one size at the same sub-pixel offset; the same shape
/// filled twice (a block and its shine); and every shape that did not move since the last frame.
/// A hit is a hash and two compares instead of three divisions and the tests around them.
@usableFromInline struct EdgeRootMemo {
    @usableFromInline static let slotCount = 256
    @usableFromInline let slots: UnsafeMutablePointer<EdgeRootSlot>
    @inlinable init(slots: UnsafeMutablePointer<EdgeRootSlot>) { self.slots = slots }

    /// `circleEdgeCoverage(squaredDistance: n, radius: r)`, from the table when it holds it.
    @inlinable @inline(__always) func coverage(squaredDistance n: UInt64, radius r: Int64) -> UInt8 {
        // Fibonacci hashing: the top 8 bits of the product mix every bit of n and r.
        let i = Int(truncatingIfNeeded: ((n ^ UInt64(truncatingIfNeeded: r)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        let slot = slots[i]
        if slot.n == n && slot.tag >> 8 == r { return UInt8(truncatingIfNeeded: slot.tag) }
        let c = circleEdgeCoverage(squaredDistance: n, radius: r)
        slots[i] = EdgeRootSlot(n: n, tag: r << 8 | Int64(c))
        return c
    }

    /// `largestBelowSquare(m)` (a circle span's bound), from the same table when it holds it: a
    /// root is kept as tag −2 − s (an edge byte's tag is ≥ 0, an empty slot's −1), so the two
    /// kinds never answer for each other.
    @inlinable @inline(__always) func largestBelowSquare(_ m: Int64) -> Int64 {
        if m <= 0 { return -1 }
        let n = UInt64(m)
        let i = Int(truncatingIfNeeded: (n &* 0xC2B2_AE3D_27D4_EB4F) >> 56)
        let slot = slots[i]
        if slot.n == n && slot.tag <= -2 { return -2 &- slot.tag }
        let s = Int64(isqrt(n &- 1))
        slots[i] = EdgeRootSlot(n: n, tag: -2 &- s)
        return s
    }
}
