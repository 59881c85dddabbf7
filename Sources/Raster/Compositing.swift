import FixedPoint

/// Where coverage comes from in one `Canvas.composite` call: a shape, a mask, or a uniform block.
/// A generic parameter (not a closure or an existential), so each caller gets its own loop with
/// the coverage code inlined.
@usableFromInline protocol CoverageSource {
    /// What row `y` (centres at `centerY`) looks like within `columns` (see `RowSpan`).
    func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan
    /// The same, free to use and fill `memo` (see `OutlineMemo`).
    func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>, memo: inout OutlineMemo) -> RowSpan
    associatedtype Row: ShapeRow
    /// Row `y` (centres at `centerY`), for the coverage of its pixels near the outline.
    func row(y: Int, centerY: Fixed) -> Row
    /// `row.coverages(columns, into:)`, free to use `memo` (see `EdgeRootMemo`).
    func coverages(_ row: Row, _ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>, memo: EdgeRootMemo)
    /// Whether `edgeCoverages` applies to the rows where `isTame(centerY)`: false (a constant,
    /// so the others' loops are as they were) but for a rounded rectangle kept in the memo.
    var keepsEdges: Bool { get }
    /// The coverages of `span`'s edge columns (`lo ..< innerLo`, `innerHi ..< hi`) of row `y`,
    /// just after `rowSpan(y:centerY:columns:memo:)` gave `span`, from `memo`.
    func edgeCoverages(_ row: Row, y: Int, span: RowSpan, into coverages: UnsafeMutablePointer<UInt8>, memo: OutlineMemo)
}

extension CoverageSource {
    @inlinable @inline(__always) func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>, memo: inout OutlineMemo) -> RowSpan {
        rowSpan(y: y, centerY: centerY, columns: columns)
    }
    @inlinable @inline(__always) func coverages(_ row: Row, _ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>, memo: EdgeRootMemo) {
        row.coverages(columns, into: coverages)
    }
    @inlinable @inline(__always) var keepsEdges: Bool { false }
    @inlinable @inline(__always) func edgeCoverages(_ row: Row, y: Int, span: RowSpan, into coverages: UnsafeMutablePointer<UInt8>, memo: OutlineMemo) {}
}

/// A rounded rectangle, with its spans through the memo when `memoized`.
@usableFromInline struct RoundedRectangleCoverage: CoverageSource {
    @usableFromInline let shape: RoundedRectangle
    @usableFromInline let memoized: Bool
    /// `shape.hasTameRows` and what its rows share, worked out once per fill, not per row.
    @usableFromInline let hasTameRows: Bool
    @usableFromInline let tame: RoundedRectangleTameValues
    @inlinable init(shape: RoundedRectangle, memoized: Bool) {
        self.shape = shape; self.memoized = memoized
        hasTameRows = shape.hasTameRows
        tame = RoundedRectangleTameValues(shape)
    }
    @inlinable @inline(__always) func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan { shape.rowSpan(y: centerY, columns: columns) }
    @inlinable @inline(__always) func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>, memo: inout OutlineMemo) -> RowSpan {
        if memoized { return memo.rowSpan(shape, hasTameRows: hasTameRows, y: y, centerY: centerY, columns: columns) }
        // Not kept (a fill under a clip changes from frame to frame), but its roots go through the table.
        return RoundedRectangleCoverage.unkeptRowSpan(shape, centerY: centerY, columns: columns, roots: memo.roots)
    }
    /// A call of its own: inlined, it made every specialisation of the pixel loop larger (skeleton,
    /// which never comes here, 5k instructions a frame slower).
    @inlinable @inline(never) static func unkeptRowSpan(_ shape: RoundedRectangle, centerY: Fixed, columns: Range<Int>, roots: EdgeRootMemo) -> RowSpan {
        if shape.hasTameRows && isTame(centerY) { return RowSpan(columns: columns, shape.tameRowBounds(y: Int64(centerY.raw), roots: roots)) }
        return shape.rowSpan(y: centerY, columns: columns)
    }
    @inlinable @inline(__always) func row(y: Int, centerY: Fixed) -> RoundedRectangleRow {
        hasTameRows && isTame(centerY) ? RoundedRectangleRow(tame, y: centerY) : shape.row(y: centerY)
    }
    @inlinable @inline(__always) func coverages(_ row: RoundedRectangleRow, _ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>, memo: EdgeRootMemo) {
        row.coverages(columns, into: coverages, memo: memo)
    }
    /// A kept outline's edge bytes from the memo (the row `rowSpan` has just found or kept there).
    @inlinable @inline(__always) var keepsEdges: Bool { memoized && hasTameRows }
    @inlinable @inline(__always) func edgeCoverages(_ row: RoundedRectangleRow, y: Int, span: RowSpan,
                                                   into coverages: UnsafeMutablePointer<UInt8>, memo: OutlineMemo) {
        memo.edgeCoverages(row, y: y, span: span, into: coverages)
    }
}

/// A circle (or ellipse), its edge roots and its spans' roots through the canvas's table of roots.
@usableFromInline struct EllipseCoverage: CoverageSource {
    @usableFromInline let shape: Ellipse
    /// What the rows and spans would test on every row, decided once per fill.
    @usableFromInline let isCircle: Bool, isTameRowCircle: Bool, isTameCircle: Bool
    @inlinable init(shape: Ellipse) {
        self.shape = shape
        isCircle = shape.radiusX.raw > 0 && shape.radiusX == shape.radiusY && isTame(shape.radiusX)
        isTameRowCircle = isCircle && isTame(shape.center.x)
        isTameCircle = shape.isTameCircle
    }
    @inlinable @inline(__always) func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan { shape.rowSpan(y: centerY, columns: columns) }
    @inlinable @inline(__always) func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>, memo: inout OutlineMemo) -> RowSpan {
        isTameCircle ? shape.tameCircleRowSpan(y: centerY, columns: columns, roots: memo.roots) : shape.rowSpan(y: centerY, columns: columns, roots: memo.roots)
    }
    @inlinable @inline(__always) func row(y: Int, centerY: Fixed) -> EllipseRow {
        EllipseRow(shape, y: centerY, isCircle: isCircle, isTameCircle: isTameRowCircle)
    }
    @inlinable @inline(__always) func coverages(_ row: EllipseRow, _ columns: Range<Int>, into coverages: UnsafeMutablePointer<UInt8>, memo: EdgeRootMemo) {
        row.coverages(columns, into: coverages, memo: memo)
    }
}

@usableFromInline struct ShapeCoverage<S: Shape>: CoverageSource {
    @usableFromInline let shape: S
    @inlinable init(shape: S) { self.shape = shape }
    @inlinable @inline(__always) func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan { shape.rowSpan(y: centerY, columns: columns) }
    @inlinable @inline(__always) func row(y: Int, centerY: Fixed) -> S.Row { shape.row(y: centerY) }
}

@usableFromInline struct MaskCoverage: CoverageSource {
    @usableFromInline let coverage: UnsafeBufferPointer<UInt8>
    @usableFromInline let width: Int
    @inlinable init(coverage: UnsafeBufferPointer<UInt8>, width: Int) { self.coverage = coverage; self.width = width }
    /// Zero outside the first and last non-zero bytes of the row: a mask of a line of text is
    /// mostly empty, and finding them a word at a time is cheaper than visiting every pixel.
    @inlinable func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan {
        let row = coverage.baseAddress! + y * width
        var lo = columns.lowerBound, hi = columns.upperBound
        while lo + 8 <= hi && UnsafeRawPointer(row + lo).loadUnaligned(as: UInt64.self) == 0 { lo += 8 }
        while lo < hi && row[lo] == 0 { lo += 1 }
        while hi - 8 >= lo && UnsafeRawPointer(row + hi - 8).loadUnaligned(as: UInt64.self) == 0 { hi -= 8 }
        while hi > lo && row[hi - 1] == 0 { hi -= 1 }
        return RowSpan(columns: columns, lo: lo, hi: hi, innerLo: hi, innerHi: hi, innerCoverage: 0)
    }
    @inlinable func row(y: Int, centerY: Fixed) -> MaskRow { MaskRow(bytes: coverage.baseAddress! + y * width) }
}

@usableFromInline struct MaskRow: ShapeRow {
    @usableFromInline let bytes: UnsafePointer<UInt8>
    @inlinable init(bytes: UnsafePointer<UInt8>) { self.bytes = bytes }
    @inlinable func coverage(column: Int) -> UInt8 { bytes[column] }
}

/// Full coverage everywhere (a block of a bitmap glyph).
@usableFromInline struct UniformCoverage: CoverageSource {
    @inlinable init() {}
    @inlinable func rowSpan(y: Int, centerY: Fixed, columns: Range<Int>) -> RowSpan {
        RowSpan(columns: columns, lo: columns.lowerBound, hi: columns.upperBound,
                innerLo: columns.lowerBound, innerHi: columns.upperBound, innerCoverage: 255)
    }
    @inlinable func row(y: Int, centerY: Fixed) -> UniformRow { UniformRow() }
}

@usableFromInline struct UniformRow: ShapeRow {
    @inlinable init() {}
    @inlinable func coverage(column: Int) -> UInt8 { 255 }
}

extension Canvas {
    /// The shared pixel loop: coverage from `source` times `alpha` (0...255), times the clips,
    /// paint, blend. Per pixel the result is
    ///
    ///     c = coverage; skip if 0; c = div255(c × alpha); skip if 0
    ///     c = div255(c × clip coverage) (with clips); skip if 0
    ///     pixel = blend(paint × c / 255, onto: pixel)
    ///
    /// and this is computed exactly so for the columns near the outline. Inside the columns where
    /// the shape and every clip are uniform (their row spans), c is the same for the whole run, so
    /// it is computed once, and an opaque normal-blended run is a plain store.
    /// `clipsApply` false: `source` is already within the clips (see `fill(_: RoundedRectangle …)`).
    /// The blend mode is a value here, not a type: the loops over a shape's rows are compiled once
    /// per coverage source, and only the blending of pixels that are not clear is per mode: the
    /// normal mode's inlined, the others' (a skeleton's shine, a shimmer's sweep) called
    /// (`blendEdges`, `blendGradientRun`, `blendSolidRun`), a call a row rather than a copy of
    /// every shape's row loop per mode (docs/PERFORMANCE.md, "One row loop for every blend mode and clip").
    @inlinable mutating func composite<Source: CoverageSource>(area: PixelRect, paint: Paint, blend: BlendMode, alpha: UInt32, _ source: Source,
                                                               clipsApply: Bool = true) {
        var columns = area.x..<area.maxX
        if case .linearGradient(let g) = paint {
            // Horizontal: the colour depends on the column only, so it is worked out per column,
            // and kept for the next fill in the same gradient (a block and its shine, the lines
            // of a skeleton share one).
            if !(paintRowGradient == g && paintRowColumns.lowerBound <= columns.lowerBound && columns.upperBound <= paintRowColumns.upperBound) {
                let wanted = columns
                var lo = wanted.lowerBound, hi = wanted.upperBound
                paintRow.withUnsafeMutableBufferPointer { row in
                    for x in wanted { row[x] = g.pixel(atX: Fixed(x) + .half) }
                    // The painted columns, from both ends (most gradients paint every column).
                    while lo < hi && word(row[lo]) == 0 { lo += 1 }
                    while hi > lo && word(row[hi - 1]) == 0 { hi -= 1 }
                }
                paintRowGradient = g; paintRowColumns = wanted; paintRowPainted = lo..<larger(lo, hi)
            }
            // Where the paint is transparent (a shine's clear ends) every blend mode leaves the
            // pixel as it is (0 + D, D + 0 − 0, min(255, D)): only the columns it paints are visited.
            let lo = larger(columns.lowerBound, paintRowPainted.lowerBound), hi = smaller(columns.upperBound, paintRowPainted.upperBound)
            if lo >= hi { return }
            columns = lo..<hi
        }
        let clips = self.clips, width = self.width, knowsClear = self.knowsClear
        var memoCurrent = outlineCurrent, memoNext = outlineNext
        let height = self.height
        Canvas.withBuffers(&storage, &paintRow, &drawn, &coverageRow, &outlineSlots, &outlineRows, &edgeRoots) {
            pixels, paintRow, drawn, coverageRow, outlineSlots, outlineRows, edgeRoots in
            let roots = EdgeRootMemo(slots: edgeRoots)
            var memo = OutlineMemo(slots: outlineSlots, rows: outlineRows, height: height, current: memoCurrent, next: memoNext, roots: roots)
            defer { memoCurrent = memo.current; memoNext = memo.next }
            var solid = Pixel.transparent
            var gradient = false
            switch paint {
            case .solid(let c): solid = c.premultiplied
            case .linearGradient: gradient = true  // paintRow holds it (above)
            }
            // Clips that hold the whole area change nothing: the row loop then skips them. One
            // row loop for clipped and unclipped fills alike, not one of each per coverage source:
            // x86_64 loaderd −12.1 KB for +10 % of a quizup frame, whose growing circle overshoots
            // its square (docs/PERFORMANCE.md, "One row loop for every blend mode and clip").
            let clipped = clipsApply && !clips.isEmpty && !Canvas.rectanglesHold(area, clips)
            Canvas.compositeRows(area.y..<area.maxY, columns, source, clips: clips, clipped: clipped, alpha: alpha, solid: solid, gradient: gradient,
                                 pixels: pixels, width: width, paintRow: paintRow, drawn: drawn, knowsClear: knowsClear,
                                 coverageRow: coverageRow, memo: &memo, roots: roots, blend: blend)
        }
        outlineCurrent = memoCurrent; outlineNext = memoNext
    }

    /// Whether every clip is a rectangle that holds every pixel of `area` wholly: its coverage is
    /// 255 there (an overlap of exactly 1 in x and y), and min(c, 255) = c, so it changes nothing
    /// (quizup's circles in their square, which only an overshoot of the growing one reaches).
    @inlinable static func rectanglesHold(_ area: PixelRect, _ clips: [Clip]) -> Bool {
        for clip in clips {
            guard case .rect(let r) = clip, r.x <= Fixed(area.x), r.y <= Fixed(area.y), r.maxX >= Fixed(area.maxX), r.maxY >= Fixed(area.maxY)
            else { return false }
        }
        return true
    }

    /// The rows of `composite` (see there).
    @inlinable @inline(__always) static func compositeRows<Source: CoverageSource>(
        _ rows: Range<Int>, _ columns: Range<Int>, _ source: Source, clips: [Clip], clipped: Bool, alpha: UInt32, solid: Pixel, gradient: Bool,
        pixels: UnsafeMutablePointer<Pixel>, width: Int, paintRow: UnsafeMutablePointer<Pixel>, drawn: UnsafeMutablePointer<UInt32>, knowsClear: Bool,
        coverageRow: UnsafeMutablePointer<UInt8>, memo: inout OutlineMemo, roots: EdgeRootMemo, blend: BlendMode
    ) {
        for y in rows {
            let cy = Fixed(y) + .half
            var span = source.rowSpan(y: y, centerY: cy, columns: columns, memo: &memo)
            var inner = UInt32(span.innerCoverage)
            // Where every clip is uniform (clipLo ..< clipHi), their combined coverage is clipInner.
            var clipInner: UInt32 = 255, clipLo = columns.lowerBound, clipHi = columns.upperBound
            if clipped {
                for clip in clips {
                    let clipSpan = clip.rowSpan(row: y, y: cy, columns: columns, memo: &memo)
                    span.formIntersection(clipSpan)
                    clipInner = smaller(clipInner, UInt32(clipSpan.innerCoverage))
                    clipLo = larger(clipLo, clipSpan.innerLo)
                    clipHi = smaller(clipHi, clipSpan.innerHi)
                }
                inner = smaller(inner, clipInner)
            }
            inner = div255(inner &* alpha)
            if span.isEmpty { continue }
            let line = pixels + y * width
            let row = source.row(y: y, centerY: cy)

            // Onto pixels still clear since `clear()`, every blend mode gives the source
            // itself (S + 0 × anything), so it is stored without reading what is there.
            let ontoClear = knowsClear && Canvas.noteDrawn(drawn + y, span.lo, span.hi)

            // Near the outline every pixel on its own, in passes: the shape's coverage of each
            // edge column, then the clips, then the paint (a loop specialised on what is the
            // same for the whole row), each a tight loop of its own.
            if !clipped && source.keepsEdges && isTame(cy) {
                source.edgeCoverages(row, y: y, span: span, into: coverageRow, memo: memo)
            } else {
                source.coverages(row, span.lo..<span.innerLo, into: coverageRow, memo: roots)
                source.coverages(row, span.innerHi..<span.hi, into: coverageRow, memo: roots)
            }
            // Clips that are 255 across the whole row's span (a rectangle around a circle)
            // change no coverage: min(c, 255) = c.
            if clipped && !(clipInner == 255 && span.lo >= clipLo && span.hi <= clipHi) {
                Canvas.clipEdges(coverageRow, span.lo, span.innerLo, clips: clips, y: cy, uniform: clipLo..<clipHi, coverage: clipInner, roots: roots)
                Canvas.clipEdges(coverageRow, span.innerHi, span.hi, clips: clips, y: cy, uniform: clipLo..<clipHi, coverage: clipInner, roots: roots)
            }
            Canvas.compositeEdges(line, coverageRow, span.lo, span.innerLo, alpha: alpha, solid: solid, paintRow: gradient ? paintRow : nil, ontoClear: ontoClear, blend: blend)
            Canvas.compositeEdges(line, coverageRow, span.innerHi, span.hi, alpha: alpha, solid: solid, paintRow: gradient ? paintRow : nil, ontoClear: ontoClear, blend: blend)

            // The uniform run: one coverage for all of it.
            if inner == 0 || !span.hasInner { continue }
            let c = UInt8(truncatingIfNeeded: inner)
            if gradient {
                if ontoClear {
                    for x in span.innerLo..<span.innerHi { line[x] = paintRow[x].scaled(by: c) }
                } else if blend == .normal {
                    for x in span.innerLo..<span.innerHi { line[x] = NormalBlend.blend(paintRow[x].scaled(by: c), onto: line[x]) }
                } else {
                    Canvas.blendGradientRun(line, paintRow, span.innerLo, span.innerHi, coverage: c, blend: blend)
                }
            } else {
                // `solid.scaled(by: c)` by the lane arithmetic (the same bytes), inlined.
                let source = c == 255 ? solid : scaledPixel(spreadLanes(solid), coverage: c)
                if ontoClear {
                    fillRun(line + span.innerLo, count: span.innerHi - span.innerLo, with: source)
                } else if blend == .normal {
                    NormalBlend.blendRun(line + span.innerLo, count: span.innerHi - span.innerLo, source: source)
                } else {
                    Canvas.blendSolidRun(line + span.innerLo, count: span.innerHi - span.innerLo, source: source, blend: blend)
                }
            }
        }
    }

    /// The columns a row's `drawn` word holds, lo ..< hi (none when lo ≥ hi).
    @inlinable @inline(__always) static func drawnColumns(_ d: UInt32) -> (lo: Int, hi: Int) { (Int(d & 0xFFFF), Int(d >> 16)) }

    /// Notes columns lo ..< hi of a row as drawn (`drawn`: the row's drawn columns since `clear()`,
    /// `lo | hi << 16`, empty when lo ≥ hi) and says whether they were all still clear.
    @inlinable @inline(__always) static func noteDrawn(_ row: UnsafeMutablePointer<UInt32>, _ lo: Int, _ hi: Int) -> Bool {
        let (dlo, dhi) = drawnColumns(row.pointee)
        row.pointee = dlo >= dhi ? UInt32(lo) | UInt32(hi) << 16 : UInt32(smaller(dlo, lo)) | UInt32(larger(dhi, hi)) << 16
        return dlo >= dhi || hi <= dlo || lo >= dhi
    }

    /// The clips applied to the edge coverages of columns lo ..< hi: where every clip is uniform
    /// (`uniform`) the smaller of the two and `coverage`, elsewhere the smaller of the shape's
    /// and every clip's own. The smaller, not the product: where a shape's edge lies on its clip's
    /// edge (a fill reaching its track's rounded end) the two are the same edge, and multiplying
    /// would darken it into a rim.
    @inlinable @inline(__always) static func clipEdges(_ coverage: UnsafeMutablePointer<UInt8>, _ lo: Int, _ hi: Int, clips: [Clip], y: Fixed,
                                                       uniform: Range<Int>, coverage inner: UInt32, roots: EdgeRootMemo) {
        if lo >= hi { return }
        if clips.count == 1, case .roundedRect(let r, let radius) = clips[0], lo < uniform.lowerBound || hi > uniform.upperBound {
            // One rounded clip (a fill in its track): its row, worked out once, instead of its
            // pointwise coverage per column (the same numbers: see `Shape.row(y:)`).
            let row = RoundedRectangle(r, cornerRadius: radius).row(y: y)
            for x in lo..<hi {
                let c = UInt32(coverage[x])
                if c == 0 { continue }
                // The corner's root through the table when the row is tame (the same byte).
                let clip = uniform.contains(x) ? inner
                    : UInt32(row.isTameRow && x.magnitude <= 8192 ? row.tameCoverage(column: x, memo: roots) : row.coverage(column: x))
                coverage[x] = UInt8(truncatingIfNeeded: smaller(c, clip))
            }
            return
        }
        for x in lo..<hi {
            let c = UInt32(coverage[x])
            if c == 0 { continue }
            let clip = uniform.contains(x) ? inner : Canvas.clipCoverage(clips, x: Fixed(x) + .half, y: y)
            coverage[x] = UInt8(truncatingIfNeeded: smaller(c, clip))
        }
    }

    /// The edge columns lo ..< hi painted with their coverages (times `alpha`): the paint row's
    /// colour when there is one, else `solid`. Onto clear pixels every mode stores the paint
    /// scaled (S + 0 × anything), so only blending onto drawn pixels in a mode other than normal
    /// is called out of line (`blendEdges`).
    @inlinable @inline(__always) static func compositeEdges(
        _ line: UnsafeMutablePointer<Pixel>, _ coverage: UnsafeMutablePointer<UInt8>, _ lo: Int, _ hi: Int,
        alpha: UInt32, solid: Pixel, paintRow: UnsafeMutablePointer<Pixel>?, ontoClear: Bool, blend: BlendMode
    ) {
        if lo >= hi { return }
        if ontoClear || blend == .normal {
            compositeEdges(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: ontoClear, NormalBlend.self)
        } else {
            blendEdges(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, blend: blend)
        }
    }

    /// `compositeEdges` onto pixels that are not clear, in any mode: one copy for every shape.
    @usableFromInline @inline(never) static func blendEdges(
        _ line: UnsafeMutablePointer<Pixel>, _ coverage: UnsafeMutablePointer<UInt8>, _ lo: Int, _ hi: Int,
        alpha: UInt32, solid: Pixel, paintRow: UnsafeMutablePointer<Pixel>?, blend: BlendMode
    ) {
        switch blend {
        case .normal: compositeEdges(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: false, NormalBlend.self)
        case .screen: compositeEdges(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: false, ScreenBlend.self)
        case .plusLighter: compositeEdges(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: false, PlusLighterBlend.self)
        }
    }

    /// A uniform run of the paint row, each pixel scaled by `coverage`, blended onto columns
    /// lo ..< hi in `blend`.
    @usableFromInline @inline(never) static func blendGradientRun(_ line: UnsafeMutablePointer<Pixel>, _ paintRow: UnsafeMutablePointer<Pixel>,
                                                                  _ lo: Int, _ hi: Int, coverage c: UInt8, blend: BlendMode) {
        switch blend {
        case .normal: for x in lo..<hi { line[x] = NormalBlend.blend(paintRow[x].scaled(by: c), onto: line[x]) }
        case .screen: for x in lo..<hi { line[x] = ScreenBlend.blend(paintRow[x].scaled(by: c), onto: line[x]) }
        case .plusLighter: for x in lo..<hi { line[x] = PlusLighterBlend.blend(paintRow[x].scaled(by: c), onto: line[x]) }
        }
    }

    /// `count` pixels from `start`, each blended with the same `source` in `blend`.
    @usableFromInline @inline(never) static func blendSolidRun(_ start: UnsafeMutablePointer<Pixel>, count: Int, source: Pixel, blend: BlendMode) {
        switch blend {
        case .normal: NormalBlend.blendRun(start, count: count, source: source)
        case .screen: ScreenBlend.blendRun(start, count: count, source: source)
        case .plusLighter: PlusLighterBlend.blendRun(start, count: count, source: source)
        }
    }

    /// The edge loop for one mode as a type: one loop per combination of what is the same for
    /// the whole row (onto a clear row or not, full opacity or not), so no pixel tests them.
    @inlinable @inline(__always) static func compositeEdges<Blend: BlendOperation>(
        _ line: UnsafeMutablePointer<Pixel>, _ coverage: UnsafeMutablePointer<UInt8>, _ lo: Int, _ hi: Int,
        alpha: UInt32, solid: Pixel, paintRow: UnsafeMutablePointer<Pixel>?, ontoClear: Bool, _: Blend.Type
    ) {
        switch (ontoClear, alpha == 255) {
        case (true, true): edgeLoop(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: true, opaque: true, Blend.self)
        case (true, false): edgeLoop(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: true, opaque: false, Blend.self)
        case (false, true): edgeLoop(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: false, opaque: true, Blend.self)
        case (false, false): edgeLoop(line, coverage, lo, hi, alpha: alpha, solid: solid, paintRow: paintRow, ontoClear: false, opaque: false, Blend.self)
        }
    }

    /// One specialisation of `compositeEdges` (the Bools are constants where it is inlined).
    /// Per pixel: c = coverage; skip if 0; c = div255(c × alpha) (which is c itself for alpha
    /// 255); skip if 0; then the paint scaled by c, stored or blended.
    @inlinable @inline(__always) static func edgeLoop<Blend: BlendOperation>(
        _ line: UnsafeMutablePointer<Pixel>, _ coverage: UnsafeMutablePointer<UInt8>, _ lo: Int, _ hi: Int,
        alpha: UInt32, solid: Pixel, paintRow: UnsafeMutablePointer<Pixel>?, ontoClear: Bool, opaque: Bool, _: Blend.Type
    ) {
        // A solid paint onto clear pixels: its channels spread into lanes once, not per pixel.
        let lanes = spreadLanes(solid)
        for x in lo..<hi {
            var c = UInt32(coverage[x])
            if c == 0 { continue }
            if !opaque {
                c = div255(c &* alpha)
                if c == 0 { continue }
            }
            if ontoClear {
                if let paintRow {
                    storeScaledPixel(line + x, paint: paintRow[x], coverage: UInt8(truncatingIfNeeded: c))
                } else {
                    storeScaledLanes(line + x, lanes: lanes, coverage: UInt8(truncatingIfNeeded: c))
                }
            } else if let paintRow {
                Blend.blend(paintRow[x], scaledBy: UInt8(truncatingIfNeeded: c), onto: line + x)
            } else {
                Blend.blend(solid, lanes: lanes, scaledBy: UInt8(truncatingIfNeeded: c), onto: line + x)
            }
        }
    }

    /// Lends the pixels, the paint row, the drawn columns, the coverage row, the outline memo's
    /// slots and rows and the edge roots' table out together, once per fill. Several `inout` arguments may be several stored properties of
    /// `self` at once, which nested closures over `self` could not.
    @inlinable static func withBuffers(_ pixels: inout [Pixel], _ paintRow: inout [Pixel], _ drawn: inout [UInt32], _ coverageRow: inout [UInt8],
                                       _ outlineSlots: inout [OutlineSlot], _ outlineRows: inout [OutlineRow], _ edgeRoots: inout [EdgeRootSlot],
                                       _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>,
                                                UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<OutlineSlot>, UnsafeMutablePointer<OutlineRow>,
                                                UnsafeMutablePointer<EdgeRootSlot>) -> Void) {
        pixels.withUnsafeMutableBufferPointer { p in
            paintRow.withUnsafeMutableBufferPointer { row in
                drawn.withUnsafeMutableBufferPointer { d in
                    coverageRow.withUnsafeMutableBufferPointer { c in
                        outlineSlots.withUnsafeMutableBufferPointer { s in
                            outlineRows.withUnsafeMutableBufferPointer { o in
                                edgeRoots.withUnsafeMutableBufferPointer { e in
                                    body(p.baseAddress!, row.baseAddress!, d.baseAddress!, c.baseAddress!, s.baseAddress!, o.baseAddress!, e.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
