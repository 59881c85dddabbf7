import FixedPoint

// Row-wise coverage of the round shapes (see `Shape.row(y:)`): the same formulas as their
// `coverage(x:y:)` in Shapes.swift, step by step and with the same saturating `Fixed` operations,
// but with what depends on the row only (the y distance and its square, the box overlap in y,
// whether the row crosses a corner) computed once per row, and the root replaced by
// `circleEdgeCoverage`, which is exact. RowCoverageTests checks every row against `coverage`.

/// A row of an `Ellipse`. Circles with a radius ≤ 2¹³ pixels take the fast path; other ellipses
/// (whose coverage is a quotient of roots) and huge circles are evaluated pixel by pixel.
public struct EllipseRow: ShapeRow {
    @usableFromInline let ellipse: Ellipse
    @usableFromInline let y: Fixed
    @usableFromInline let isCircle: Bool
    /// dy² in raw units, as `Fixed.hypot` squares it.
    @usableFromInline let dy2: UInt64

    @inlinable init(_ ellipse: Ellipse, y: Fixed) {
        self.ellipse = ellipse
        self.y = y
        isCircle = ellipse.radiusX.raw > 0 && ellipse.radiusX == ellipse.radiusY && isTame(ellipse.radiusX)
        let dy = UInt64((y - ellipse.center.y).raw.magnitude)
        dy2 = dy * dy
    }

    @inlinable public func coverage(column: Int) -> UInt8 {
        guard isCircle else { return ellipse.coverage(x: Fixed(column) + .half, y: y) }
        // coverage = edgeCoverage(hypot(dx, dy) − r) with dx = x − centre.x, as in `Ellipse.coverage`.
        let dx = UInt64((Fixed(column) + .half - ellipse.center.x).raw.magnitude)
        return circleEdgeCoverage(squaredDistance: dx * dx + dy2, radius: Int64(ellipse.radiusX.raw))
    }
}

extension Ellipse {
    @inlinable public func row(y: Fixed) -> EllipseRow { EllipseRow(self, y: y) }
}

/// A row of a `RoundedRectangle` (a capsule, a rounded clip). Corners with a radius ≤ 2¹³ pixels
/// (and ≥ 0: `cornerRadius` is a public var) take the fast path.
public struct RoundedRectangleRow: ShapeRow {
    @usableFromInline let rect: FixedRect
    @usableFromInline let radius: Fixed
    /// The box overlap in y (0...1); the row's coverage is 0 when it is.
    @usableFromInline let overlapY: Fixed
    /// Whether the row passes through the corners (qy > 0 and a non-zero radius).
    @usableFromInline let isCornerRow: Bool
    /// qy² in raw units, for the distance to a corner circle.
    @usableFromInline let qy2: UInt64
    @usableFromInline let midX: Fixed, straightHalfWidth: Fixed

    @inlinable init(_ shape: RoundedRectangle, y: Fixed) {
        rect = shape.rect
        radius = shape.cornerRadius
        overlapY = shape.rect.isEmpty ? .zero : overlap(y, rect.y, rect.maxY)
        let qy = (y - rect.midY).magnitude - (rect.height / 2 - radius)
        isCornerRow = qy.raw > 0 && radius.raw != 0
        qy2 = UInt64(qy.raw.magnitude) * UInt64(qy.raw.magnitude)
        midX = rect.midX
        straightHalfWidth = rect.width / 2 - radius
    }

    @inlinable public func coverage(column: Int) -> UInt8 {
        // An empty rectangle has overlapY 0 and so a box coverage of 0, as `coverage` returns.
        let x = Fixed(column) + .half
        let box = (overlap(x, rect.x, rect.maxX) * overlapY).unitByte
        if !isCornerRow || box == 0 { return box }
        let qx = (x - midX).magnitude - straightHalfWidth
        if qx.raw <= 0 { return box }
        // In a corner: min(edge, box) with edge = edgeCoverage(hypot(qx, qy) − r).
        let q = UInt64(qx.raw.magnitude)
        let edge = radius.raw > 0 && isTame(radius)
            ? circleEdgeCoverage(squaredDistance: q * q + qy2, radius: Int64(radius.raw))
            : edgeCoverage(signedDistance: Fixed(saturatingRaw: Int64(isqrt(q * q + qy2))) - radius)
        return Swift.min(edge, box)
    }
}

extension RoundedRectangle {
    @inlinable public func row(y: Fixed) -> RoundedRectangleRow { RoundedRectangleRow(self, y: y) }
}
