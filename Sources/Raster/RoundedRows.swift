import FixedPoint

// A rounded rectangle in a solid paint, unclipped and not kept in the outline memo (a bar's fill,
// or its part inside its track, which moves every frame): the steps of `compositeRows` for it,
// without what other shapes and paints need there (the memo, the clips, a gradient row). In the
// shared loop those values outnumber the registers and were stored and loaded again on every
// row: ~1,000 instructions a row of a 64x8 bar for three or four edge pixels and one run.
// The same bytes (RasterTests' `fillsInTheirTrackEqualClippedOnes` compares them with the clipped fill).

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
        Canvas.withRowBuffers(&storage, &drawn, &edgeRoots, &roundedRows.rows) { pixels, drawn, edgeRoots, heights in
            let roots = EdgeRootMemo(slots: edgeRoots)
            let columns = area.x..<area.maxX
            let lanes = spreadLanes(solid)
            for y in area.y..<area.maxY {
                let cy = Fixed(y) + .half
                // The row apart from x: the last frame's when the same fill's rows came then.
                let height: RoundedRowHeight
                if known {
                    height = heights[y - area.y]
                } else {
                    height = RoundedRowHeight(shape, y: Int64(cy.raw), roots: roots)
                    if kept { heights[y - area.y] = height }
                }
                let span = RowSpan(columns: columns, shape.tameRowBounds(height))
                if span.isEmpty { continue }
                let line = pixels + y * width
                let ontoClear = knowsClear && Canvas.noteDrawn(drawn + y, span.lo, span.hi)
                let row = RoundedRectangleRow(tame, height: height)
                Canvas.roundedEdge(row, span.lo, span.innerLo, line: line, alpha: alpha, solid: solid, lanes: lanes, ontoClear: ontoClear, roots: roots, Blend.self)
                Canvas.roundedEdge(row, span.innerHi, span.hi, line: line, alpha: alpha, solid: solid, lanes: lanes, ontoClear: ontoClear, roots: roots, Blend.self)
                let inner = div255(UInt32(span.innerCoverage) &* alpha)
                if inner == 0 || !span.hasInner { continue }
                let c = UInt8(truncatingIfNeeded: inner)
                let source = c == 255 ? solid : scaledPixel(spreadLanes(solid), coverage: c)
                if ontoClear {
                    fillRun(line + span.innerLo, count: span.innerHi - span.innerLo, with: source)
                } else {
                    Blend.blendRun(line + span.innerLo, count: span.innerHi - span.innerLo, source: source)
                }
            }
        }
    }

    /// Columns lo ..< hi of a row near its ends, each pixel as `edgeLoop` does it with the
    /// coverage `coverages` gives (one pass: the two or three pixels of a bar's end are not worth
    /// a coverage row and the calls of `compositeEdges`).
    @inlinable @inline(__always) static func roundedEdge<Blend: BlendOperation>(
        _ row: RoundedRectangleRow, _ lo: Int, _ hi: Int, line: UnsafeMutablePointer<Pixel>, alpha: UInt32, solid: Pixel, lanes: UInt64,
        ontoClear: Bool, roots: EdgeRootMemo, _: Blend.Type
    ) {
        for x in lo..<hi {
            var c = UInt32(row.tameCoverage(column: x, memo: roots))
            if c == 0 { continue }
            if alpha != 255 {
                c = div255(c &* alpha)
                if c == 0 { continue }
            }
            if ontoClear {
                storeScaledLanes(line + x, lanes: lanes, coverage: UInt8(truncatingIfNeeded: c))
            } else {
                Blend.blend(solid, lanes: lanes, scaledBy: UInt8(truncatingIfNeeded: c), onto: line + x)
            }
        }
    }

    @inlinable static func withRowBuffers(_ pixels: inout [Pixel], _ drawn: inout [UInt32], _ edgeRoots: inout [EdgeRootSlot], _ heights: inout [RoundedRowHeight],
                                          _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<EdgeRootSlot>,
                                                   UnsafeMutablePointer<RoundedRowHeight>) -> Void) {
        pixels.withUnsafeMutableBufferPointer { p in
            drawn.withUnsafeMutableBufferPointer { d in
                edgeRoots.withUnsafeMutableBufferPointer { e in
                    heights.withUnsafeMutableBufferPointer { h in body(p.baseAddress!, d.baseAddress!, e.baseAddress!, h.baseAddress!) }
                }
            }
        }
    }
}

/// The rows of one rounded fill apart from x (`RoundedRowHeight`), kept for the next frame: a
/// bar's fill keeps its top, height and radius and moves sideways, so each of its rows is what it
/// was (the corner roots' lookups, ~100 instructions a row, not made again). Up to `capacity`
/// rows (a bar on a screen or a strip); a taller fill works them out every time.
@usableFromInline struct RoundedRowHeights: Sendable {
    @usableFromInline static let capacity = 32
    @usableFromInline struct Key: Equatable, Sendable {
        @usableFromInline var y: Int32, height: Int32, radius: Int32, top: Int, rows: Int
        @inlinable init(_ shape: RoundedRectangle, top: Int, rows: Int) {
            y = shape.rect.y.raw; height = shape.rect.height.raw; radius = shape.cornerRadius.raw; self.top = top; self.rows = rows
        }
    }
    /// Whose rows `rows` holds (rows 0: none yet).
    @usableFromInline var key = Key(RoundedRectangle(FixedRect(x: .zero, y: .zero, width: .zero, height: .zero), cornerRadius: .zero), top: 0, rows: 0)
    @usableFromInline var rows: [RoundedRowHeight]
    init() {
        rows = Array(repeating: RoundedRowHeight(RoundedRectangle(FixedRect(x: .zero, y: .zero, width: .zero, height: .zero), cornerRadius: .zero), y: 0, roots: nil), count: RoundedRowHeights.capacity)
    }
}
