import FixedPoint

/// A straight stroke from `a` to `b` with round caps, `width` pixels wide: the strokes of a
/// check mark or a cross. Coverage from the exact distance to the segment.
///
/// The projection is done on raw Q16.16 values in 64-bit integers: the squared length of a
/// 200-pixel segment is already past Q16.16's range (it used to saturate above ~181 px, and a
/// cross on 800x480 drew as four dots). With 64-bit intermediates every segment on a 4096-pixel
/// canvas is exact: products of two raw coordinates stay below 2⁵⁸.
public struct LineSegment: Shape {
    public let a: Point
    public let b: Point
    public let halfWidth: Fixed
    /// b − a in raw Q16.16, and its squared length (Q32.32) and length (Q16.16).
    @usableFromInline let dx: Int64, dy: Int64
    @usableFromInline let lengthSquared: Int64
    @usableFromInline let length: Int64
    public let bounds: FixedRect

    @inlinable public init(from a: Point, to b: Point, width: Fixed) {
        self.a = a; self.b = b; halfWidth = width / 2
        dx = Int64(b.x.raw) - Int64(a.x.raw); dy = Int64(b.y.raw) - Int64(a.y.raw)
        lengthSquared = dx * dx + dy * dy
        length = Int64(isqrt(UInt64(lengthSquared)))
        let pad = halfWidth + .one
        let x0 = Swift.min(a.x, b.x) - pad, y0 = Swift.min(a.y, b.y) - pad
        bounds = FixedRect(x: x0, y: y0, width: Swift.max(a.x, b.x) + pad - x0, height: Swift.max(a.y, b.y) + pad - y0)
    }

    /// Distance from (x, y) to the segment, in raw Q16.16.
    @inlinable func distanceRaw(x: Fixed, y: Fixed) -> Int64 {
        let px = Int64(x.raw) - Int64(a.x.raw), py = Int64(y.raw) - Int64(a.y.raw)
        let dot = px * dx + py * dy
        if dot <= 0 { return Int64(isqrt(UInt64(px * px + py * py))) }
        if dot >= lengthSquared {
            let qx = px - dx, qy = py - dy
            return Int64(isqrt(UInt64(qx * qx + qy * qy)))
        }
        // Beside the segment: the distance to its line, |cross| / |b − a|.
        let cross = px * dy - py * dx
        return cross.magnitude >= UInt64(Int64.max) ? Int64.max : Swift.abs(cross) / Swift.max(1, length)
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        let d = Fixed(saturatingRaw: distanceRaw(x: x, y: y) - Int64(halfWidth.raw))
        return edgeCoverage(signedDistance: d)
    }
}
