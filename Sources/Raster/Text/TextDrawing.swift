import FixedPoint

extension Canvas {
    /// Draws `text` in `font` with its text box's top-left corner at (x, y): each lit glyph
    /// pixel becomes a `scale × scale` block filled with `paint` at `opacity`, composited with
    /// `blend`, through the clip stack (anti-aliased clips soften the blocks they cut).
    ///
    /// One line: every Unicode scalar takes one advance, unprintable ones draw the font's
    /// fallback glyph. Text partly or wholly off the canvas is clipped; scale < 1 draws nothing.
    /// Allocates nothing. Blocks never overlap, so `opacity` < 1 is uniform across the text.
    public mutating func draw(text: String, font: BitmapFont, x: Int, y: Int, scale: Int = 1,
                              paint: Paint, opacity: Fixed = .one, blend: BlendMode = .normal) {
        let alpha = UInt32(opacity.unitByte)
        if alpha == 0 { return }
        font.forEachBlock(in: text, x: x, y: y, scale: scale, within: bounds) { block in
            // `block` lies inside the canvas, so its Fixed form is exact.
            let area = drawableArea(for: FixedRect(x: Fixed(block.x), y: Fixed(block.y),
                                                   width: Fixed(block.width), height: Fixed(block.height)))
            if area.isEmpty { return }
            composite(area: area, paint: paint, blend: blend, alpha: alpha, UniformCoverage())
        }
    }
}

extension Mask {
    /// Adds `text` to the mask: coverage 255 on every pixel of its lit `scale × scale` blocks,
    /// with the text box's top-left corner at (x, y). Clipped to the mask; allocates nothing.
    /// `count` and `ellipsis`: only the first `count` scalars, then the ellipsis glyph;
    /// `within`: clipped to that rectangle too (a marquee's window).
    public mutating func add(text: String, font: BitmapFont, x: Int, y: Int, scale: Int = 1,
                             count: Int = .max, ellipsis: Bool = false, within window: PixelRect? = nil) {
        var limit = PixelRect(x: 0, y: 0, width: width, height: height)
        if let window { limit = limit.intersection(window) }
        if limit.isEmpty { return }
        let w = width
        // The blocks' bounding box, as plain bounds (a rectangle union a block was most of a lit
        // pixel's cost at scale 1).
        var lo = (x: Int.max, y: Int.max), hi = (x: Int.min, y: Int.min)
        coverage.withUnsafeMutableBufferPointer { cov in
            font.forEachBlock(in: text, count: count, ellipsis: ellipsis, x: x, y: y, scale: scale, within: limit) { block in
                lo = (Swift.min(lo.x, block.x), Swift.min(lo.y, block.y))
                hi = (Swift.max(hi.x, block.maxX), Swift.max(hi.y, block.maxY))
                for row in block.y..<block.maxY {
                    let start = row * w
                    for col in block.x..<block.maxX { cov[start + col] = 255 }
                }
            }
        }
        if lo.x < hi.x { written = written.union(PixelRect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)) }
    }
}
