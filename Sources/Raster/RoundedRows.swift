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

    @inlinable mutating func compositeRoundedRows(_ shape: RoundedRectangle, area: PixelRect, solid color: Color, blend: BlendMode, alpha: UInt32) {
        switch blend {
        case .normal: compositeRoundedRows(shape, area: area, solid: color.premultiplied, alpha: alpha, NormalBlend.self)
        case .screen: compositeRoundedRows(shape, area: area, solid: color.premultiplied, alpha: alpha, ScreenBlend.self)
        case .plusLighter: compositeRoundedRows(shape, area: area, solid: color.premultiplied, alpha: alpha, PlusLighterBlend.self)
        }
    }

    @inlinable mutating func compositeRoundedRows<Blend: BlendOperation>(_ shape: RoundedRectangle, area: PixelRect, solid: Pixel, alpha: UInt32, _: Blend.Type) {
        let width = self.width, knowsClear = self.knowsClear
        let tame = RoundedRectangleTameValues(shape)
        Canvas.withRowBuffers(&storage, &drawn, &coverageRow, &edgeRoots) { pixels, drawn, coverageRow, edgeRoots in
            let roots = EdgeRootMemo(slots: edgeRoots)
            let columns = area.x..<area.maxX
            for y in area.y..<area.maxY {
                let cy = Fixed(y) + .half
                let span = RowSpan(columns: columns, shape.tameRowBounds(y: Int64(cy.raw), roots: roots))
                if span.isEmpty { continue }
                let line = pixels + y * width
                var ontoClear = false
                if knowsClear {
                    let d = drawn[y], lo = Int(d & 0xFFFF), hi = Int(d >> 16)
                    ontoClear = lo >= hi || span.hi <= lo || span.lo >= hi
                    drawn[y] = lo >= hi ? UInt32(span.lo) | UInt32(span.hi) << 16
                        : UInt32(smaller(lo, span.lo)) | UInt32(larger(hi, span.hi)) << 16
                }
                let row = RoundedRectangleRow(tame, y: cy)
                row.coverages(span.lo..<span.innerLo, into: coverageRow, memo: roots)
                row.coverages(span.innerHi..<span.hi, into: coverageRow, memo: roots)
                Canvas.compositeEdges(line, coverageRow, span.lo, span.innerLo, alpha: alpha, solid: solid, paintRow: nil, ontoClear: ontoClear, Blend.self)
                Canvas.compositeEdges(line, coverageRow, span.innerHi, span.hi, alpha: alpha, solid: solid, paintRow: nil, ontoClear: ontoClear, Blend.self)
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

    @inlinable static func withRowBuffers(_ pixels: inout [Pixel], _ drawn: inout [UInt32], _ coverageRow: inout [UInt8], _ edgeRoots: inout [EdgeRootSlot],
                                          _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt8>,
                                                   UnsafeMutablePointer<EdgeRootSlot>) -> Void) {
        pixels.withUnsafeMutableBufferPointer { p in
            drawn.withUnsafeMutableBufferPointer { d in
                coverageRow.withUnsafeMutableBufferPointer { c in
                    edgeRoots.withUnsafeMutableBufferPointer { e in body(p.baseAddress!, d.baseAddress!, c.baseAddress!, e.baseAddress!) }
                }
            }
        }
    }
}
