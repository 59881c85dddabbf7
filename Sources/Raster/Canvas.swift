import FixedPoint
import CompactText

/// A premultiplied RGBA8 image that loaders draw into: the low-resolution frame before a display
/// maps it onto its pixels.
///
/// Made once when a display opens or a loader starts (1x1 up to 4096x4096); drawing into it never
/// allocates (the clip stack keeps its capacity), so a frame costs no mallocs.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major premultiplied pixels, `width × height`. Writing them here (rather than through
    /// the fills) makes the canvas forget which pixels it knows to be clear (see `drawn`).
    public var pixels: [Pixel] {
        get { storage }
        _modify { knowsClear = false; yield &storage }
        set { storage = newValue; knowsClear = false }
    }
    @usableFromInline var storage: [Pixel]
    /// Per row, the columns the fills may have written since the last `clear()`, as lo | hi << 16
    /// (0 when none): every other pixel of the row is still transparent, so a fill there can store
    /// its source instead of blending it with zero (which gives the same bytes in every blend
    /// mode). Only meaningful while `knowsClear`. Sized here, so keeping it never allocates.
    @usableFromInline var drawn: [UInt32]
    /// Whether `drawn` describes the pixels: set by clearing to transparent, reset by any write
    /// that does not go through the fills.
    @usableFromInline var knowsClear: Bool
    @usableFromInline var clips: [Clip]
    /// One row of paint colours, one per column: a horizontal gradient is evaluated once per
    /// column per fill into it instead of once per pixel. Sized here so filling never allocates.
    @usableFromInline var paintRow: [Pixel]
    /// The gradient `paintRow` holds, for which columns, and the columns where it is not
    /// transparent (nil: none yet).
    @usableFromInline var paintRowGradient: LinearGradient? = nil
    @usableFromInline var paintRowColumns = 0..<0, paintRowPainted = 0..<0
    /// One row of edge coverages, one per column: the pixel loop works them out for a row's edge
    /// columns first, then applies the clips, then composites, each pass a loop of its own.
    @usableFromInline var coverageRow: [UInt8]
    /// What `OutlineMemo` keeps between fills (and frames): its outlines and the rows each holds,
    /// their bounds (one per canvas row per outline, sized here), and which slot is used and next.
    @usableFromInline var outlineSlots: [OutlineSlot]
    @usableFromInline var outlineRows: [OutlineRow]
    @usableFromInline var outlineCurrent = 0, outlineNext = 0
    /// `EdgeRootMemo`'s table: circle-edge bytes by their arguments, kept between fills and frames.
    @usableFromInline var edgeRoots: [EdgeRootSlot]
    /// The stamps of small circles drawn again and again (sized here).
    @usableFromInline var stamps: CircleStamps
    /// The spans and edge coverages of one shape drawn again unchanged (`fill(_:with:memo:)`).
    @usableFromInline var shapeMemo: ShapeMemo
    /// The pixels of rounded rectangles filled onto clear rows, to store again (`RectStamps`).
    @usableFromInline var rectStamps: RectStamps
    /// The rows of the last rounded fill `compositeRoundedRows` drew apart from x, and whose.
    @usableFromInline var roundedRows: RoundedRowHeights

    public static let maximumSide = 4096
    /// How deep clips may nest without the clip stack growing (and allocating) mid-frame.
    public static let clipCapacity = 8

    public init(width: Int, height: Int) {
        precondition((1...Canvas.maximumSide).contains(width) && (1...Canvas.maximumSide).contains(height),
                     filled("canvas size {}x{} outside 1...{}", String(width), String(height), String(Canvas.maximumSide)))
        self.width = width
        self.height = height
        self.storage = [Pixel](transparentCount: width * height)
        self.drawn = Array(repeating: 0, count: height)
        self.knowsClear = true
        self.clips = []
        self.clips.reserveCapacity(Canvas.clipCapacity)
        self.paintRow = [Pixel](transparentCount: width)
        self.coverageRow = Array(repeating: 0, count: width)
        self.outlineSlots = Array(repeating: .empty, count: OutlineMemo.slotCount)
        self.outlineRows = Array(repeating: .empty, count: OutlineMemo.slotCount * height)
        self.edgeRoots = Array(repeating: .empty, count: EdgeRootMemo.slotCount)
        self.stamps = CircleStamps(canvasWidth: width, canvasHeight: height)
        self.shapeMemo = ShapeMemo(canvasWidth: width, canvasHeight: height)
        self.rectStamps = RectStamps()
        self.roundedRows = RoundedRowHeights()
    }

    @inlinable public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    @inlinable public subscript(x: Int, y: Int) -> Pixel {
        get { storage[y * width + x] }
        set { storage[y * width + x] = newValue; knowsClear = false }
    }

    /// Fills every pixel with `color` (ignores clips). To transparent, on a canvas that knows which
    /// columns of each row the fills wrote since it was last cleared so, only those: a boot
    /// screen's bar and message are a few rows of the 960x540 canvas of a 1080p screen, which is
    /// 2 MB to store each frame, a Pi Zero's memory bandwidth spent on pixels already clear.
    public mutating func clear(to color: Color = .clear) {
        let p = color.premultiplied
        if p == .transparent && knowsClear {
            let width = self.width, height = self.height
            Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, drawn in
                // From the first drawn pixel to the last as one run where the drawn columns are
                // at least half of it (an LED strip drawn edge to edge: one call, not one a row),
                // else row by row. The pixels between are transparent already: the same bytes.
                var first = -1, end = 0, drawnCount = 0
                for y in 0..<height {
                    let (lo, hi) = Canvas.drawnColumns(drawn[y])
                    if lo >= hi { continue }
                    if first < 0 { first = y * width + lo }
                    end = y * width + hi
                    drawnCount += hi - lo
                }
                if first < 0 { return }
                if end - first <= 2 * drawnCount {
                    fillRun(pixels + first, count: end - first, with: .transparent)
                    for y in 0..<height { drawn[y] = 0 }
                    return
                }
                for y in 0..<height {
                    let (lo, hi) = Canvas.drawnColumns(drawn[y])
                    if lo < hi { fillRun(pixels + y * width + lo, count: hi - lo, with: .transparent) }
                    drawn[y] = 0
                }
            }
            return
        }
        storage.withUnsafeMutableBufferPointer { fillRun($0.baseAddress!, count: $0.count, with: p) }
        knowsClear = p == .transparent
        if knowsClear { drawn.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
    }

    /// The rows that may hold a pixel that is not transparent (empty: none), or nil when that is
    /// not known (the canvas was cleared to a colour, or written other than through its fills):
    /// a display compares only these rows with its last frame's.
    public var drawnRows: Range<Int>? {
        guard knowsClear else { return nil }
        var first = -1, last = -1
        for y in 0..<height {
            let (lo, hi) = Canvas.drawnColumns(drawn[y])
            if lo < hi { if first < 0 { first = y }; last = y }
        }
        return first < 0 ? 0..<0 : first..<last + 1
    }

    // MARK: Clips

    /// Restricts later drawing to `clip` (intersected with the clips already pushed).
    public mutating func pushClip(_ clip: Clip) { clips.append(clip) }
    public mutating func popClip() { _ = clips.popLast() }

    /// Runs `body` with `clip` pushed, and pops it afterwards.
    @inlinable public mutating func withClip(_ clip: Clip, _ body: (inout Canvas) -> Void) {
        pushClip(clip)
        body(&self)
        popClip()
    }

    /// The pixels that drawing may touch: the canvas intersected with every clip's bounds.
    @inlinable func drawableArea(for shapeBounds: FixedRect) -> PixelRect {
        var r = shapeBounds
        for clip in clips { r = r.intersection(clip.bounds) }
        return PixelRect(covering: r, within: bounds)
    }

    /// Coverage of pixel (x, y) after all `clips`: the smallest of theirs (exact for nested and
    /// shared edges, where a product would darken the shared edge).
    @inlinable static func clipCoverage(_ clips: [Clip], x: Fixed, y: Fixed) -> UInt32 {
        var c: UInt32 = 255
        for clip in clips {
            c = Swift.min(c, UInt32(clip.coverage(x: x, y: y)))
            if c == 0 { return 0 }
        }
        return c
    }

    // MARK: Filling
    //
    // The fills of a rounded rectangle, an ellipse and a mask are compiled here, once, and called:
    // inlined into each loader's drawing they were a copy a call site, and on ARMv6 a copy in the
    // loaders' Thumb-1 code, where the loops run slower (docs/PERFORMANCE.md, "The loaders in
    // Thumb-1"). The frames cost the same instructions either way.

    /// Fills `shape` with `paint` at `opacity` (0...1), composited with `blend`.
    @inlinable public mutating func fill<S: Shape>(_ shape: S, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        let area = drawableArea(for: shape.bounds)
        if area.isEmpty { return }
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        composite(area: area, paint: paint, blend: blend, alpha: alpha, ShapeCoverage(shape: shape))
    }

    /// The same for a rounded rectangle, whose row spans go through `OutlineMemo` when no clip is
    /// pushed: a clip with its outline drawn over it next (a bar's fill in its track) reuses them;
    /// one drawn before onto clear rows in the same solid paint is stored again from `RectStamps`.
    @inline(never) public mutating func fill(_ shape: RoundedRectangle, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        let area = drawableArea(for: shape.bounds)
        if area.isEmpty { return }
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        // Drawn before onto clear rows in the same paint: its pixels again (`RectStamps`).
        var capture: Int? = nil
        if clips.isEmpty, case .solid(let color) = paint,
           stampedFill(shape, area: area, paint: word(color.premultiplied), alpha: alpha, capture: &capture) { return }
        // A bar's fill in its track: the part inside is a rounded rectangle itself, drawn unclipped.
        if clips.count == 1, case .roundedRect(let r, let radius) = clips[0],
           let inside = shape.intersection(withSameRows: RoundedRectangle(r, cornerRadius: radius)) {
            if case .solid(let color) = paint, blend == .normal, Canvas.hasLeanRows(inside, area: area) {
                compositeRoundedRows(inside, area: area, solid: color, alpha: alpha)
            } else {
                composite(area: area, paint: paint, blend: blend, alpha: alpha, RoundedRectangleCoverage(shape: inside, memoized: false), clipsApply: false)
            }
            return
        }
        composite(area: area, paint: paint, blend: blend, alpha: alpha, RoundedRectangleCoverage(shape: shape, memoized: clips.isEmpty))
        if let capture { captureRectStamp(capture, area: area) }
    }

    /// The same for a circle (or ellipse), whose edge roots go through `EdgeRootMemo`; a small
    /// circle in a solid paint drawn before (a dot of a grid) from its stamp (`CircleStamps`).
    @inline(never) public mutating func fill(_ shape: Ellipse, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        let area = drawableArea(for: shape.bounds)
        if area.isEmpty { return }
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        if case .solid(let color) = paint, stamps.applies(shape), clips.isEmpty || Canvas.rectanglesHold(area, clips),
           compositeStamped(shape, area: area, color: color.premultiplied, blend: blend, alpha: alpha) { return }
        composite(area: area, paint: paint, blend: blend, alpha: alpha, EllipseCoverage(shape: shape))
    }

    /// Fills the pixels covered by `mask` (e.g. text) with `paint`.
    @inline(never) public mutating func fill(_ mask: Mask, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        precondition(mask.width == width && mask.height == height, "mask and canvas sizes differ")
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        // Only where the mask was written: elsewhere its coverage is 0.
        let area = drawableArea(for: FixedRect(x: .zero, y: .zero, width: Fixed(width), height: Fixed(height))).intersection(mask.written)
        if area.isEmpty { return }
        mask.coverage.withUnsafeBufferPointer { coverage in
            composite(area: area, paint: paint, blend: blend, alpha: alpha, MaskCoverage(coverage: coverage, width: mask.width))
        }
    }
}
