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
    @usableFromInline let rows: UnsafeMutablePointer<RowBounds>
    @usableFromInline let height: Int
    /// The slot last used, and the one to replace next.
    @usableFromInline var current: Int, next: Int
    /// The canvas's table of roots, for the spans of circles (`Ellipse.rowSpan(y:columns:roots:)`).
    @usableFromInline let roots: EdgeRootMemo

    @inlinable init(slots: UnsafeMutablePointer<OutlineSlot>, rows: UnsafeMutablePointer<RowBounds>, height: Int, current: Int, next: Int,
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
        if valid.contains(y) { return RowSpan(columns: columns, base[y]) }
        let b = shape.tameRowBounds(y: Int64(centerY.raw))
        base[y] = b
        // Only a contiguous run of rows is recorded (a fill goes row by row).
        if valid.upperBound == y && !valid.isEmpty { slot.pointee.valid = valid.lowerBound..<(y + 1) } else if valid.lowerBound == y + 1 {
            slot.pointee.valid = y..<valid.upperBound
        } else {
            slot.pointee.valid = y..<(y + 1)
        }
        return RowSpan(columns: columns, b)
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
