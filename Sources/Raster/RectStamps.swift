import FixedPoint

// Rounded rectangles filled again unchanged onto clear pixels (pagedots' dots and track,
// skeleton's blocks, a bar's track), from the pixels their last such fill stored: onto pixels
// still clear every blend mode stores the paint scaled by coverage × alpha, a pure function of
// the shape, the paint and the alpha, so the words a fill left in its rows' spans are the words
// the same fill would store again. Kept per shape, paint and alpha; used only while every row
// of the fill is still clear (`Canvas.drawn`), else the fill is worked out as usual.

/// One kept fill: what it was, the rows it covered, and when it was last asked for.
@usableFromInline struct RectStampSlot: Sendable {
    @usableFromInline var rect: FixedRect, radius: Fixed, paint: UInt32, alpha: UInt32
    /// Seen once (only noted, see `CircleStampSlot.made`), or its words kept.
    @usableFromInline var made: Bool
    @usableFromInline var lastUse: UInt32
    @inlinable init(rect: FixedRect, radius: Fixed, paint: UInt32, alpha: UInt32, lastUse: UInt32) {
        self.rect = rect; self.radius = radius; self.paint = paint; self.alpha = alpha; made = false; self.lastUse = lastUse
    }
    @inlinable func holds(_ shape: RoundedRectangle, paint: UInt32, alpha: UInt32) -> Bool {
        rect == shape.rect && radius == shape.cornerRadius && self.paint == paint && self.alpha == alpha
    }
}

/// A kept row: the span's columns lo ..< hi (as the pixel loop cut them to the area) and where
/// their words start.
@usableFromInline struct RectStampRow: Sendable {
    @usableFromInline var lo: Int32, hi: Int32, offset: Int32
    @inlinable init(lo: Int32, hi: Int32, offset: Int32) { self.lo = lo; self.hi = hi; self.offset = offset }
}

@usableFromInline struct RectStamps: Sendable {
    @usableFromInline static let slotCount = 8
    /// Rows and words a slot holds: a larger fill is worked out every time.
    @usableFromInline static let maximumRows = 32, capacity = 1024
    @usableFromInline var slots: [RectStampSlot?]
    @usableFromInline var rows: [RectStampRow]
    @usableFromInline var words: [UInt32]
    @usableFromInline var clock: UInt32 = 0
    @usableFromInline var lastHit = 0

    init() {
        slots = Array(repeating: nil, count: RectStamps.slotCount)
        rows = Array(repeating: RectStampRow(lo: 0, hi: 0, offset: 0), count: RectStamps.slotCount * RectStamps.maximumRows)
        words = .untouched(count: RectStamps.slotCount * RectStamps.capacity)
    }

    /// The slot holding `shape` in `paint` at `alpha` (its last use now), or nil after noting it
    /// in the least recently used slot.
    @inlinable mutating func slot(for shape: RoundedRectangle, paint: UInt32, alpha: UInt32) -> Int? {
        clock &+= 1
        // The slot used last first: a frame's fills come in the order of the last frame's.
        if let s = slots[lastHit], s.holds(shape, paint: paint, alpha: alpha) { slots[lastHit]!.lastUse = clock; return lastHit }
        var oldest = 0, oldestUse = UInt32.max
        for i in 0..<RectStamps.slotCount {
            guard let s = slots[i] else { oldest = i; oldestUse = 0; continue }
            if s.holds(shape, paint: paint, alpha: alpha) { slots[i]!.lastUse = clock; lastHit = i; return i }
            if s.lastUse < oldestUse { oldest = i; oldestUse = s.lastUse }
        }
        slots[oldest] = RectStampSlot(rect: shape.rect, radius: shape.cornerRadius, paint: paint, alpha: alpha, lastUse: clock)
        return nil
    }
}

extension Canvas {
    /// `fill` of a rounded rectangle in a solid paint with no clip: from its slot's words when
    /// kept and every row is still clear (true: done), else false after keeping the words if
    /// this is the fill's second time and it is about to land on clear rows (`captureRectStamp`
    /// then takes them once the usual fill has run).
    @inlinable mutating func stampedFill(_ shape: RoundedRectangle, area: PixelRect, paint: UInt32, alpha: UInt32, capture: inout Int?) -> Bool {
        guard knowsClear, area.height <= RectStamps.maximumRows, let i = rectStamps.slot(for: shape, paint: paint, alpha: alpha) else { return false }
        let made = rectStamps.slots[i]!.made, width = self.width
        if !made {
            // Kept only from a fill onto a clear area (checked first: a shape drawn over others
            // every frame, a monochrome outline's inside, is then turned away for a few
            // instructions a row), its spans now (the pixel loop's, `rowSpan` being pure).
            for y in area.y..<area.maxY where !isClear(y, area.x, area.maxX) { return false }
            let columns = area.x..<area.maxX
            var used = 0
            for y in area.y..<area.maxY {
                let span = shape.rowSpan(y: Fixed(y) + .half, columns: columns)
                let lo = span.isEmpty ? 0 : span.lo, hi = span.isEmpty ? 0 : span.hi
                if used + (hi - lo) > RectStamps.capacity { return false }
                rectStamps.rows[i * RectStamps.maximumRows + (y - area.y)] = RectStampRow(lo: Int32(lo), hi: Int32(hi), offset: Int32(used))
                used += hi - lo
            }
            capture = i
            return false
        }
        for y in area.y..<area.maxY {
            let r = rectStamps.rows[i * RectStamps.maximumRows + (y - area.y)]
            if !isClear(y, Int(r.lo), Int(r.hi)) { return false }
        }
        Canvas.withRectStampBuffers(&storage, &drawn, &rectStamps.rows, &rectStamps.words) { pixels, drawn, rows, words in
            for y in area.y..<area.maxY {
                let r = rows[i * RectStamps.maximumRows + (y - area.y)]
                let lo = Int(r.lo), hi = Int(r.hi)
                if lo >= hi { continue }
                // As the pixel loop leaves `drawn`, the row being clear in lo ..< hi.
                _ = Canvas.noteDrawn(drawn + y, lo, hi)
                UnsafeMutableRawPointer(pixels + y * width + lo).copyMemory(from: words + i * RectStamps.capacity + Int(r.offset), byteCount: (hi - lo) * 4)
            }
        }
        return true
    }

    /// Takes the words of slot `i`'s rows from the pixels the usual fill has just stored there.
    @inlinable mutating func captureRectStamp(_ i: Int, area: PixelRect) {
        let width = self.width
        Canvas.withRectStampBuffers(&storage, &drawn, &rectStamps.rows, &rectStamps.words) { pixels, _, rows, words in
            for y in area.y..<area.maxY {
                let r = rows[i * RectStamps.maximumRows + (y - area.y)]
                if r.lo >= r.hi { continue }
                UnsafeMutableRawPointer(words + i * RectStamps.capacity + Int(r.offset))
                    .copyMemory(from: pixels + y * width + Int(r.lo), byteCount: Int(r.hi - r.lo) * 4)
            }
        }
        rectStamps.slots[i]!.made = true
    }

    /// Whether columns lo ..< hi of row y are still clear (as `compositeRows` decides it).
    @inlinable func isClear(_ y: Int, _ lo: Int, _ hi: Int) -> Bool {
        if lo >= hi { return true }
        let (dlo, dhi) = Canvas.drawnColumns(drawn[y])
        return dlo >= dhi || hi <= dlo || lo >= dhi
    }

    @inlinable static func withRectStampBuffers(_ pixels: inout [Pixel], _ drawn: inout [UInt32], _ rows: inout [RectStampRow], _ words: inout [UInt32],
                                                _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<RectStampRow>,
                                                         UnsafeMutablePointer<UInt32>) -> Void) {
        pixels.withUnsafeMutableBufferPointer { p in
            drawn.withUnsafeMutableBufferPointer { d in
                rows.withUnsafeMutableBufferPointer { r in
                    words.withUnsafeMutableBufferPointer { w in body(p.baseAddress!, d.baseAddress!, r.baseAddress!, w.baseAddress!) }
                }
            }
        }
    }
}

extension Array where Element: FixedWidthInteger {
    /// `count` elements whose memory is allocated but not written: for the caches above, whose
    /// bytes are read only after a fill has written them (a slot's `made`, the memo's `valid`).
    /// Zeroing them (`Array(repeating: 0, …)`) made their pages resident in every daemon,
    /// ~130 KB a canvas, whether or not its loader ever draws a circle or a rounded rectangle
    /// twice; untouched, a page costs memory only once a stamp is made in it.
    @usableFromInline static func untouched(count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
