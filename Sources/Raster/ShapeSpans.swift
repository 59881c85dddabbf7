import FixedPoint

// Row spans of the built-in shapes (see `RowSpan`): where each shape's `coverage(x:y:)` is 0
// and where it is uniform, worked out from the same formulas in exact integer arithmetic, so
// that only the pixels along the outline are evaluated one by one. Each derivation below follows
// the shape's `coverage` in Shapes.swift step by step; RowSpanTests checks them pixel by pixel.

extension Rectangle {
    @inlinable @inline(__always) public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan {
        // coverage = (ox × oy).unitByte with ox = overlap of [px, px + 1] with [rect.x, maxX].
        // ox is exactly 1 when px ≥ rect.x and px + 1 ≤ maxX, and then one × oy = oy exactly, so
        // the row is uniform there; ox is 0 (and so is the product) unless px + 1 > rect.x and
        // px < maxX. A row with oy = 0 is empty.
        let oy = overlap(y, rect.y, rect.maxY)
        if oy.raw == 0 { return .empty(columns) }
        return RowSpan(columns: columns, lo: rect.x.floor, hi: rect.maxX.ceil,
                       innerLo: rect.x.ceil, innerHi: rect.maxX.floor, innerCoverage: oy.unitByte)
    }
}

extension RoundedRectangle {
    @inlinable public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan {
        if rect.isEmpty { return .empty(columns) }
        if hasTameRows && isTame(y) { return tameRowSpan(y: Int64(y.raw), columns: columns) }
        // Outside the corner rows (qy ≤ 0) coverage is the rectangle's box overlap.
        var span = Rectangle(rect).rowSpan(y: y, columns: columns)
        let r = cornerRadius
        let qy = (y - rect.midY).magnitude - (rect.height / 2 - r)
        if qy.raw <= 0 || r.raw == 0 || span.isEmpty { return span }
        guard isTame(rect.x), isTame(rect.y), isTame(rect.width), isTame(rect.height) else { return .unknown(columns) }
        // A corner row: where qx = |x − midX| − c ≤ 0 coverage is still the box's; where qx > 0 it
        // is min(edge, box) with edge = (½ − (hypot(qx, qy) − r)).unitByte, hypot = ⌊√(qx² + qy²)⌋
        // in raw units. edge > 0 needs hypot ≤ r + ½ − ε, i.e. qx² + qy² < (r + ½)²; edge = 255
        // when hypot ≤ r − ½, i.e. qx² + qy² < (r − ½ + ε)². Neither condition can exclude qx ≤ 0.
        let rr = Int64(r.raw), qy2 = Int64(qy.raw) * Int64(qy.raw)
        let outer = larger(0, largestBelowSquare((rr + 0x8000) * (rr + 0x8000) - qy2))
        let inner = rr < 0x8000 ? 0 : larger(0, largestBelowSquare((rr - 0x7FFF) * (rr - 0x7FFF) - qy2))
        let m = Int64(rect.midX.raw), c = Int64((rect.width / 2 - r).raw)
        // qx ≤ b ⇔ |x − midX| ≤ b + c.
        let o = columnRange(centreRawFrom: m - (outer + c), to: m + (outer + c))
        let i = columnRange(centreRawFrom: m - (inner + c), to: m + (inner + c))
        span.formIntersection(RowSpan(columns: columns, lo: o.lo, hi: o.hi, innerLo: i.lo, innerHi: i.hi, innerCoverage: 0))
        return span
    }
}

extension RoundedRectangle {
    /// Whether `tameRowBounds` applies: a non-empty rectangle and a radius ≥ 0, all tame.
    @inlinable @inline(__always) var hasTameRows: Bool {
        !rect.isEmpty && isTame(rect.x) && isTame(rect.y) && isTame(rect.width) && isTame(rect.height)
            && isTame(cornerRadius) && cornerRadius.raw >= 0
    }

    /// `rowSpan` for a non-empty rectangle, a row and a radius ≥ 0 that are all tame: the same steps
    /// in raw units, where none of the `Fixed` operations can saturate (coordinates and sums stay
    /// within ±2¹⁴ pixels), so each is plain integer arithmetic. The radius is ≤ half the shorter
    /// side (the initializer clamps it; a larger one set through the public var stays tame too).
    @inlinable @inline(__always) func tameRowSpan(y: Int64, columns: Range<Int>) -> RowSpan {
        RowSpan(columns: columns, tameRowBounds(y: y))
    }

    /// The bounds behind `tameRowSpan`, before they are cut to any columns: what a row of this
    /// outline is wherever it is drawn, so a clip with the same outline can reuse them (`OutlineMemo`).
    @inlinable @inline(__always) func tameRowBounds(y: Int64, roots: EdgeRootMemo? = nil) -> RowBounds {
        tameRowBounds(RoundedRowHeight(self, y: y, roots: roots))
    }

    /// `tameRowBounds(y:)` from what depends on the row and not on x (`RoundedRowHeight`, which a
    /// bar's fill, moving sideways, keeps from frame to frame: see `RoundedRows`).
    @inlinable @inline(__always) func tameRowBounds(_ v: RoundedRowHeight) -> RowBounds {
        if v.oy == 0 { return .empty }
        let x0 = Int64(rect.x.raw), w = Int64(rect.width.raw)
        let x1 = x0 &+ w
        // The rectangle's span (`Rectangle.rowSpan`): overlap in y, floors and ceilings in x.
        var bounds = RowBounds(lo: Int(x0 >> 16), hi: Int((x1 &+ 0xFFFF) >> 16),
                               innerLo: Int((x0 &+ 0xFFFF) >> 16), innerHi: Int(x1 >> 16), innerCoverage: v.coverage)
        let rr = Int64(cornerRadius.raw)
        if !v.isCornerRow || bounds.lo >= bounds.hi { return bounds }
        // A corner row: as in `rowSpan`. Zero beyond the outer columns, and (the corner's edge
        // being 255 there) the box's coverage within the inner ones: the intersection of both
        // spans is one.
        let m = x0 &+ w / 2, c = w / 2 &- rr
        let o = columnRange(centreRawFrom: m &- (v.outer &+ c), to: m &+ (v.outer &+ c))
        let i = columnRange(centreRawFrom: m &- (v.inner &+ c), to: m &+ (v.inner &+ c))
        bounds.lo = larger(bounds.lo, o.lo); bounds.hi = smaller(bounds.hi, o.hi)
        bounds.innerLo = larger(bounds.innerLo, i.lo); bounds.innerHi = smaller(bounds.innerHi, i.hi)
        return bounds
    }
}

/// What row `y` (its centre, raw) of a rounded rectangle with `hasTameRows` is apart from where
/// the rectangle lies across: its overlap in y and coverage there, and in a corner row the
/// half-widths of the corner circle at the row's outer and inner bounds (`tameRowBounds`) and
/// qy² (`RoundedRectangleRow`). A pure function of y, the rectangle's top and height and the radius.
@usableFromInline struct RoundedRowHeight: Sendable, Equatable {
    @usableFromInline var oy: Int64, qy2: UInt64, outer: Int64, inner: Int64
    @usableFromInline var coverage: UInt8
    @usableFromInline var isCornerRow: Bool
    @inlinable @inline(__always) init(_ shape: RoundedRectangle, y: Int64, roots: EdgeRootMemo?) {
        let y0 = Int64(shape.rect.y.raw), h = Int64(shape.rect.height.raw), rr = Int64(shape.cornerRadius.raw)
        oy = smaller(larger(smaller(y &+ 0x8000, y0 &+ h) &- larger(y &- 0x8000, y0), 0), 0x10000)
        coverage = oy >= 0x10000 ? 255 : UInt8(truncatingIfNeeded: (oy &* 255 &+ 0x8000) >> 16)
        let dy = y &- (y0 &+ h / 2)
        let qy = (dy < 0 ? 0 &- dy : dy) &- (h / 2 &- rr)
        qy2 = UInt64(qy.magnitude) &* UInt64(qy.magnitude)
        isCornerRow = qy > 0 && rr != 0
        outer = 0; inner = 0
        if oy == 0 || !isCornerRow { return }
        let q2 = qy &* qy
        let mOuter = (rr &+ 0x8000) &* (rr &+ 0x8000) &- q2, mInner = (rr &- 0x7FFF) &* (rr &- 0x7FFF) &- q2
        outer = larger(0, roots?.largestBelowSquare(mOuter) ?? largestBelowSquare(mOuter))
        inner = rr < 0x8000 ? 0 : larger(0, roots?.largestBelowSquare(mInner) ?? largestBelowSquare(mInner))
    }
}

/// A row span before it is cut to the columns being drawn (see `RowSpan.init(columns:lo:hi:…)`):
/// coverage 0 outside lo ..< hi, `innerCoverage` within innerLo ..< innerHi.
@usableFromInline struct RowBounds: Sendable {
    @usableFromInline var lo: Int, hi: Int, innerLo: Int, innerHi: Int
    @usableFromInline var innerCoverage: UInt8
    @inlinable init(lo: Int, hi: Int, innerLo: Int, innerHi: Int, innerCoverage: UInt8) {
        self.lo = lo; self.hi = hi; self.innerLo = innerLo; self.innerHi = innerHi; self.innerCoverage = innerCoverage
    }
    @inlinable static var empty: RowBounds { RowBounds(lo: 0, hi: 0, innerLo: 0, innerHi: 0, innerCoverage: 0) }
}

extension RowSpan {
    @inlinable @inline(__always) init(columns: Range<Int>, _ b: RowBounds) {
        if b.lo >= b.hi { self = .empty(columns); return }
        self.init(columns: columns, lo: b.lo, hi: b.hi, innerLo: b.innerLo, innerHi: b.innerHi, innerCoverage: b.innerCoverage)
    }
}

extension Ellipse {
    @inlinable public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan { rowSpan(y: y, columns: columns, roots: nil) }

    /// The same, its two roots through `roots` when there is one (see `EdgeRootMemo`).
    @inlinable @inline(__always) func rowSpan(y: Fixed, columns: Range<Int>, roots: EdgeRootMemo?) -> RowSpan {
        if radiusX.raw <= 0 || radiusY.raw <= 0 { return .empty(columns) }
        // Only circles: an ellipse's coverage is a quotient of roots with no simple inverse.
        guard radiusX == radiusY, isTame(center.x), isTame(center.y), isTame(radiusX) else { return .unknown(columns) }
        return tameCircleRowSpan(y: y, columns: columns, roots: roots)
    }

    /// Whether `tameCircleRowSpan` applies: a circle with a radius > 0, it and the centre tame.
    @inlinable @inline(__always) var isTameCircle: Bool {
        radiusX.raw > 0 && radiusX == radiusY && isTame(center.x) && isTame(center.y) && isTame(radiusX)
    }

    /// `rowSpan` of a tame circle (`isTameCircle`), without testing that again for every row.
    @inlinable @inline(__always) func tameCircleRowSpan(y: Fixed, columns: Range<Int>, roots: EdgeRootMemo?) -> RowSpan {
        // coverage = (½ − (hypot(dx, dy) − r)).unitByte, hypot = ⌊√(dx² + dy²)⌋ in raw units:
        // non-zero needs dx² + dy² < (r + ½)², and it is 255 when dx² + dy² < (r − ½ + ε)².
        // Wrapping arithmetic: with a tame centre and radius every value here is below 2⁶⁰.
        let r = Int64(radiusX.raw), dy = Int64((y - center.y).raw), cx = Int64(center.x.raw)
        let mOuter = (r &+ 0x8000) &* (r &+ 0x8000) &- dy &* dy, mInner = (r &- 0x7FFF) &* (r &- 0x7FFF) &- dy &* dy
        let outer = roots?.largestBelowSquare(mOuter) ?? largestBelowSquare(mOuter)
        if outer < 0 { return .empty(columns) }
        let inner = r < 0x8000 ? -1 : (roots?.largestBelowSquare(mInner) ?? largestBelowSquare(mInner))
        let o = columnRange(centreRawFrom: cx &- outer, to: cx &+ outer)
        let i = columnRange(centreRawFrom: cx &- inner, to: cx &+ inner)
        return RowSpan(columns: columns, lo: o.lo, hi: o.hi, innerLo: i.lo, innerHi: i.hi, innerCoverage: 255)
    }
}

extension HalfPlane {
    /// Whether `distance` is plain integer arithmetic for pixel centres on a canvas: a real edge
    /// (a degenerate one has offset `.min`) and an offset small enough not to saturate.
    @inlinable @inline(__always) var isTame: Bool {
        offset.raw.magnitude <= 16384 << 16 && nx.raw.magnitude <= 1 << 16 && ny.raw.magnitude <= 1 << 16 && (nx.raw != 0 || ny.raw != 0)
    }

    /// Narrows columns lo ..< hi to those whose centre on row `y` has distance ≤ `limit` (raw).
    ///
    /// distance = nx × x + ny × y − offset with x = px + ½, and nx × x rounds
    /// (nx·(px·2¹⁶ + 2¹⁵) + 2¹⁵) >> 16 = nx·px + ((nx·2¹⁵ + 2¹⁵) >> 16): along a row the
    /// distance is exactly nx·px + k, linear in the column.
    @inlinable @inline(__always) func narrow(_ lo: inout Int64, _ hi: inout Int64, y: Fixed, limit: Int64) {
        let (slope, k) = rowLine(y: y)
        HalfPlane.narrow(&lo, &hi, slope: slope, k: k, limit: limit)
    }

    /// `narrow` for a row line already worked out (see `rowLine`).
    @inlinable @inline(__always) static func narrow(_ lo: inout Int64, _ hi: inout Int64, slope: Int64, k: Int64, limit: Int64) {
        if slope > 0 {
            hi = smaller(hi, floorDiv(limit - k, slope) + 1)
        } else if slope < 0 {
            lo = larger(lo, ceilDiv(k - limit, -slope))
        } else if k > limit {
            hi = lo
        }
    }
}

extension RowSpan {
    /// The span of a convex polygon's row from its edges: coverage = (½ − max distance).unitByte
    /// is non-zero only where every distance ≤ ½ − ε, and 255 where every distance ≤ −½.
    @inlinable static func convex(columns: Range<Int>, y: Fixed, forEachEdge: ((HalfPlane) -> Void) -> Void) -> RowSpan {
        var lo = Int64(columns.lowerBound), hi = Int64(columns.upperBound)
        var innerLo = lo, innerHi = hi
        forEachEdge { e in
            // The row's line once for both limits.
            let (slope, k) = e.rowLine(y: y)
            HalfPlane.narrow(&lo, &hi, slope: slope, k: k, limit: 0x7FFF)
            HalfPlane.narrow(&innerLo, &innerHi, slope: slope, k: k, limit: -0x8000)
        }
        return RowSpan(columns: columns, lo: Int(lo), hi: Int(larger(lo, hi)),
                       innerLo: Int(innerLo), innerHi: Int(innerHi), innerCoverage: 255)
    }
}

extension Triangle {
    @inlinable public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan {
        guard edgesAreTame else { return .unknown(columns) }
        return .convex(columns: columns, y: y) { edge in edge(e0); edge(e1); edge(e2) }
    }
}

extension ConvexPolygon {
    @inlinable public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan {
        for e in edges where !e.isTame { return .unknown(columns) }
        return .convex(columns: columns, y: y) { edge in for e in edges { edge(e) } }
    }
}

extension Clip {
    /// The clip's row span, the same as its shape's.
    @inlinable public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan {
        switch self {
        case .rect(let r): return Rectangle(r).rowSpan(y: y, columns: columns)
        case .roundedRect(let r, let radius): return RoundedRectangle(r, cornerRadius: radius).rowSpan(y: y, columns: columns)
        }
    }

    /// The same for canvas row `row`, a rounded clip's through `memo`.
    @inlinable @inline(__always) func rowSpan(row: Int, y: Fixed, columns: Range<Int>, memo: inout OutlineMemo) -> RowSpan {
        switch self {
        case .rect(let r): return Rectangle(r).rowSpan(y: y, columns: columns)
        case .roundedRect(let r, let radius): return memo.rowSpan(RoundedRectangle(r, cornerRadius: radius), y: row, centerY: y, columns: columns)
        }
    }
}
