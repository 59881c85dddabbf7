import FixedPoint

// A rounded rectangle in a solid paint, unclipped and not kept in the outline memo (a bar's fill,
// or its part inside its track, which moves every frame): the steps of `compositeRows` for it,
// without what other shapes and paints need there (the memo, the clips, a gradient row). In the
// shared loop those values outnumber the registers and were stored and loaded again on every
// row: ~1,000 instructions a row of a 64x8 bar for three or four edge pixels and one run.
// The same bytes (RasterTests' `fillsInTheirTrackEqualClippedOnes` compares them with the clipped fill).
//
// Rows alike apart from where they are (the same `RoundedRowHeight`: a capsule's rows mirrored
// about its middle, the straight rows between the corners) have the same span and the same
// edge coverages: those are worked out once, for the first of them, and laid on each.

extension Canvas {
    /// Whether `compositeRoundedRows` applies: every row and column of `area` tame (a shape with
    /// `hasTameRows`, the area within ±8192 pixels), so each step takes its integer path.
    @inlinable static func hasLeanRows(_ shape: RoundedRectangle, area: PixelRect) -> Bool {
        shape.hasTameRows && area.y >= -8192 && area.maxY <= 8192 && area.x >= -8192 && area.maxX <= 8192
    }

    /// Normal blending only: the other modes are not worth a specialisation of their own (~3.5 KB
    /// of binary each) for a bar's fill, which the catalog draws normally.
    @inlinable mutating func compositeRoundedRows(_ shape: RoundedRectangle, area: PixelRect, solid color: Color, alpha: UInt32) {
        compositeRoundedRows(shape, area: area, solid: color.premultiplied, alpha: alpha, NormalBlend.self)
    }

    @inlinable mutating func compositeRoundedRows<Blend: BlendOperation>(_ shape: RoundedRectangle, area: PixelRect, solid: Pixel, alpha: UInt32, _: Blend.Type) {
        let width = self.width, knowsClear = self.knowsClear
        let tame = RoundedRectangleTameValues(shape)
        let key = RoundedRowHeights.Key(shape, top: area.y, rows: area.height)
        let kept = area.height <= RoundedRowHeights.capacity
        let known = kept && roundedRows.key == key
        if kept { roundedRows.key = key }
        Canvas.withRowBuffers(&storage, &drawn, &edgeRoots, &roundedRows.rows, &coverageRow) { pixels, drawn, edgeRoots, rows, coverages in
            let roots = EdgeRootMemo(slots: edgeRoots)
            if kept && !known { RoundedRowHeights.make(rows, shape, top: area.y, count: area.height, roots: roots) }
            let columns = area.x..<area.maxX
            let lanes = spreadLanes(solid)
            for i in 0..<area.height {
                // The row apart from x: kept (from this frame's pre-pass or the last frame's,
                // when the same fill's rows came then), or worked out here for a tall fill.
                let height: RoundedRowHeight
                var next = -1
                if kept {
                    if rows[i].follows { continue }
                    height = rows[i].height
                    next = rows[i].next
                } else {
                    height = RoundedRowHeight(shape, y: Int64(area.y &+ i) &<< 16 &+ 0x8000, roots: roots)
                }
                let span = RowSpan(columns: columns, shape.tameRowBounds(height))
                if span.isEmpty { continue }
                let row = RoundedRectangleRow(tame, height: height)
                let inner = span.hasInner ? div255(UInt32(span.innerCoverage) &* alpha) : 0
                let c = UInt8(truncatingIfNeeded: inner)
                let run = RoundedRun(inner: inner, source: c == 255 ? solid : scaledPixel(lanes, coverage: c))
                let y = area.y &+ i
                if next < 0 {
                    // A row unlike any other: its edge coverages worked out as its pixels are laid.
                    Canvas.layRoundedRow(span, run, line: pixels + y &* width, drawn: knowsClear ? drawn + y : nil, solid: solid, lanes: lanes, Blend.self) {
                        Canvas.roundedEdgeCoverage(row, column: $0, alpha: alpha, roots: roots)
                    }
                    continue
                }
                // Rows alike: the edge coverages once, then laid on this row and each later one.
                for x in span.lo..<span.innerLo { coverages[x] = Canvas.roundedEdgeCoverage(row, column: x, alpha: alpha, roots: roots) }
                for x in span.innerHi..<span.hi { coverages[x] = Canvas.roundedEdgeCoverage(row, column: x, alpha: alpha, roots: roots) }
                var member = i
                while true {
                    let y = area.y &+ member
                    Canvas.layRoundedRow(span, run, line: pixels + y &* width, drawn: knowsClear ? drawn + y : nil, solid: solid, lanes: lanes, Blend.self) {
                        coverages[$0]
                    }
                    if next < 0 { break }
                    member = next
                    next = rows[member].next
                }
            }
        }
    }

    /// A row's edge pixel's coverage scaled by `alpha`.
    @inlinable @inline(__always) static func roundedEdgeCoverage(_ row: RoundedRectangleRow, column x: Int, alpha: UInt32, roots: EdgeRootMemo) -> UInt8 {
        let c = UInt32(row.tameCoverage(column: x, memo: roots))
        return UInt8(truncatingIfNeeded: alpha == 255 ? c : div255(c &* alpha))
    }

    /// One row of the fill from its span: the edge columns with the coverage `coverage` gives,
    /// each pixel as `edgeLoop` does it, and the inner run. `drawn`: the row's drawn columns when
    /// the canvas knows which are clear (nil: it does not).
    @inlinable @inline(__always) static func layRoundedRow<Blend: BlendOperation>(
        _ span: RowSpan, _ run: RoundedRun, line: UnsafeMutablePointer<Pixel>, drawn: UnsafeMutablePointer<UInt32>?, solid: Pixel, lanes: UInt64,
        _: Blend.Type, coverage: (Int) -> UInt8
    ) {
        let ontoClear = drawn.map { Canvas.noteDrawn($0, span.lo, span.hi) } ?? false
        @inline(__always) func edge(_ lo: Int, _ hi: Int) {
            for x in lo..<hi {
                let c = coverage(x)
                if c == 0 { continue }
                if ontoClear {
                    storeScaledLanes(line + x, lanes: lanes, coverage: c)
                } else {
                    Blend.blend(solid, lanes: lanes, scaledBy: c, onto: line + x)
                }
            }
        }
        edge(span.lo, span.innerLo)
        edge(span.innerHi, span.hi)
        if run.inner == 0 { return }
        if ontoClear {
            fillRun(line + span.innerLo, count: span.innerHi &- span.innerLo, with: run.source)
        } else {
            Blend.blendRun(line + span.innerLo, count: span.innerHi &- span.innerLo, source: run.source)
        }
    }

    @inlinable static func withRowBuffers(_ pixels: inout [Pixel], _ drawn: inout [UInt32], _ edgeRoots: inout [EdgeRootSlot],
                                          _ rows: inout [RoundedRowHeights.Row], _ coverages: inout [UInt8],
                                          _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<EdgeRootSlot>,
                                                   UnsafeMutablePointer<RoundedRowHeights.Row>, UnsafeMutablePointer<UInt8>) -> Void) {
        pixels.withUnsafeMutableBufferPointer { p in
            drawn.withUnsafeMutableBufferPointer { d in
                edgeRoots.withUnsafeMutableBufferPointer { e in
                    rows.withUnsafeMutableBufferPointer { r in
                        coverages.withUnsafeMutableBufferPointer { c in body(p.baseAddress!, d.baseAddress!, e.baseAddress!, r.baseAddress!, c.baseAddress!) }
                    }
                }
            }
        }
    }
}

/// A row's inner run: its coverage scaled by the fill's alpha (0: nothing to lay) and the pixel
/// laid there.
@usableFromInline struct RoundedRun {
    @usableFromInline let inner: UInt32, source: Pixel
    @inlinable init(inner: UInt32, source: Pixel) { self.inner = inner; self.source = source }
}

/// The rows of one rounded fill apart from x (`RoundedRowHeight`), kept for the next frame: a
/// bar's fill keeps its top, height and radius and moves sideways, so each of its rows is what it
/// was (the corner roots' lookups, ~100 instructions a row, not made again). Up to `capacity`
/// rows (a bar on a screen or a strip); a taller fill works them out every time.
@usableFromInline struct RoundedRowHeights: Sendable {
    @usableFromInline static let capacity = 64
    @usableFromInline struct Key: Equatable, Sendable {
        @usableFromInline var y: Int32, height: Int32, radius: Int32, top: Int, rows: Int
        @inlinable init(_ shape: RoundedRectangle, top: Int, rows: Int) {
            y = shape.rect.y.raw; height = shape.rect.height.raw; radius = shape.cornerRadius.raw; self.top = top; self.rows = rows
        }
    }
    /// One kept row: its values apart from x, and the rows alike (the same values) chained from
    /// the first of them: `next` the next such row (−1: none), `follows` whether an earlier row
    /// is alike (then it is drawn with that one).
    @usableFromInline struct Row: Sendable {
        @usableFromInline var height: RoundedRowHeight
        @usableFromInline var next: Int
        @usableFromInline var follows: Bool
        @inlinable init(height: RoundedRowHeight, next: Int, follows: Bool) { self.height = height; self.next = next; self.follows = follows }
    }
    /// Whose rows `rows` holds (rows 0: none yet).
    @usableFromInline var key = Key(RoundedRectangle(FixedRect(x: .zero, y: .zero, width: .zero, height: .zero), cornerRadius: .zero), top: 0, rows: 0)
    @usableFromInline var rows: [Row]
    init() {
        let none = RoundedRowHeight(RoundedRectangle(FixedRect(x: .zero, y: .zero, width: .zero, height: .zero), cornerRadius: .zero), y: 0, roots: nil)
        rows = Array(repeating: Row(height: none, next: -1, follows: false), count: RoundedRowHeights.capacity)
    }

    /// `count` (≤ `capacity`) rows of `shape` from canvas row `top` into `rows`, each chained to
    /// an earlier row alike: the row above (a straight side) or its mirror image about the
    /// shape's middle (the other corner), the only rows a rounded rectangle repeats.
    @inlinable static func make(_ rows: UnsafeMutablePointer<Row>, _ shape: RoundedRectangle, top: Int, count: Int, roots: EdgeRootMemo) {
        // Twice the middle in raw units: a row's centre c mirrors to twiceMiddle − c.
        let twiceMiddle = 2 &* Int64(shape.rect.y.raw) &+ Int64(shape.rect.height.raw)
        for i in 0..<count {
            let centre = Int64(top &+ i) &<< 16 &+ 0x8000
            let height = RoundedRowHeight(shape, y: centre, roots: roots)
            rows[i] = Row(height: height, next: -1, follows: false)
            var alike = -1
            if i > 0 && rows[i - 1].height == height {
                alike = i - 1
            } else {
                // The row whose centre is nearest the mirror image (alike or not, as compared).
                let j = Int((twiceMiddle &- centre) >> 16) &- top
                if j >= 0 && j < i && rows[j].height == height { alike = j }
            }
            if alike < 0 { continue }
            rows[i].follows = true
            var last = alike
            while rows[last].next >= 0 { last = rows[last].next }
            rows[last].next = i
        }
    }
}
