import FixedPoint

// A shape drawn again unchanged, frame after frame (quizup's bolt: two slanted triangles whose
// spans and edge coverages cost more than the pixels they paint), from what its last fill worked
// out: its row spans and the coverages of its edge columns, kept in the canvas. The caller names
// the shape by a key it promises identifies it (equal keys, equal shapes); the spans depend on
// the columns drawn too, so the key is the shape's and the area's.

/// What identifies a memoized shape: a kind chosen by the caller and three words of its geometry
/// (e.g. the layout rectangle and scales a shape is a pure function of).
public struct ShapeMemoKey: Sendable, Equatable {
    public var kind: UInt64, a: UInt64, b: UInt64, c: UInt64
    @inlinable public init(kind: UInt64, a: UInt64, b: UInt64, c: UInt64) { self.kind = kind; self.a = a; self.b = b; self.c = c }

    /// A key for a shape that is a pure function of `rect` and two more numbers (and of constants
    /// that `kind` stands for).
    @inlinable public init(kind: UInt64, rect: FixedRect, _ p: Fixed, _ q: Fixed) {
        self.init(kind: kind, a: ShapeMemoKey.pair(rect.x, rect.y), b: ShapeMemoKey.pair(rect.width, rect.height), c: ShapeMemoKey.pair(p, q))
    }
    @inlinable static func pair(_ p: Fixed, _ q: Fixed) -> UInt64 { UInt64(UInt32(bitPattern: p.raw)) << 32 | UInt64(UInt32(bitPattern: q.raw)) }
}

/// The canvas's memo of one shape: the spans of the area's rows and the coverages of their edge
/// columns (left edge, then right edge, one row after the other), sized when the canvas is made.
@usableFromInline struct ShapeMemo: Sendable {
    /// Edge bytes kept at most: a shape with more is drawn without the memo.
    @usableFromInline static let byteCapacity = 8192
    @usableFromInline var key: ShapeMemoKey
    @usableFromInline var area: PixelRect
    @usableFromInline var valid: Bool
    @usableFromInline var spans: [RowSpan]
    /// Where row y − area.y's edge bytes start in `bytes`.
    @usableFromInline var offsets: [Int]
    @usableFromInline var bytes: [UInt8]

    init(canvasWidth: Int, canvasHeight: Int) {
        key = ShapeMemoKey(kind: 0, a: 0, b: 0, c: 0)
        area = PixelRect(x: 0, y: 0, width: 0, height: 0)
        valid = false
        spans = Array(repeating: .empty(0..<0), count: canvasHeight)
        offsets = Array(repeating: 0, count: canvasHeight)
        bytes = .untouched(count: Swift.min(ShapeMemo.byteCapacity, canvasWidth * canvasHeight))
    }

    /// Works out and keeps `shape`'s spans and edge coverages over `area` (the same calls the
    /// pixel loop makes); false, the memo left empty, when the edges do not fit.
    @inlinable mutating func record<S: Shape>(_ shape: S, area: PixelRect, key: ShapeMemoKey) -> Bool {
        valid = false
        let columns = area.x..<area.maxX, capacity = bytes.count
        var used = 0
        for y in area.y..<area.maxY {
            let cy = Fixed(y) + .half
            let span = shape.rowSpan(y: cy, columns: columns)
            let count = (span.innerLo - span.lo) + (span.hi - span.innerHi)
            if used + count > capacity { return false }
            spans[y - area.y] = span
            offsets[y - area.y] = used
            if span.isEmpty { continue }
            let row = shape.row(y: cy)
            for x in span.lo..<span.innerLo { bytes[used] = row.coverage(column: x); used += 1 }
            for x in span.innerHi..<span.hi { bytes[used] = row.coverage(column: x); used += 1 }
        }
        self.key = key; self.area = area; valid = true
        return true
    }
}

/// Coverage from the memo (see `ShapeMemo`): the spans and edge bytes a fill of the same shape
/// over the same area worked out, so every byte is the one it would work out again.
@usableFromInline struct MemoCoverage: CoverageSource {
    @usableFromInline let spans: UnsafePointer<RowSpan>
    @usableFromInline let offsets: UnsafePointer<Int>
    @usableFromInline let bytes: UnsafePointer<UInt8>
    @usableFromInline let top: Int
    @inlinable init(spans: UnsafePointer<RowSpan>, offsets: UnsafePointer<Int>, bytes: UnsafePointer<UInt8>, top: Int) {
        self.spans = spans; self.offsets = offsets; self.bytes = bytes; self.top = top
    }
    @inlinable func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan { spans[y &- top] }
    @inlinable func row(y: Int, centerY: Fixed) -> MemoRow {
        let s = spans[y &- top], start = bytes + offsets[y &- top]
        return MemoRow(left: start - s.lo, right: start + (s.innerLo &- s.lo) - s.innerHi, innerLo: s.innerLo, innerHi: s.innerHi, inner: s.innerCoverage)
    }
}

/// A row of the memo: column x's byte at left[x] before the inner run, at right[x] after it, and
/// the inner coverage within it (a clip can make the pixel loop ask for those too).
@usableFromInline struct MemoRow: ShapeRow {
    @usableFromInline let left: UnsafePointer<UInt8>, right: UnsafePointer<UInt8>
    @usableFromInline let innerLo: Int, innerHi: Int
    @usableFromInline let inner: UInt8
    @inlinable init(left: UnsafePointer<UInt8>, right: UnsafePointer<UInt8>, innerLo: Int, innerHi: Int, inner: UInt8) {
        self.left = left; self.right = right; self.innerLo = innerLo; self.innerHi = innerHi; self.inner = inner
    }
    @inlinable func coverage(column x: Int) -> UInt8 { x < innerLo ? left[x] : (x >= innerHi ? right[x] : inner) }
    @inlinable func coverages(_ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>) {
        for x in columns { coverages[x] = coverage(column: x) }
    }
}

extension Canvas {
    /// Fills `shape` as `fill(_:with:opacity:blend:)` does, its spans and edge coverages kept in the
    /// canvas under `key` and taken from there while the key and the area drawn stay the same.
    /// Equal keys must mean equal shapes: a key that does not change with the shape leaves stale
    /// pixels. One shape is kept; another key replaces it.
    @inlinable public mutating func fill<S: Shape>(_ shape: S, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal, memo key: ShapeMemoKey) {
        let area = drawableArea(for: shape.bounds)
        if area.isEmpty { return }
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        if !(shapeMemo.valid && shapeMemo.key == key && shapeMemo.area == area) && !shapeMemo.record(shape, area: area, key: key) {
            composite(area: area, paint: paint, blend: blend, alpha: alpha, ShapeCoverage(shape: shape))
            return
        }
        // The memo's arrays are only read while `composite` runs; a copy of the (reference-counted)
        // buffers keeps them apart from `self`, which composite mutates.
        let spans = shapeMemo.spans, offsets = shapeMemo.offsets, bytes = shapeMemo.bytes, top = area.y
        spans.withUnsafeBufferPointer { s in
            offsets.withUnsafeBufferPointer { o in
                bytes.withUnsafeBufferPointer { b in
                    composite(area: area, paint: paint, blend: blend, alpha: alpha, MemoCoverage(spans: s.baseAddress!, offsets: o.baseAddress!, bytes: b.baseAddress!, top: top))
                }
            }
        }
    }
}
