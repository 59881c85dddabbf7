import FixedPoint

/// One outline `OutlineMemo` holds: the rounded rectangle, and the canvas rows whose bounds it has.
@usableFromInline struct OutlineSlot: Sendable {
    @usableFromInline var rect: FixedRect
    @usableFromInline var radius: Fixed
    @usableFromInline var valid: Range<Int>
    @inlinable init(rect: FixedRect, radius: Fixed, valid: Range<Int>) { self.rect = rect; self.radius = radius; self.valid = valid }
    @inlinable static var empty: OutlineSlot {
        OutlineSlot(rect: FixedRect(x: .zero, y: .zero, width: .zero, height: .zero), radius: .zero, valid: 0..<0)
    }
}

/// One row of an outline `OutlineMemo` holds: its bounds, and (once a fill has asked for them)
/// the outline's coverage of the first and last 8 columns of those bounds, the row's edge pixels
/// for a shape as small as a dot or as a capsule's ends: taken from here they cost a copy instead
/// of a box overlap and a corner root each (pagedots' dots and track, a bar's track).
@usableFromInline struct OutlineRow: Sendable {
    @usableFromInline var bounds: RowBounds
    /// Coverage of column bounds.lo + i in byte i of `left`, of bounds.hi − 1 − i in byte i of
    /// `right` (i < 8, within the bounds); meaningful only when `edgesKnown`.
    @usableFromInline var left: UInt64, right: UInt64
    @usableFromInline var edgesKnown: Bool
    @inlinable init(bounds: RowBounds) { self.bounds = bounds; left = 0; right = 0; edgesKnown = false }
    @inlinable static var empty: OutlineRow { OutlineRow(bounds: .empty) }
}

/// The row bounds of the last few tame rounded rectangles whose spans were worked out, kept per
/// canvas row (`OutlineMemo.slotCount` outlines, replaced in turn): a clip with the same outline
/// as the shape drawn before it (a bar's track and the clip of its fill) takes its spans from
/// here instead of working them out again (two square roots a corner row), and so does the same
/// shape drawn again in the next frame (pagedots' dots and track, a bar's track, skeleton's
/// blocks) while fewer outlines than slots are drawn per frame. The bounds are a pure function of
/// the outline and the row, and do not depend on the columns drawn, so they are never stale.
@usableFromInline struct OutlineMemo {
    @usableFromInline static let slotCount = 4
    @usableFromInline let slots: UnsafeMutablePointer<OutlineSlot>
    /// `slotCount` × canvas height bounds: slot i's row y at i × height + y.
    @usableFromInline let rows: UnsafeMutablePointer<OutlineRow>
    @usableFromInline let height: Int
    /// The slot last used, and the one to replace next.
    @usableFromInline var current: Int, next: Int
    /// The canvas's table of roots, for the spans of circles (`Ellipse.rowSpan(y:columns:roots:)`).
    @usableFromInline let roots: EdgeRootMemo

    @inlinable init(slots: UnsafeMutablePointer<OutlineSlot>, rows: UnsafeMutablePointer<OutlineRow>, height: Int, current: Int, next: Int,
                    roots: EdgeRootMemo) {
        self.slots = slots; self.rows = rows; self.height = height; self.current = current; self.next = next; self.roots = roots
    }

    /// `shape.rowSpan(y: centerY, columns:)` for canvas row `y`, from the memo when it holds it.
    @inlinable @inline(__always) mutating func rowSpan(_ shape: RoundedRectangle, y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan {
        rowSpan(shape, hasTameRows: shape.hasTameRows, y: y, centerY: centerY, columns: columns)
    }

    /// The same with `shape.hasTameRows` worked out by the caller (once per fill).
    @inlinable @inline(__always) mutating func rowSpan(_ shape: RoundedRectangle, hasTameRows: Bool, y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan {
        guard hasTameRows, isTame(centerY) else { return shape.rowSpan(y: centerY, columns: columns) }
        if slots[current].rect != shape.rect || slots[current].radius != shape.cornerRadius { select(shape) }
        let slot = slots + current, base = rows + current * height
        let valid = slot.pointee.valid
        if valid.contains(y) { return RowSpan(columns: columns, base[y].bounds) }
        let b = shape.tameRowBounds(y: Int64(centerY.raw))
        base[y] = OutlineRow(bounds: b)
        // Only a contiguous run of rows is recorded (a fill goes row by row).
        if valid.upperBound == y && !valid.isEmpty { slot.pointee.valid = valid.lowerBound..<(y + 1) } else if valid.lowerBound == y + 1 {
            slot.pointee.valid = y..<valid.upperBound
        } else {
            slot.pointee.valid = y..<(y + 1)
        }
        return RowSpan(columns: columns, b)
    }

    /// The edge coverages of `span` (`lo ..< innerLo`, `innerHi ..< hi`) into `coverages`, for the
    /// canvas row `y` that `rowSpan` has just given for the outline of `row` (a tame shape and
    /// row): each column's byte from the kept row when it is one of the 8 at either end of the
    /// bounds, else from `row` (the same byte: `coverage(column:)` is a pure function of the
    /// outline, the row and the column, and the table's roots are exact).
    @inlinable @inline(__always) func edgeCoverages(_ row: RoundedRectangleRow, y: Int, span: RowSpan, into coverages: UnsafeMutablePointer<UInt8>) {
        let kept = keptRow(row, y: y)
        // The span lies within the bounds (it is them cut to the columns drawn).
        for x in span.lo..<span.innerLo { coverages[x] = coverage(kept, row, column: x) }
        for x in span.innerHi..<span.hi { coverages[x] = coverage(kept, row, column: x) }
    }

    /// Row `y` of the current outline (just given by `rowSpan`), its end columns' bytes worked out
    /// from `row` first if it has none yet.
    @inlinable @inline(__always) func keptRow(_ row: RoundedRectangleRow, y: Int) -> OutlineRow {
        let entry = rows + current * height + y
        if !entry.pointee.edgesKnown {
            let b = entry.pointee.bounds
            var left: UInt64 = 0, right: UInt64 = 0
            for i in 0..<8 where b.lo &+ i < b.hi {
                left |= UInt64(edgeCoverage(row, column: b.lo &+ i)) &<< UInt64(i &* 8)
                right |= UInt64(edgeCoverage(row, column: b.hi &- 1 &- i)) &<< UInt64(i &* 8)
            }
            entry.pointee.left = left; entry.pointee.right = right; entry.pointee.edgesKnown = true
        }
        return entry.pointee
    }

    /// The coverage of column `x` (within the kept row's bounds) of `row`: its byte when it is one
    /// of the 8 at either end of the bounds, else from `row` (the same byte: `coverage(column:)`
    /// is a pure function of the outline, the row and the column, and the table's roots are exact).
    @inlinable @inline(__always) func coverage(_ kept: OutlineRow, _ row: RoundedRectangleRow, column x: Int) -> UInt8 {
        let i = x &- kept.bounds.lo, j = kept.bounds.hi &- 1 &- x
        return i < 8 ? UInt8(truncatingIfNeeded: kept.left &>> UInt64(i &* 8))
            : j < 8 ? UInt8(truncatingIfNeeded: kept.right &>> UInt64(j &* 8)) : edgeCoverage(row, column: x)
    }

    /// `row.coverage(column:)`, the corner's root through the table where the row's tame path applies.
    @inlinable @inline(__always) func edgeCoverage(_ row: RoundedRectangleRow, column x: Int) -> UInt8 {
        row.isTameRow && x.magnitude <= 8192 ? row.tameCoverage(column: x, memo: roots) : row.coverage(column: x)
    }

    /// Makes `current` the slot of `shape`'s outline: the one that holds it, else the next in
    /// turn, emptied for it.
    @inlinable mutating func select(_ shape: RoundedRectangle) {
        for i in 0..<OutlineMemo.slotCount where slots[i].rect == shape.rect && slots[i].radius == shape.cornerRadius {
            current = i
            return
        }
        current = next
        next = (next + 1) % OutlineMemo.slotCount
        slots[current] = OutlineSlot(rect: shape.rect, radius: shape.cornerRadius, valid: 0..<0)
    }
}
