import FixedPoint

/// A straight stroke from `a` to `b` with round caps, `width` pixels wide: the strokes of a
/// check mark or a cross. Coverage from the exact distance to the segment.
public struct LineSegment: Shape {
    public let a: Point
    public let b: Point
    public let halfWidth: Fixed
    @usableFromInline let dx: Fixed, dy: Fixed
    /// 1 / |b − a|², precomputed so the per-pixel projection is multiplies only.
    @usableFromInline let inverseLengthSquared: Fixed
    public let bounds: FixedRect

    @inlinable public init(from a: Point, to b: Point, width: Fixed) {
        self.a = a; self.b = b; halfWidth = width / 2
        dx = b.x - a.x; dy = b.y - a.y
        let l2 = dx * dx + dy * dy
        inverseLengthSquared = l2.raw == 0 ? .zero : .one / l2
        let pad = halfWidth + .one
        let x0 = Swift.min(a.x, b.x) - pad, y0 = Swift.min(a.y, b.y) - pad
        bounds = FixedRect(x: x0, y: y0, width: Swift.max(a.x, b.x) + pad - x0, height: Swift.max(a.y, b.y) + pad - y0)
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        let px = x - a.x, py = y - a.y
        let t = ((px * dx + py * dy) * inverseLengthSquared).unitClamped
        let d = Fixed.hypot(px - dx * t, py - dy * t) - halfWidth
        return edgeCoverage(signedDistance: d)
    }
}
