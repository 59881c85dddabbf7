import FixedPoint
import CompactText

/// A filled 2-D shape with analytic anti-aliasing.
///
/// `coverage(x:y:)` answers how much of the one-pixel square centred at (x, y) the shape covers,
/// as 0...255, from the exact area for axis-aligned rectangles and from the signed distance to the
/// outline (coverage = ½ − distance, clamped) for curved and slanted edges. Both vary continuously
/// with subpixel position, so a shape moving by ¼ pixel changes the edge pixels' coverage instead
/// of jumping a whole pixel every fourth frame.
public protocol Shape: Sendable {
    /// What `row(y:)` returns: the row-constant part of `coverage(x:y:)`, worked out once per row.
    associatedtype Row: ShapeRow = PointwiseRow<Self>
    /// A rectangle that contains every pixel with non-zero coverage.
    var bounds: FixedRect { get }
    /// Coverage 0...255 of the pixel whose centre is (x, y).
    func coverage(x: Fixed, y: Fixed) -> UInt8
    /// For the pixel row whose centres are at `y`, the columns (of `columns`) where coverage is
    /// certainly 0 and those where it is certainly uniform (see `RowSpan`), so filling evaluates
    /// `coverage(x:y:)` only near the outline. Must agree exactly with `coverage(x:y:)`; the
    /// default knows nothing, which is always correct. See ShapeSpans.swift.
    func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan
    /// Coverage along the pixel row whose centres are at `y`: `row(y: y).coverage(column: x)` must
    /// equal `coverage(x: Fixed(x) + .half, y: y)` exactly. The pixel loop asks for it once per row
    /// and then per edge pixel, so a shape can do the work that depends on the row only once (the
    /// default just calls `coverage(x:y:)`). See ShapeRows.swift.
    func row(y: Fixed) -> Row
}

/// One row of a shape's coverage (see `Shape.row(y:)`).
public protocol ShapeRow {
    /// Coverage 0...255 of the pixel in column `column` of this row.
    func coverage(column: Int) -> UInt8
    /// `coverage(column: x)` into `coverages[x]` for every x in `columns`: the pixel loop's way of
    /// asking, so a row can decide once for the whole range what it would decide per column.
    func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>)
}

extension ShapeRow {
    @inlinable @inline(__always) public func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>) {
        for x in columns { coverages[x] = coverage(column: x) }
    }
}

/// Whether every column of `columns` is within ±8192, where the rows' integer fast paths hold.
@inlinable @inline(__always) func isTameColumns(_ columns: Range<Int>) -> Bool {
    columns.lowerBound >= -8192 && columns.upperBound <= 8193
}

/// A row that knows nothing in advance: each pixel is the shape's `coverage(x:y:)`.
public struct PointwiseRow<S: Shape>: ShapeRow {
    public let shape: S
    public let y: Fixed
    @inlinable public init(shape: S, y: Fixed) { self.shape = shape; self.y = y }
    @inlinable public func coverage(column: Int) -> UInt8 { shape.coverage(x: Fixed(column) + .half, y: y) }
}

extension Shape {
    @inlinable public func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan { .unknown(columns) }
}

extension Shape where Row == PointwiseRow<Self> {
    @inlinable public func row(y: Fixed) -> PointwiseRow<Self> { PointwiseRow(shape: self, y: y) }
}

/// Coverage from a signed distance in pixels (negative inside): ½ − d, clamped to 0...1.
@inlinable @inline(__always) func edgeCoverage(signedDistance d: Fixed) -> UInt8 { (Fixed.half - d).unitByte }

/// Overlap of the unit interval centred at `c` with [lo, hi], clamped to 0...1.
@inlinable @inline(__always) func overlap(_ c: Fixed, _ lo: Fixed, _ hi: Fixed) -> Fixed {
    (Swift.min(c + .half, hi) - Swift.max(c - .half, lo)).unitClamped
}

/// An axis-aligned rectangle; coverage is the exact overlap area with each pixel.
public struct Rectangle: Shape {
    public var rect: FixedRect
    @inlinable public init(_ rect: FixedRect) { self.rect = rect }
    @inlinable public var bounds: FixedRect { rect }
    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        (overlap(x, rect.x, rect.maxX) * overlap(y, rect.y, rect.maxY)).unitByte
    }
}

/// A rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
/// With the radius at half the height it is a capsule; with 0 it is an exact `Rectangle`.
public struct RoundedRectangle: Shape {
    public var rect: FixedRect
    public var cornerRadius: Fixed

    @inlinable public init(_ rect: FixedRect, cornerRadius: Fixed) {
        self.rect = rect
        let limit = Swift.min(rect.width, rect.height) / 2
        self.cornerRadius = Swift.max(.zero, Swift.min(cornerRadius, limit))
    }

    /// A pill: corner radius half the shorter side.
    @inlinable public static func capsule(_ rect: FixedRect) -> RoundedRectangle {
        RoundedRectangle(rect, cornerRadius: Swift.min(rect.width, rect.height) / 2)
    }

    @inlinable public var bounds: FixedRect { rect }

    /// The part of `self` inside `other`, when it is one rounded rectangle: both the same rows
    /// (top, height) and the same corner radius, and what they share in x at least 2 pixels and
    /// two radii wide. A pixel's coverage depends on its distance to the nearer end alone, and
    /// never falls as that distance grows, so the smaller of the two shapes' coverages is that of
    /// the one spanning from the inner left end to the inner right end: the same bytes as `self`
    /// clipped to `other` (a bar's fill in its track; RasterTests' `fillsInTheirTrackEqualClippedOnes` compares them).
    @inlinable func intersection(withSameRows other: RoundedRectangle) -> RoundedRectangle? {
        guard rect.y == other.rect.y, rect.height == other.rect.height, cornerRadius == other.cornerRadius else { return nil }
        let x0 = Swift.max(rect.x, other.rect.x), x1 = Swift.min(rect.maxX, other.rect.maxX)
        let width = x1 - x0
        guard width >= Swift.max(Fixed(2), cornerRadius * 2) else { return nil }
        // The right end's corners are reckoned from the middle, x + width / 2 (rounded down in
        // raw units), so its circle sits a raw unit further left when the width is odd: the part
        // inside has its ends where they were only when its width is odd or even as the widths
        // of the shapes whose right ends it has.
        let odd = width.raw & 1
        if rect.maxX <= other.rect.maxX && rect.width.raw & 1 != odd { return nil }
        if other.rect.maxX <= rect.maxX && other.rect.width.raw & 1 != odd { return nil }
        return RoundedRectangle(FixedRect(x: x0, y: rect.y, width: width, height: rect.height), cornerRadius: cornerRadius)
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        if rect.isEmpty { return 0 }
        let r = cornerRadius
        // Outside the corner squares the outline is straight: use the exact box overlap.
        let qx = (x - rect.midX).magnitude - (rect.width / 2 - r)
        let qy = (y - rect.midY).magnitude - (rect.height / 2 - r)
        if qx.raw <= 0 || qy.raw <= 0 || r.raw == 0 {
            return (overlap(x, rect.x, rect.maxX) * overlap(y, rect.y, rect.maxY)).unitByte
        }
        // In a corner: distance to the corner circle.
        let d = Fixed.hypot(qx, qy) - r
        let box = (overlap(x, rect.x, rect.maxX) * overlap(y, rect.y, rect.maxY)).unitByte
        return Swift.min(edgeCoverage(signedDistance: d), box)
    }
}

/// An ellipse (a circle when both radii are equal), possibly scaled about a point.
public struct Ellipse: Shape {
    public var center: Point
    public var radiusX: Fixed
    public var radiusY: Fixed

    @inlinable public init(center: Point, radiusX: Fixed, radiusY: Fixed) {
        self.center = center; self.radiusX = Swift.max(.zero, radiusX); self.radiusY = Swift.max(.zero, radiusY)
    }
    @inlinable public init(center: Point, radius: Fixed) { self.init(center: center, radiusX: radius, radiusY: radius) }

    /// The ellipse scaled by `factor` about `anchor` (e.g. a circle growing about its centre).
    @inlinable public func scaled(by factor: Fixed, about anchor: Point) -> Ellipse {
        Ellipse(center: Point(x: anchor.x + (center.x - anchor.x) * factor, y: anchor.y + (center.y - anchor.y) * factor),
                radiusX: radiusX * factor, radiusY: radiusY * factor)
    }

    @inlinable public var bounds: FixedRect {
        FixedRect(x: center.x - radiusX, y: center.y - radiusY, width: radiusX * 2, height: radiusY * 2)
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        if radiusX.raw <= 0 || radiusY.raw <= 0 { return 0 }
        let dx = x - center.x, dy = y - center.y
        if radiusX == radiusY { return edgeCoverage(signedDistance: Fixed.hypot(dx, dy) - radiusX) }
        // Normalised radius k = |(dx/rx, dy/ry)|; first-order distance (k − 1) / |∇k|.
        let u = dx / radiusX, v = dy / radiusY
        let k = Fixed.hypot(u, v)
        if k.raw == 0 { return 255 }
        let gx = u / radiusX, gy = v / radiusY
        let grad = Fixed.hypot(gx, gy) / k
        if grad.raw == 0 { return 0 }
        return edgeCoverage(signedDistance: (k - .one) / grad)
    }
}

/// Signed distance machinery for convex polygons: one unit normal per edge, computed when the
/// shape is made, so the per-pixel test is a few multiply-adds per edge.
@usableFromInline struct HalfPlane: Sendable {
    @usableFromInline var nx: Fixed, ny: Fixed, offset: Fixed
    /// The half-plane bounded by the line through a and b that contains `inside` (any point
    /// inside the polygon, e.g. the centroid): its normal points away from `inside`.
    @inlinable init(_ a: Point, _ b: Point, inside: Point) {
        let ex = b.x - a.x, ey = b.y - a.y
        let length = Fixed.hypot(ex, ey)
        if length.raw == 0 { nx = .zero; ny = .zero; offset = .min; return }
        nx = ey / length; ny = -ex / length
        offset = nx * a.x + ny * a.y
        if nx * inside.x + ny * inside.y - offset > .zero { nx = -nx; ny = -ny; offset = -offset }
    }
    /// Signed distance of (x, y) outside the edge (negative inside).
    @inlinable @inline(__always) func distance(_ x: Fixed, _ y: Fixed) -> Fixed { nx * x + ny * y - offset }
}

/// A triangle, any winding.
public struct Triangle: Shape {
    public let a: Point, b: Point, c: Point
    @usableFromInline let e0: HalfPlane, e1: HalfPlane, e2: HalfPlane
    /// Whether every edge `isTame` (the rows' and spans' integer paths), decided once here rather
    /// than for each row (~55 instructions a span and a row).
    @usableFromInline let edgesAreTame: Bool
    public let bounds: FixedRect

    @inlinable public init(_ a: Point, _ b: Point, _ c: Point) {
        self.a = a; self.b = b; self.c = c
        let centroid = Point(x: (a.x + b.x + c.x) / 3, y: (a.y + b.y + c.y) / 3)
        e0 = HalfPlane(a, b, inside: centroid); e1 = HalfPlane(b, c, inside: centroid); e2 = HalfPlane(c, a, inside: centroid)
        edgesAreTame = e0.isTame && e1.isTame && e2.isTame
        let x0 = Swift.min(a.x, b.x, c.x), y0 = Swift.min(a.y, b.y, c.y)
        bounds = FixedRect(x: x0 - .one, y: y0 - .one, width: Swift.max(a.x, b.x, c.x) - x0 + 2, height: Swift.max(a.y, b.y, c.y) - y0 + 2)
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        let d = Swift.max(e0.distance(x, y), e1.distance(x, y), e2.distance(x, y))
        return edgeCoverage(signedDistance: d)
    }
}

/// A convex polygon (vertices in order, either winding). Build it once; it owns an array.
public struct ConvexPolygon: Shape {
    public let points: [Point]
    @usableFromInline let edges: [HalfPlane]
    public let bounds: FixedRect

    public init(_ points: [Point]) {
        precondition(points.count >= 3, "a polygon needs at least 3 points")
        self.points = points
        var sx = Fixed.zero, sy = Fixed.zero
        for p in points { sx += p.x / points.count; sy += p.y / points.count }
        let centroid = Point(x: sx, y: sy)
        edges = points.indices.map { HalfPlane(points[$0], points[($0 + 1) % points.count], inside: centroid) }
        let xs = points.map { $0.x }, ys = points.map { $0.y }
        let x0 = xs.min()!, y0 = ys.min()!
        bounds = FixedRect(x: x0 - .one, y: y0 - .one, width: xs.max()! - x0 + 2, height: ys.max()! - y0 + 2)
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        var d = Fixed.min
        for e in edges { d = Swift.max(d, e.distance(x, y)) }
        return edgeCoverage(signedDistance: d)
    }
}
