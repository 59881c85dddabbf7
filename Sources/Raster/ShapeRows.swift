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

    /// A tame centre too: then dx is plain integer arithmetic for columns within ±8192.
    @usableFromInline let isTameCircle: Bool
    @usableFromInline let centreX: Int64, radius: Int64

    @inlinable @inline(__always) init(_ ellipse: Ellipse, y: Fixed) {
        let isCircle = ellipse.radiusX.raw > 0 && ellipse.radiusX == ellipse.radiusY && isTame(ellipse.radiusX)
        self.init(ellipse, y: y, isCircle: isCircle, isTameCircle: isCircle && isTame(ellipse.center.x))
    }

    /// The same with what does not depend on the row decided by the caller, once per fill
    /// (`EllipseCoverage`): `isCircle` and `isTameCircle` as the initializer above works them out.
    @inlinable @inline(__always) init(_ ellipse: Ellipse, y: Fixed, isCircle: Bool, isTameCircle: Bool) {
        self.ellipse = ellipse
        self.y = y
        self.isCircle = isCircle
        self.isTameCircle = isTameCircle
        centreX = Int64(ellipse.center.x.raw)
        radius = Int64(ellipse.radiusX.raw)
        let dy = UInt64((y - ellipse.center.y).raw.magnitude)
        dy2 = dy * dy
    }

    @inlinable @inline(__always) public func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>) {
        if isTameCircle && isTameColumns(columns) {
            for x in columns { coverages[x] = tameCoverage(column: x) }
        } else {
            for x in columns { coverages[x] = coverage(column: x) }
        }
    }

    /// `coverages(_:into:)` with the roots through `memo`.
    @inlinable @inline(__always) func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>, memo: EdgeRootMemo) {
        if isTameCircle && isTameColumns(columns) {
            for x in columns { coverages[x] = tameCoverage(column: x, memo: memo) }
        } else {
            for x in columns { coverages[x] = coverage(column: x) }
        }
    }

    /// `coverage(column:)` of a tame circle for a column within ±8192 (the root through `memo`
    /// when there is one).
    @inlinable @inline(__always) func tameCoverage(column: Int, memo: EdgeRootMemo? = nil) -> UInt8 {
        // (Fixed(column) + .half − centre.x) saturates nowhere here.
        let dx = UInt64((Int64(column) &<< 16 &+ 0x8000 &- centreX).magnitude)
        if let memo { return memo.coverage(squaredDistance: dx &* dx &+ dy2, radius: radius) }
        return circleEdgeCoverage(squaredDistance: dx &* dx &+ dy2, radius: radius)
    }

    @inlinable @inline(__always) public func coverage(column: Int) -> UInt8 {
        if isTameCircle && column.magnitude <= 8192 { return tameCoverage(column: column) }
        guard isCircle else { return ellipse.coverage(x: Fixed(column) + .half, y: y) }
        // coverage = edgeCoverage(hypot(dx, dy) − r) with dx = x − centre.x, as in `Ellipse.coverage`.
        let dx = UInt64((Fixed(column) + .half - ellipse.center.x).raw.magnitude)
        return circleEdgeCoverage(squaredDistance: dx * dx + dy2, radius: Int64(ellipse.radiusX.raw))
    }
}

extension Ellipse {
    @inlinable @inline(__always) public func row(y: Fixed) -> EllipseRow { EllipseRow(self, y: y) }
}

/// A row of a `RoundedRectangle` (a capsule, a rounded clip). Corners with a radius ≤ 2¹³ pixels
/// (and ≥ 0: `cornerRadius` is a public var) take the fast path.
public struct RoundedRectangleRow: ShapeRow {
    /// Whether the row passes through the corners (qy > 0 and a non-zero radius).
    @usableFromInline let isCornerRow: Bool
    /// qy² in raw units, for the distance to a corner circle.
    @usableFromInline let qy2: UInt64
    /// Whether the columns' arithmetic is plain integer arithmetic (see `coverage`): a tame
    /// rectangle and radius ≥ 0.
    @usableFromInline let isTameRow: Bool
    /// The raw values of rect.x, maxX, midX, straightHalfWidth, radius and the box overlap in y
    /// (0...1; the row's coverage is 0 when it is): only these, so that the row is small enough
    /// to stay in registers in the pixel loop (the `Fixed` values are rebuilt from them where
    /// the pointwise path needs them).
    @usableFromInline let lo: Int64, hi: Int64, mid: Int64, straight: Int64, r: Int64, oy: Int64

    @inlinable @inline(__always) init(_ shape: RoundedRectangle, y: Fixed) {
        let rect = shape.rect, radius = shape.cornerRadius
        isTameRow = isTame(rect.x) && isTame(rect.width) && isTame(radius) && radius.raw >= 0
        let overlapY: Fixed, midX: Fixed, straightHalfWidth: Fixed
        if isTameRow && isTame(rect.y) && isTame(rect.height) && isTame(y) {
            // The same values as below in plain integer arithmetic: with everything within ±8192
            // pixels no `Fixed` step saturates (`/ 2` truncates towards zero, as Int64's does).
            let x0 = Int64(rect.x.raw), w = Int64(rect.width.raw), y0 = Int64(rect.y.raw), h = Int64(rect.height.raw)
            let rr = Int64(radius.raw), row = Int64(y.raw)
            let o = smaller(larger(smaller(row &+ 0x8000, y0 &+ h) &- larger(row &- 0x8000, y0), 0), 0x10000)
            overlapY = Fixed(raw: shape.rect.isEmpty ? 0 : Int32(truncatingIfNeeded: o))
            let dy = row &- (y0 &+ h / 2)
            let qy = (dy < 0 ? 0 &- dy : dy) &- (h / 2 &- rr)
            isCornerRow = qy > 0 && rr != 0
            qy2 = UInt64(qy.magnitude) &* UInt64(qy.magnitude)
            midX = Fixed(raw: Int32(truncatingIfNeeded: x0 &+ w / 2))
            straightHalfWidth = Fixed(raw: Int32(truncatingIfNeeded: w / 2 &- rr))
        } else {
            overlapY = shape.rect.isEmpty ? .zero : overlap(y, rect.y, rect.maxY)
            let qy = (y - rect.midY).magnitude - (rect.height / 2 - radius)
            isCornerRow = qy.raw > 0 && radius.raw != 0
            qy2 = UInt64(qy.raw.magnitude) * UInt64(qy.raw.magnitude)
            midX = rect.midX
            straightHalfWidth = rect.width / 2 - radius
        }
        lo = Int64(rect.x.raw); hi = Int64(rect.maxX.raw); mid = Int64(midX.raw)
        straight = Int64(straightHalfWidth.raw); r = Int64(radius.raw); oy = Int64(overlapY.raw)
    }

    /// The row from what `RoundedRectangleCoverage` worked out once per fill (`RoundedRectangleTameValues`),
    /// for a shape with `hasTameRows` and a tame row `y`: the first branch of the initializer above,
    /// with only the row's own steps left (the same values).
    @inlinable @inline(__always) init(_ v: RoundedRectangleTameValues, y: Fixed) {
        let row = Int64(y.raw)
        let o = smaller(larger(smaller(row &+ 0x8000, v.y1) &- larger(row &- 0x8000, v.y0), 0), 0x10000)
        let dy = row &- v.midY
        let qy = (dy < 0 ? 0 &- dy : dy) &- v.straightY
        isTameRow = true
        isCornerRow = qy > 0 && v.r != 0
        qy2 = UInt64(qy.magnitude) &* UInt64(qy.magnitude)
        lo = v.lo; hi = v.hi; mid = v.mid; straight = v.straight; r = v.r; oy = o
    }

    /// The same row from its values apart from x, `RoundedRowHeight` (the same values again).
    @inlinable @inline(__always) init(_ v: RoundedRectangleTameValues, height: RoundedRowHeight) {
        isTameRow = true
        isCornerRow = height.isCornerRow
        qy2 = height.qy2
        lo = v.lo; hi = v.hi; mid = v.mid; straight = v.straight; r = v.r; oy = height.oy
    }

    @inlinable @inline(__always) public func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>) {
        if isTameRow && isTameColumns(columns) {
            for x in columns { coverages[x] = tameCoverage(column: x) }
        } else {
            for x in columns { coverages[x] = coverage(column: x) }
        }
    }

    /// `coverages(_:into:)` with the corner roots through `memo`.
    @inlinable @inline(__always) func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>, memo: EdgeRootMemo) {
        if isTameRow && isTameColumns(columns) {
            for x in columns { coverages[x] = tameCoverage(column: x, memo: memo) }
        } else {
            for x in columns { coverages[x] = coverage(column: x) }
        }
    }

    @inlinable @inline(__always) public func coverage(column: Int) -> UInt8 {
        if isTameRow && column.magnitude <= 8192 { return tameCoverage(column: column) }
        return pointwiseCoverage(column: column)
    }

    /// `coverage(column:)` of a tame row for a column within ±8192 (the corner root through
    /// `memo` when there is one).
    @inlinable @inline(__always) func tameCoverage(column: Int, memo: EdgeRootMemo? = nil) -> UInt8 {
        // The steps below in raw units: with the rectangle, the radius and the pixel centre
        // within ±8192 pixels no `Fixed` operation of them saturates, so each is exact integer
        // arithmetic (and cheaper: no saturation checks).
        let x = Int64(column) &<< 16 &+ 0x8000
        // overlap(x, rect.x, maxX) (clamped to 0...1) × overlapY, rounded, then unitByte.
        // Plain conditionals, not Swift.min/max: in a large caller those stay calls.
        let right = x &+ 0x8000 < hi ? x &+ 0x8000 : hi, left = x &- 0x8000 > lo ? x &- 0x8000 : lo
        let width = right &- left
        let ox = width <= 0 ? 0 : (width >= 0x10000 ? 0x10000 : width)
        let p = (ox &* oy &+ 0x8000) >> 16
        let box = p <= 0 ? 0 : (p >= 0x10000 ? 255 : UInt8(truncatingIfNeeded: (p &* 255 &+ 0x8000) >> 16))
        if !isCornerRow || box == 0 { return box }
        let dx = x &- mid
        let qx = (dx < 0 ? 0 &- dx : dx) &- straight
        if qx <= 0 { return box }
        // isCornerRow: r ≠ 0, so r > 0 here.
        let q = UInt64(qx)
        let edge = memo?.coverage(squaredDistance: q &* q &+ qy2, radius: r) ?? circleEdgeCoverage(squaredDistance: q &* q &+ qy2, radius: r)
        return edge < box ? edge : box
    }

    /// `coverage(column:)` by the saturating `Fixed` steps, for rows or columns that are not tame.
    @inlinable func pointwiseCoverage(column: Int) -> UInt8 {
        // Every stored integer is the raw value of a `Fixed` (see above).
        let radius = Fixed(raw: Int32(truncatingIfNeeded: r)), overlapY = Fixed(raw: Int32(truncatingIfNeeded: oy))
        let midX = Fixed(raw: Int32(truncatingIfNeeded: mid)), straightHalfWidth = Fixed(raw: Int32(truncatingIfNeeded: straight))
        // An empty rectangle has overlapY 0 and so a box coverage of 0, as `coverage` returns.
        let x = Fixed(column) + .half
        let box = (overlap(x, Fixed(raw: Int32(truncatingIfNeeded: lo)), Fixed(raw: Int32(truncatingIfNeeded: hi))) * overlapY).unitByte
        if !isCornerRow || box == 0 { return box }
        let qx = (x - midX).magnitude - straightHalfWidth
        if qx.raw <= 0 { return box }
        // In a corner: min(edge, box) with edge = edgeCoverage(hypot(qx, qy) − r).
        let q = UInt64(qx.raw.magnitude)
        let edge = radius.raw > 0 && isTame(radius)
            ? circleEdgeCoverage(squaredDistance: q * q + qy2, radius: Int64(radius.raw))
            : edgeCoverage(signedDistance: Fixed(saturatingRaw: Int64(isqrt(q * q + qy2))) - radius)
        return smaller(edge, box)
    }
}

extension RoundedRectangle {
    @inlinable @inline(__always) public func row(y: Fixed) -> RoundedRectangleRow { RoundedRectangleRow(self, y: y) }
}

/// What every row of a rounded rectangle with `hasTameRows` shares (see `RoundedRectangleRow.init(_:y:)`),
/// worked out once per fill instead of once per row: the raw values the row's first branch uses.
@usableFromInline struct RoundedRectangleTameValues {
    @usableFromInline let lo: Int64, hi: Int64, mid: Int64, straight: Int64, r: Int64
    /// rect.y and maxY, the rectangle's vertical middle and half its straight height (raw).
    @usableFromInline let y0: Int64, y1: Int64, midY: Int64, straightY: Int64
    @inlinable init(_ shape: RoundedRectangle) {
        let rect = shape.rect
        let x0 = Int64(rect.x.raw), w = Int64(rect.width.raw), y0 = Int64(rect.y.raw), h = Int64(rect.height.raw)
        let rr = Int64(shape.cornerRadius.raw)
        lo = x0; hi = Int64(rect.maxX.raw)
        mid = Int64(Int32(truncatingIfNeeded: x0 &+ w / 2))
        straight = Int64(Int32(truncatingIfNeeded: w / 2 &- rr))
        r = rr
        self.y0 = y0; y1 = y0 &+ h; midY = y0 &+ h / 2; straightY = h / 2 &- rr
    }
}

/// A row of a `Triangle`. Along a row each edge's distance nx·x + ny·y − offset is exactly
/// nx·column + k (see `HalfPlane.narrow`), so a pixel costs three multiply-adds and a maximum
/// instead of three saturating distance evaluations. Edges that are not tame (huge or degenerate
/// triangles) and columns far off any canvas take the pointwise path.
public struct TriangleRow: ShapeRow {
    @usableFromInline let triangle: Triangle
    @usableFromInline let y: Fixed
    @usableFromInline let isTame: Bool
    @usableFromInline let s0: Int64, s1: Int64, s2: Int64
    @usableFromInline let k0: Int64, k1: Int64, k2: Int64

    @inlinable @inline(__always) init(_ triangle: Triangle, y: Fixed) {
        self.triangle = triangle
        self.y = y
        isTame = triangle.edgesAreTame && Raster.isTame(y)
        (s0, k0) = triangle.e0.rowLine(y: y)
        (s1, k1) = triangle.e1.rowLine(y: y)
        (s2, k2) = triangle.e2.rowLine(y: y)
    }

    @inlinable @inline(__always) public func coverage(column: Int) -> UInt8 {
        // Columns within ±8192 keep every intermediate value of `distance` unsaturated.
        guard isTame, column.magnitude <= 8192 else { return triangle.coverage(x: Fixed(column) + .half, y: y) }
        let c = Int64(column)
        let d = larger(s0 * c + k0, s1 * c + k1, s2 * c + k2)
        // edgeCoverage: (½ − d).unitByte.
        let v = 0x8000 - d
        return v <= 0 ? 0 : (v >= 0x10000 ? 255 : UInt8(truncatingIfNeeded: (v * 255 + 0x8000) >> 16))
    }
}

extension HalfPlane {
    /// The distance along the row at `y` as slope × column + k, exactly (for tame edges and rows).
    @inlinable @inline(__always) func rowLine(y: Fixed) -> (slope: Int64, k: Int64) {
        let slope = Int64(nx.raw)
        return (slope, ((slope * 0x8000 + 0x8000) >> 16) + Int64((ny * y).raw) - Int64(offset.raw))
    }
}

extension Triangle {
    @inlinable @inline(__always) public func row(y: Fixed) -> TriangleRow { TriangleRow(self, y: y) }
}
