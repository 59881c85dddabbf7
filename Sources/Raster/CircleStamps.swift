import FixedPoint

// Small circles drawn again and again (worm's grid of dots, a circle that does not move) from a
// stamp: their row spans and edge coverages worked out once and kept, then only composited.
//
// A tame circle's coverage depends on its radius, the sub-pixel phase of its centre (the low 16
// bits of each coordinate's raw value) and the pixel's offset from the centre's whole-pixel part:
// with cx = ix · 2¹⁶ + fx, the distance from column x's centre is (x − ix) · 2¹⁶ + 2¹⁵ − fx, and
// the span bounds are ⌊…⌋ / ⌈…⌉ of cx ± a root, which shift by exactly ix. So a stamp made for a
// circle centred at (fx, fy) gives every circle of that radius and phase, moved by (ix, iy), the
// same bytes as working it out (FrameHash and the goldens check it).

/// What identifies a stamp, whether it holds its bytes yet, and which paint its words are for.
@usableFromInline struct CircleStampSlot: Sendable {
    /// radius.raw << 32 | fx << 16 | fy, the centre's phases being raw & 0xFFFF (UInt64.max: empty).
    @usableFromInline var key: UInt64
    /// A key seen once is only noted: a circle whose radius changes every frame (worm's swelling
    /// head) would otherwise pay for a stamp it never reuses. The second time, it is made.
    @usableFromInline var made: Bool
    /// When it was last asked for (the canvas's `stampClock`): the least recently used slot is replaced.
    @usableFromInline var lastUse: UInt32
    /// The paint (a premultiplied pixel's word) and alpha its words are for (alpha 0: none yet).
    @usableFromInline var paint: UInt32, alpha: UInt32
    @inlinable init(key: UInt64, made: Bool, lastUse: UInt32) { self.key = key; self.made = made; self.lastUse = lastUse; paint = 0; alpha = 0 }
    @inlinable static var empty: CircleStampSlot { CircleStampSlot(key: .max, made: false, lastUse: 0) }
}

/// One row of a stamp: its span's bounds relative to the centre's whole-pixel column, unclamped
/// (lo ≥ hi: nothing on this row).
@usableFromInline struct CircleStampRow: Sendable {
    @usableFromInline var lo: Int32, hi: Int32, innerLo: Int32, innerHi: Int32
    @inlinable init(lo: Int32, hi: Int32, innerLo: Int32, innerHi: Int32) { self.lo = lo; self.hi = hi; self.innerLo = innerLo; self.innerHi = innerHi }
    @inlinable static var empty: CircleStampRow { CircleStampRow(lo: 0, hi: 0, innerLo: 0, innerHi: 0) }
}

/// A canvas's stamps: `slotCount` of them, each `side` rows of `side` coverage bytes and as many
/// pixel words, sized when the canvas is made.
@usableFromInline struct CircleStamps: Sendable {
    @usableFromInline static let slotCount = 12
    /// The largest radius stamped, in pixels (less on a canvas whose shorter side is under 32):
    /// 17, not 16, so that the circle that fills a 32-pixel-tall canvas (quizup's) is in, its
    /// radius a hair over 16 where the layout's scale rounds up.
    @usableFromInline static let maximumRadius = 17
    /// Rows and columns −half ... half around the centre's pixel hold every non-zero coverage:
    /// |offset| < r + ½ pixel and the phase is below one pixel.
    @usableFromInline let half: Int, side: Int, radiusLimit: Int32
    @usableFromInline var slots: [CircleStampSlot]
    @usableFromInline var rows: [CircleStampRow]
    @usableFromInline var bytes: [UInt8]
    /// Per byte, the fill's pixel for it (paint scaled by coverage × alpha, 0 where that is 0),
    /// for the slot's paint and alpha: what a row onto clear pixels stores, copied.
    @usableFromInline var words: [UInt32]
    /// Counts the stamped fills, to order the slots by last use.
    @usableFromInline var clock: UInt32 = 0

    init(canvasWidth: Int, canvasHeight: Int) {
        // A circle wider than the canvas is rarely drawn twice, and the stamps stay small on an LED strip.
        let radius = Swift.min(CircleStamps.maximumRadius, Swift.min(canvasWidth, canvasHeight) / 2 + 1)
        radiusLimit = Int32(radius) << 16
        half = radius + 2
        side = 2 * half + 1
        slots = Array(repeating: .empty, count: CircleStamps.slotCount)
        rows = Array(repeating: .empty, count: CircleStamps.slotCount * side)
        bytes = .untouched(count: CircleStamps.slotCount * side * side)
        words = .untouched(count: CircleStamps.slotCount * side * side)
    }

    /// Whether `shape` can be stamped: a tame circle (see `Ellipse.isTameCircle`) within the radius limit.
    @inlinable func applies(_ shape: Ellipse) -> Bool { shape.isTameCircle && shape.radiusX.raw <= radiusLimit }

    /// The slot of the stamp of `shape`'s radius and phases, made if this is the second time it
    /// is asked for, or nil (the key noted in the least recently used slot) the first time.
    @inlinable static func stamp(for shape: Ellipse, slots: UnsafeMutablePointer<CircleStampSlot>, clock: UInt32, half: Int,
                                 rows: UnsafeMutablePointer<CircleStampRow>, bytes: UnsafeMutablePointer<UInt8>, roots: EdgeRootMemo) -> Int? {
        let r = shape.radiusX.raw, fx = shape.center.x.raw & 0xFFFF, fy = shape.center.y.raw & 0xFFFF
        let key = UInt64(r) << 32 | UInt64(fx) << 16 | UInt64(fy)
        let side = 2 * half + 1
        var oldest = 0
        for i in 0..<slotCount {
            let s = slots[i]
            if s.key == key {
                slots[i].lastUse = clock
                if !s.made {
                    make(radius: r, fx: fx, fy: fy, half: half, rows: rows + i * side, bytes: bytes + i * side * side, roots: roots)
                    slots[i].made = true
                }
                return i
            }
            if s.lastUse < slots[oldest].lastUse { oldest = i }
        }
        slots[oldest] = CircleStampSlot(key: key, made: false, lastUse: clock)
        return nil
    }

    /// Works the stamp out for a circle of radius `r` centred at (fx, fy) (raw): each row's span
    /// and the coverage of every column in it, by the same functions the pixel loop uses.
    @inlinable static func make(radius r: Int32, fx: Int32, fy: Int32, half: Int, rows: UnsafeMutablePointer<CircleStampRow>,
                                bytes: UnsafeMutablePointer<UInt8>, roots: EdgeRootMemo) {
        let circle = Ellipse(center: Point(x: Fixed(raw: fx), y: Fixed(raw: fy)), radius: Fixed(raw: r))
        let side = 2 * half + 1
        let columns = -half..<(half + 1)
        for j in 0..<side {
            let y = Fixed(j - half) + .half
            let span = circle.tameCircleRowSpan(y: y, columns: columns, roots: roots)
            let line = bytes + j * side + half
            (line - half).update(repeating: 0, count: side)
            if span.isEmpty { rows[j] = .empty; continue }
            rows[j] = CircleStampRow(lo: Int32(span.lo), hi: Int32(span.hi), innerLo: Int32(span.innerLo), innerHi: Int32(span.innerHi))
            let row = EllipseRow(circle, y: y, isCircle: true, isTameCircle: true)
            for x in span.lo..<span.hi {
                line[x] = x >= span.innerLo && x < span.innerHi ? span.innerCoverage : row.tameCoverage(column: x, memo: roots)
            }
        }
    }

    /// The stamp's words for `solid` at `alpha`, over each row's span: what `stampRow` would store
    /// onto clear pixels (and 0, a clear pixel's word, where it would store nothing).
    @inlinable static func makeWords(half: Int, rows: UnsafeMutablePointer<CircleStampRow>, bytes: UnsafeMutablePointer<UInt8>,
                                     words: UnsafeMutablePointer<UInt32>, solid: Pixel, alpha: UInt32) {
        let side = 2 * half + 1, lanes = spreadLanes(solid)
        for j in 0..<side {
            let s = rows[j]
            for i in (Int(s.lo) + half)..<larger(Int(s.lo), Int(s.hi)) + half {
                var c = UInt32(bytes[j * side + i])
                if alpha != 255 { c = div255(c &* alpha) }
                words[j * side + i] = c == 0 ? 0 : scaledWord(lanes, coverage: UInt8(truncatingIfNeeded: c))
            }
        }
    }
}

extension Canvas {
    /// `composite` of a circle with `CircleStamps.applies` in a solid paint with no clip that
    /// matters, from its stamp: false (nothing drawn) when it has none yet. The row loop of
    /// `compositeRows` with the span and edge bytes read from the stamp, and the same edge and
    /// run compositing, so the same bytes land.
    @inlinable mutating func compositeStamped(_ shape: Ellipse, area: PixelRect, color: Pixel, blend: BlendMode, alpha: UInt32) -> Bool {
        stamps.clock &+= 1
        let clock = stamps.clock, width = self.width, knowsClear = self.knowsClear, half = stamps.half
        return Canvas.withStampBuffers(&storage, &drawn, &stamps.slots, &stamps.rows, &stamps.bytes, &stamps.words, &edgeRoots) {
            pixels, drawn, slots, rows, bytes, words, roots in
            guard let i = CircleStamps.stamp(for: shape, slots: slots, clock: clock, half: half, rows: rows, bytes: bytes, roots: EdgeRootMemo(slots: roots))
            else { return false }
            let side = 2 * half + 1
            let stamp = StampPointers(half: half, rows: rows + i * side, bytes: bytes + i * side * side, words: words + i * side * side, slot: slots + i)
            Canvas.stampRows(shape, area, stamp, pixels, width, drawn, knowsClear, color, alpha, blend)
            return true
        }
    }

    /// The rows of a stamped fill: per row the span's columns (cut to the area's), whether they
    /// are still clear (`drawn`, as in `compositeRows`), then one loop over them.
    @inlinable static func stampRows(
        _ shape: Ellipse, _ area: PixelRect, _ stamp: StampPointers,
        _ pixels: UnsafeMutablePointer<Pixel>, _ width: Int, _ drawn: UnsafeMutablePointer<UInt32>, _ knowsClear: Bool,
        _ solid: Pixel, _ alpha: UInt32, _ blend: BlendMode
    ) {
        let half = stamp.half, side = 2 * half + 1, rows = stamp.rows
        let ix = Int(shape.center.x.raw >> 16), iy = Int(shape.center.y.raw >> 16)
        for y in area.y..<area.maxY {
            let j = y &- iy &+ half
            if j < 0 || j >= side { continue }
            let s = rows[j]
            // `RowSpan(columns:lo:hi:…)`'s bounds, when not empty.
            let lo = larger(ix &+ Int(s.lo), area.x), hi = smaller(ix &+ Int(s.hi), area.maxX)
            if lo >= hi { continue }
            let line = pixels + y * width
            let ontoClear = knowsClear && Canvas.noteDrawn(drawn + y, lo, hi)
            if ontoClear {
                // The words for this paint, worked out once (the bytes, and what `stampRow` stores for them).
                let slot = stamp.slot
                if slot.pointee.paint != word(solid) || slot.pointee.alpha != alpha {
                    CircleStamps.makeWords(half: half, rows: rows, bytes: stamp.bytes, words: stamp.words, solid: solid, alpha: alpha)
                    slot.pointee.paint = word(solid); slot.pointee.alpha = alpha
                }
                let offset = j &* side &+ half &- ix &+ lo
                UnsafeMutableRawPointer(line + lo).copyMemory(from: stamp.words + offset, byteCount: (hi &- lo) &* 4)
                continue
            }
            // Column x's byte at coverage[x] (only columns of the span are read).
            let coverage = stamp.bytes + j * side + half - ix
            if blend != .normal {
                // The other modes' loop, shared with every shape's edges (the same bytes).
                Canvas.blendEdges(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: nil, blend: blend)
            } else if alpha == 255 {
                stampRow(line, coverage, lo, hi, alpha: alpha, solid: solid, opaque: true)
            } else {
                stampRow(line, coverage, lo, hi, alpha: alpha, solid: solid, opaque: false)
            }
        }
    }

    /// One row of a stamped fill onto pixels that may not be clear, edge and inside alike, per
    /// pixel as `edgeLoop` blends: the inside's bytes are 255, and 255 × alpha, the paint scaled
    /// by it and blended, is what the uniform run gets too (`blendRun` gives the per-pixel bytes).
    @inlinable @inline(__always) static func stampRow(
        _ line: UnsafeMutablePointer<Pixel>, _ coverage: UnsafeMutablePointer<UInt8>, _ lo: Int, _ hi: Int,
        alpha: UInt32, solid: Pixel, opaque: Bool
    ) {
        for x in lo..<hi {
            var c = UInt32(coverage[x])
            if c == 0 { continue }
            if !opaque {
                c = div255(c &* alpha)
                if c == 0 { continue }
            }
            NormalBlend.blend(solid, scaledBy: UInt8(truncatingIfNeeded: c), onto: line + x)
        }
    }

    /// Lends the buffers `compositeStamped` uses out together, once per fill.
    @inlinable static func withStampBuffers(_ pixels: inout [Pixel], _ drawn: inout [UInt32], _ slots: inout [CircleStampSlot],
                                            _ rows: inout [CircleStampRow], _ bytes: inout [UInt8], _ words: inout [UInt32], _ roots: inout [EdgeRootSlot],
                                            _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<CircleStampSlot>,
                                                     UnsafeMutablePointer<CircleStampRow>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt32>,
                                                     UnsafeMutablePointer<EdgeRootSlot>) -> Bool) -> Bool {
        pixels.withUnsafeMutableBufferPointer { p in
            drawn.withUnsafeMutableBufferPointer { d in
                slots.withUnsafeMutableBufferPointer { s in
                    rows.withUnsafeMutableBufferPointer { r in
                        bytes.withUnsafeMutableBufferPointer { b in
                            words.withUnsafeMutableBufferPointer { w in
                                roots.withUnsafeMutableBufferPointer { e in
                                    body(p.baseAddress!, d.baseAddress!, s.baseAddress!, r.baseAddress!, b.baseAddress!, w.baseAddress!, e.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One stamp's parts, lent out for a fill.
@usableFromInline struct StampPointers {
    @usableFromInline let half: Int
    @usableFromInline let rows: UnsafeMutablePointer<CircleStampRow>
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    @usableFromInline let words: UnsafeMutablePointer<UInt32>
    @usableFromInline let slot: UnsafeMutablePointer<CircleStampSlot>
    @inlinable init(half: Int, rows: UnsafeMutablePointer<CircleStampRow>, bytes: UnsafeMutablePointer<UInt8>,
                    words: UnsafeMutablePointer<UInt32>, slot: UnsafeMutablePointer<CircleStampSlot>) {
        self.half = half; self.rows = rows; self.bytes = bytes; self.words = words; self.slot = slot
    }
}
