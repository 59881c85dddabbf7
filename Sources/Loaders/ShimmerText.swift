import FixedPoint
import Raster

/// The look of a text shimmer (LOADERS.md, shimmer): which mode, which colours, which timing.
///
/// `textColor == .clear` selects *full-fill* mode: the glyphs are painted with the moving
/// `colors` gradient and nothing else. Any other `textColor` selects *overlay* mode: the glyphs
/// are painted in `textColor` and a soft band `[clear, highlight, clear]` is added on top of them
/// ("plus lighter").
public struct ShimmerStyle: Sendable, Equatable {
    /// Full-fill gradient stops, evenly spaced (at least one colour).
    public var colors: [Color]
    /// `.clear` for full-fill mode, else the base colour of the glyphs in overlay mode.
    public var textColor: Color
    /// Peak colour of the overlay band.
    public var highlight: Color
    /// Length of one sweep.
    public var duration: Microseconds
    /// Rest at phase 0 after each sweep.
    public var repeatDelay: Microseconds

    public init(colors: [Color], textColor: Color = .clear, highlight: Color = ShimmerStyle.defaultHighlight,
                duration: Microseconds = 2 * Time.perSecond, repeatDelay: Microseconds = 0) {
        self.colors = colors.isEmpty ? [.white] : colors
        self.textColor = textColor
        self.highlight = highlight
        self.duration = duration
        self.repeatDelay = repeatDelay
    }

    /// White at 0.35: the article's band peak.
    public static let defaultHighlight = Color.white.opacity(Fixed(35, over: 100))

    /// Overlay mode (the glyphs keep `textColor`, a band brightens them) rather than full fill.
    public var isOverlay: Bool { textColor.a != 0 }

    /// Grok: blue, purple, pink, blue filling the glyphs; 2 s sweeps, no rest.
    public static let grok = ShimmerStyle(colors: [.blue, .purple, .pink, .blue])

    /// ChatGPT: gray alternating with gray at 0.45 opacity, filling the glyphs; 2 s, no rest.
    public static let chatgpt: ShimmerStyle = {
        let g = Color.gray, dim = Color.gray.opacity(Fixed(45, over: 100))
        return ShimmerStyle(colors: [g, dim, g, dim, g])
    }()

    /// Calm: gray text with a white band passing over it; 2 s sweeps, then 0.5 s of rest.
    public static let calm = ShimmerStyle(colors: [.blue, .purple, .pink, .blue], textColor: .gray,
                                          repeatDelay: Time.perSecond / 2)
}

/// Draws one line of bitmap text with a shimmer: the reusable engine behind the `shimmer` loader
/// and the shimmer-styled message line.
///
/// The gradients are built once, in `init`; a frame only moves a copy's `startX`/`endX` (which
/// shares the stop storage), so `draw` allocates nothing. The frame is a pure function of
/// `elapsed`.
///
/// Geometry (pixels, relative to the text's left edge, `Wt` = drawn text width):
/// - full fill: a gradient strip `3·Wt` wide from `x = −2·Wt + phase·2·Wt`;
/// - overlay: a band `B` wide from `x = −B + phase·(Wt + B)`, `B = max(0.6·Wt, Bmin)`.
///
/// `Bmin`, the article's 24 points: the article sets its text in `.title2`, a 22-point font, so
/// its 24 points are 24/22 of the font size (about two letters of that font). Here the font size
/// is the bitmap font's line height times the scale, so `Bmin = 24 · lineHeight · scale / 22`
/// pixels (6.5 px for the small font at scale 1, 10.9 px for the large one). Reading the 24 as
/// 24 font pixels instead would make the minimum band six small-font letters wide, three times
/// the article's proportion; it only matters for texts shorter than about three letters anyway.
///
/// Text wider than the rectangle keeps its start: as many whole glyphs as fit are drawn (never a
/// glyph cut in half, which at 3x5 reads as a different letter), centred, and the shimmer runs
/// over what is shown. The start of a status message says what is happening: on a 64-pixel
/// strip "Starting services" shows as "Starting service", not "tarting services".
public struct ShimmerText: Sendable {
    public let style: ShimmerStyle
    /// The full-fill gradient (stops evenly spaced) and the overlay band, positioned per frame.
    let fill: LinearGradient
    let band: LinearGradient

    public init(style: ShimmerStyle) {
        self.style = style
        fill = LinearGradient(colors: style.colors)
        band = LinearGradient(colors: [.clear, style.highlight, .clear])
    }

    // MARK: Timing

    /// 0 → 1 during a sweep, then 0 during the repeat delay: with cycle = duration + repeatDelay
    /// and c = t mod cycle, phase = c / duration while c < duration, else 0.
    public static func phase(at t: Microseconds, duration: Microseconds, repeatDelay: Microseconds) -> Fixed {
        let cycle = duration + repeatDelay
        guard duration > 0, cycle > 0 else { return .zero }
        var c = t % cycle
        if c < 0 { c += cycle }
        guard c < duration else { return .zero }
        return Fixed.ratio(c, duration)
    }

    public func phase(at t: Microseconds) -> Fixed {
        ShimmerText.phase(at: t, duration: style.duration, repeatDelay: style.repeatDelay)
    }

    /// One sweep plus its rest.
    public var period: Microseconds { Swift.max(1, style.duration + style.repeatDelay) }

    // MARK: Geometry

    /// Width of the overlay band for a text `textWidth` pixels wide in `font` at `scale`.
    public static func bandWidth(textWidth: Int, font: BitmapFont, scale: Int) -> Fixed {
        let proportional = Fixed.ratio(Int64(textWidth) * 3, 5)
        let minimum = Fixed.ratio(Int64(24 * font.lineHeight * Swift.max(1, scale)), 22)
        return Swift.max(proportional, minimum)
    }

    /// The gradient strip `(startX, endX)` in canvas pixels for a text whose left edge is at
    /// `textX` and which is `textWidth` wide, at `phase`.
    public func gradientSpan(textX: Int, textWidth: Int, font: BitmapFont, scale: Int, phase: Fixed) -> (startX: Fixed, endX: Fixed) {
        let wt = Fixed(textWidth), x0 = Fixed(textX)
        if style.isOverlay {
            let b = ShimmerText.bandWidth(textWidth: textWidth, font: font, scale: scale)
            let start = x0 - b + phase * (wt + b)
            return (start, start + b)
        } else {
            let start = x0 - wt * 2 + phase * (wt * 2)
            return (start, start + wt * 3)
        }
    }

    /// Where `text` goes when centred in `rect`: its left edge, top edge, and the width of the
    /// part that is drawn (whole glyphs only; 0 when not even one fits).
    public static func placement(of text: String, font: BitmapFont, scale: Int, in rect: PixelRect) -> (x: Int, y: Int, width: Int) {
        let s = Swift.max(1, scale)
        let full = font.width(of: text, scale: s)
        var width = full
        if full > rect.width {
            let step = font.advance * s, gap = (font.advance - font.cellWidth) * s
            let glyphs = Swift.max(0, (rect.width + gap) / step)
            width = glyphs == 0 ? 0 : glyphs * step - gap
        }
        let y = font.origin(centering: text, in: rect, scale: s).y
        return (rect.x + (rect.width - width) / 2, y, width)
    }

    /// Clears `mask` and adds the visible part of `text` centred in `rect` (see `placement`).
    /// Returns the placement, or nil when nothing is visible.
    @discardableResult
    public static func layOut(_ text: String, font: BitmapFont, scale: Int, in rect: PixelRect,
                              mask: inout Mask) -> (x: Int, y: Int, width: Int)? {
        mask.clear()
        let s = Swift.max(1, scale)
        let p = placement(of: text, font: font, scale: s, in: rect)
        guard p.width > 0, !rect.isEmpty else { return nil }
        mask.add(text: text, font: font, x: p.x, y: p.y, scale: s)
        if p.width < font.width(of: text, scale: s) {
            // Cut the glyphs that do not fit whole.
            let x0 = Swift.max(0, p.x + p.width), x1 = mask.width
            let y0 = Swift.max(0, p.y), y1 = Swift.min(mask.height, p.y + font.height(scale: s))
            if x0 < x1 && y0 < y1 {
                let w = mask.width
                mask.coverage.withUnsafeMutableBufferPointer { cov in
                    for row in y0..<y1 { for col in x0..<x1 { cov[row * w + col] = 0 } }
                }
            }
        }
        return p
    }

    // MARK: Drawing

    /// Draws `text` in `font` at `scale`, centred in `rect`, with the shimmer at `elapsed`.
    /// Uses `context.mask` as scratch; touches only the glyphs' pixels. Allocates nothing.
    public func draw(_ text: String, font: BitmapFont, scale: Int, in rect: PixelRect,
                     elapsed: Microseconds, into context: inout DrawContext) {
        guard let p = ShimmerText.layOut(text, font: font, scale: scale, in: rect, mask: &context.mask) else { return }
        let span = gradientSpan(textX: p.x, textWidth: p.width, font: font, scale: scale, phase: phase(at: elapsed))
        if style.isOverlay {
            var g = band
            g.startX = span.startX; g.endX = span.endX
            context.canvas.fill(context.mask, with: .solid(style.textColor))
            context.canvas.fill(context.mask, with: .linearGradient(g), blend: .plusLighter)
        } else {
            var g = fill
            g.startX = span.startX; g.endX = span.endX
            context.canvas.fill(context.mask, with: .linearGradient(g))
        }
    }
}
