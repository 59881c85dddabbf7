import FixedPoint

// Writes to a canvas other than fills that keep it knowing which pixels are still clear (see
// `Canvas.drawn`): a boot screen's logo stored each frame, the exit's fade and a dimmed copy,
// which through `pixels` would make the next clear and the display's compare cover the whole
// canvas.

extension Canvas {
    /// Stores `block` (`blockWidth` pixels a row, premultiplied, row-major) with its top-left
    /// at (x, y), clipped to the canvas, each pixel scaled by `opacity`: an image put over what
    /// is there, not blended with it.
    public mutating func store(_ block: [Pixel], blockWidth: Int, x: Int, y: Int, opacity: UInt8) {
        guard blockWidth > 0 else { return }
        let blockHeight = block.count / blockWidth
        let x0 = Swift.max(x, 0), x1 = Swift.min(x + blockWidth, width)
        let y0 = Swift.max(y, 0), y1 = Swift.min(y + blockHeight, height)
        if x0 >= x1 || y0 >= y1 { return }
        let width = self.width, knowsClear = self.knowsClear
        Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, drawn in
            block.withUnsafeBufferPointer { source in
                for row in y0..<y1 {
                    let from = source.baseAddress! + (row - y) * blockWidth + (x0 - x), to = pixels + row * width + x0
                    if opacity == 255 {
                        to.update(from: from, count: x1 - x0)
                    } else {
                        for i in 0..<(x1 - x0) { to[i] = from[i].scaled(by: opacity) }
                    }
                    if knowsClear { _ = Canvas.noteDrawn(drawn + row, x0, x1) }
                }
            }
        }
    }

    /// `color` at `opacity` over whole pixels, blended normally: what filling the rectangle on
    /// those pixel edges gives, byte for byte (full coverage: the colour scaled by the opacity,
    /// over what is there), without the compositor's set-up, which for the 2x2 blocks of an LED
    /// matrix's grid (the worm's) is most of a fill's cost. With a clip pushed, the fill itself.
    public mutating func fillPixels(_ rect: PixelRect, with color: Color, opacity: Fixed = .one) {
        if !clips.isEmpty {
            let r = FixedRect(x: Fixed(rect.x), y: Fixed(rect.y), width: Fixed(rect.width), height: Fixed(rect.height))
            fill(RoundedRectangle(r, cornerRadius: .zero), with: .solid(color), opacity: opacity)
            return
        }
        let alpha = opacity.unitByte
        let x0 = Swift.max(rect.x, 0), x1 = Swift.min(rect.x + rect.width, width)
        let y0 = Swift.max(rect.y, 0), y1 = Swift.min(rect.y + rect.height, height)
        if alpha == 0 || x0 >= x1 || y0 >= y1 { return }
        let solid = color.premultiplied, source = alpha == 255 ? solid : solid.scaled(by: alpha)
        let width = self.width, knowsClear = self.knowsClear
        Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, drawn in
            for y in y0..<y1 {
                if knowsClear { _ = Canvas.noteDrawn(drawn + y, x0, x1) }
                let line = pixels + y * width
                for x in x0..<x1 { line[x] = NormalBlend.blend(source, onto: line[x]) }
            }
        }
    }

    /// Every pixel scaled by `opacity` (premultiplied pixels make this exactly a group fade).
    /// Only the drawn columns when the canvas knows them: the rest are transparent and stay so.
    public mutating func fade(by opacity: UInt8) {
        if opacity == 255 { return }
        let width = self.width, height = self.height, knowsClear = self.knowsClear
        Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, drawn in
            for y in 0..<height {
                let (lo, hi) = knowsClear ? Canvas.drawnColumns(drawn[y]) : (0, width)
                if lo < hi { for x in lo..<hi { pixels[y * width + x] = pixels[y * width + x].scaled(by: opacity) } }
            }
        }
    }

    /// The fade of what was drawn over `background`, the colour the canvas was cleared to: each
    /// pixel moved toward it by 1 − `opacity`. For a pixel P = C + B(1 − Ca) (content C over
    /// background B, premultiplied) that is o·P + (1 − o)·B = C·o + B(1 − Ca·o): exactly the
    /// content's group fade, and the background stays as it is (a plain fade would take a
    /// `screen.background` to black with the loader). Over a transparent one, `fade(by:)`.
    public mutating func fade(by opacity: UInt8, toward background: Pixel) {
        if background == .transparent { fade(by: opacity); return }
        if opacity == 255 { return }
        // Each part rounds to at most its share of 255 (o and 255 − o), so the sum cannot wrap.
        let under = background.scaled(by: 255 - opacity)
        let count = width * height
        Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, _ in
            for i in 0..<count where pixels[i] != background {
                let p = pixels[i].scaled(by: opacity)
                pixels[i] = Pixel(r: p.r &+ under.r, g: p.g &+ under.g, b: p.b &+ under.b, a: p.a &+ under.a)
            }
        }
    }

    /// This canvas becomes `source` (the same size) scaled by `opacity`: a dimmed copy, made
    /// again each frame. Where `source` knows which pixels are clear only its drawn columns are
    /// copied (after clearing this canvas's own), and this canvas knows them too.
    public mutating func copyScaled(from source: Canvas, by opacity: UInt8) {
        precondition(source.width == width && source.height == height, "copyScaled between canvases of different sizes")
        let width = self.width, height = self.height
        guard source.knowsClear else {
            Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, _ in
                source.storage.withUnsafeBufferPointer { from in
                    for i in 0..<(width * height) { pixels[i] = from[i].scaled(by: opacity) }
                }
            }
            knowsClear = false
            return
        }
        clear()
        Canvas.withPixelsAndDrawn(&storage, &drawn) { pixels, drawn in
            source.storage.withUnsafeBufferPointer { from in
                for y in 0..<height {
                    let (lo, hi) = Canvas.drawnColumns(source.drawn[y])
                    if lo >= hi { continue }
                    for x in lo..<hi { pixels[y * width + x] = from[y * width + x].scaled(by: opacity) }
                    _ = Canvas.noteDrawn(drawn + y, lo, hi)
                }
            }
        }
    }

    static func withPixelsAndDrawn(_ pixels: inout [Pixel], _ drawn: inout [UInt32], _ body: (UnsafeMutablePointer<Pixel>, UnsafeMutablePointer<UInt32>) -> Void) {
        pixels.withUnsafeMutableBufferPointer { p in drawn.withUnsafeMutableBufferPointer { d in body(p.baseAddress!, d.baseAddress!) } }
    }
}
