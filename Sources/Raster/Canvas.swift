import FixedPoint

/// A premultiplied RGBA8 image that loaders draw into: the low-resolution frame before a display
/// maps it onto its pixels.
///
/// Made once when a display opens or a loader starts (1x1 up to 4096x4096); drawing into it never
/// allocates (the clip stack keeps its capacity), so a frame costs no mallocs.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major premultiplied pixels, `width × height`.
    public var pixels: [Pixel]
    @usableFromInline var clips: [Clip]

    public static let maximumSide = 4096
    /// How deep clips may nest without the clip stack growing (and allocating) mid-frame.
    public static let clipCapacity = 8

    public init(width: Int, height: Int) {
        precondition((1...Canvas.maximumSide).contains(width) && (1...Canvas.maximumSide).contains(height),
                     "canvas size \(width)x\(height) outside 1...\(Canvas.maximumSide)")
        self.width = width
        self.height = height
        self.pixels = Array(repeating: .transparent, count: width * height)
        self.clips = []
        self.clips.reserveCapacity(Canvas.clipCapacity)
    }

    @inlinable public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    @inlinable public subscript(x: Int, y: Int) -> Pixel {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Fills every pixel with `color` (ignores clips).
    public mutating func clear(to color: Color = .clear) {
        let p = color.premultiplied
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: p) }
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

    /// Coverage of pixel (x, y) after all clips: the product of theirs.
    @inlinable func clipCoverage(x: Fixed, y: Fixed) -> UInt32 {
        var c: UInt32 = 255
        for clip in clips {
            c = div255(c * UInt32(clip.coverage(x: x, y: y)))
            if c == 0 { return 0 }
        }
        return c
    }

    // MARK: Filling

    /// Fills `shape` with `paint` at `opacity` (0...1), composited with `blend`.
    @inlinable public mutating func fill<S: Shape>(_ shape: S, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        let area = drawableArea(for: shape.bounds)
        if area.isEmpty { return }
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        composite(area: area, paint: paint, blend: blend) { x, y, cx, cy in
            var c = UInt32(shape.coverage(x: cx, y: cy))
            if c == 0 { return 0 }
            c = div255(c * alpha)
            return c
        }
    }

    /// Fills the pixels covered by `mask` (e.g. text) with `paint`.
    @inlinable public mutating func fill(_ mask: Mask, with paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        precondition(mask.width == width && mask.height == height, "mask and canvas sizes differ")
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        let area = drawableArea(for: FixedRect(x: .zero, y: .zero, width: Fixed(width), height: Fixed(height)))
        composite(area: area, paint: paint, blend: blend) { x, y, _, _ in
            div255(UInt32(mask.coverage[y * mask.width + x]) * alpha)
        }
    }

    /// The shared pixel loop: coverage from `coverageAt`, times the clips, paint, blend.
    @inlinable mutating func composite(area: PixelRect, paint: Paint, blend: BlendMode,
                                       _ coverageAt: (Int, Int, Fixed, Fixed) -> UInt32) {
        let hasClips = !clips.isEmpty
        let w = width
        var solid = Pixel.transparent
        var gradient: LinearGradient? = nil
        switch paint {
        case .solid(let c): solid = c.premultiplied
        case .linearGradient(let g): gradient = g
        }
        for y in area.y..<area.maxY {
            let cy = Fixed(y) + .half
            for x in area.x..<area.maxX {
                let cx = Fixed(x) + .half
                var c = coverageAt(x, y, cx, cy)
                if c == 0 { continue }
                if hasClips { c = div255(c * clipCoverage(x: cx, y: cy)); if c == 0 { continue } }
                let source = (gradient?.pixel(atX: cx) ?? solid).scaled(by: UInt8(truncatingIfNeeded: c))
                pixels[y * w + x] = blend.blend(source, onto: pixels[y * w + x])
            }
        }
    }
}
