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
/// Text wider than the rectangle keeps its start: the whole words that fit, then an ellipsis
/// (never a glyph cut in half, which at 3x5 reads as a different letter), centred, and the
/// shimmer runs over what is shown: "Starting services" on a 60-pixel line is "Starting…". On
/// LED strips the caller may ask for a marquee instead (`TextOverflow.marquee`).
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

    /// The minimum band width `Bmin` for a face of `pixelSize` pixels per em: 24/22 of it, the
    /// article's 24 points over its 22-point font.
    public static func minimumBand(pixelSize: Int) -> Fixed { Fixed.ratio(Int64(24 * Swift.max(1, pixelSize)), 22) }

    /// The gradient strip `(startX, endX)` in canvas pixels for a text whose left edge is at
    /// `textX` and which is `textWidth` wide, at `phase`.
    public func gradientSpan(textX: Int, textWidth: Int, font: BitmapFont, scale: Int, phase: Fixed) -> (startX: Fixed, endX: Fixed) {
        gradientSpan(textX: textX, textWidth: textWidth, minimumBand: ShimmerText.bandWidth(textWidth: 0, font: font, scale: scale), phase: phase)
    }

    /// The same for a band at least `minimumBand` wide.
    public func gradientSpan(textX: Int, textWidth: Int, minimumBand: Fixed, phase: Fixed) -> (startX: Fixed, endX: Fixed) {
        let wt = Fixed(textWidth), x0 = Fixed(textX)
        if style.isOverlay {
            let b = Swift.max(Fixed.ratio(Int64(textWidth) * 3, 5), minimumBand)
            let start = x0 - b + phase * (wt + b)
            return (start, start + b)
        } else {
            let start = x0 - wt * 2 + phase * (wt * 2)
            return (start, start + wt * 3)
        }
    }

    /// Where `text` goes when centred in `rect`: its left edge, top edge, the width of the part
    /// drawn, and how much of it is drawn (see `BitmapFont.fit`: whole words, then an ellipsis).
    public static func placement(of text: String, font: BitmapFont, scale: Int, in rect: PixelRect)
        -> (x: Int, y: Int, width: Int, count: Int, ellipsis: Bool) {
        let s = Swift.max(1, scale)
        let (count, ellipsis) = font.fit(text, width: rect.width, scale: s)
        var width = font.width(count: count, ellipsis: ellipsis) * s
        if width > rect.width { width = 0 }
        let y = font.origin(centering: text, in: rect, scale: s).y
        return (rect.x + (rect.width - width) / 2, y, width, count, ellipsis)
    }

    /// Clears `mask` and adds `text` centred in `rect`; text wider than `rect` is cut after its
    /// last whole word with an ellipsis (`.ellipsis`), or scrolls through the rectangle
    /// (`.marquee`, see `Marquee`). Returns where the drawn text is, or nil when nothing is.
    @discardableResult
    public static func layOut(_ text: String, font: BitmapFont, scale: Int, in rect: PixelRect,
                              mask: inout Mask, overflow: TextOverflow = .ellipsis) -> (x: Int, y: Int, width: Int)? {
        mask.clear()
        guard !rect.isEmpty else { return nil }
        let s = Swift.max(1, scale)
        let full = font.width(of: text, scale: s)
        if full > rect.width, case .marquee(let elapsed) = overflow {
            let y = font.origin(centering: text, in: rect, scale: s).y
            let cycle = full + Marquee.gap(font: font, scale: s)
            let x = rect.x - Marquee.offset(at: elapsed, cycle: cycle, scale: s)
            mask.add(text: text, font: font, x: x, y: y, scale: s, within: rect)
            mask.add(text: text, font: font, x: x + cycle, y: y, scale: s, within: rect)
            return (rect.x, y, rect.width)
        }
        let p = placement(of: text, font: font, scale: s, in: rect)
        guard p.width > 0 else { return nil }
        mask.add(text: text, font: font, x: p.x, y: p.y, scale: s, count: p.count, ellipsis: p.ellipsis)
        return (p.x, p.y, p.width)
    }

    // MARK: Drawing

    /// Draws `text` in `font` at `scale`, centred in `rect`, with the shimmer at `elapsed`.
    /// Uses `context.mask` as scratch; touches only the glyphs' pixels. Allocates nothing.
    public func draw(_ text: String, font: BitmapFont, scale: Int, in rect: PixelRect,
                     elapsed: Microseconds, into context: inout DrawContext, overflow: TextOverflow = .ellipsis) {
        guard let p = ShimmerText.layOut(text, font: font, scale: scale, in: rect, mask: &context.mask, overflow: overflow) else { return }
        paint(x: p.x, width: p.width, unit: Swift.max(1, scale),
              minimumBand: ShimmerText.bandWidth(textWidth: 0, font: font, scale: scale), elapsed: elapsed, into: &context)
    }

    /// Draws `text` in the anti-aliased `atlas`, centred in `rect` (cut with an ellipsis where it
    /// does not fit), with the shimmer at `elapsed`. Allocates nothing.
    public func draw(_ text: String, atlas: GlyphAtlas, in rect: PixelRect, elapsed: Microseconds, into context: inout DrawContext) {
        guard let p = ShimmerText.layOut(text, atlas: atlas, in: rect, mask: &context.mask) else { return }
        paint(x: p.x, width: p.width, unit: Swift.max(1, atlas.pixelSize / 7),
              minimumBand: ShimmerText.minimumBand(pixelSize: atlas.pixelSize), elapsed: elapsed, into: &context)
    }

    /// Clears `mask` and adds `text` in `atlas` centred in `rect` (vertically by its text box),
    /// cut after its last whole word with an ellipsis where it is too wide. Glyphs may reach past
    /// the box (accents on capitals) and are clipped only by the canvas. Returns where the drawn
    /// text is, or nil when nothing is.
    @discardableResult
    public static func layOut(_ text: String, atlas: GlyphAtlas, in rect: PixelRect, mask: inout Mask) -> (x: Int, y: Int, width: Int)? {
        mask.clear()
        guard !rect.isEmpty else { return nil }
        let (count, ellipsis) = atlas.fit(text, width: rect.width)
        let width = atlas.width(of: text, count: count, ellipsis: ellipsis)
        guard width > 0, width <= rect.width else { return nil }
        let x = rect.x + (rect.width - width) / 2, y = rect.y + (rect.height - atlas.boxHeight) / 2
        mask.add(text: text, atlas: atlas, x: x, y: y, count: count, ellipsis: ellipsis)
        return (x, y, width)
    }

    /// Fills the text in `context.mask` (left edge `x`, `width` wide) with the shimmer at `elapsed`;
    /// `unit` is the stroke's pixel size (the monochrome band's minimum is two of them).
    func paint(x: Int, width: Int, unit: Int, minimumBand: Fixed, elapsed: Microseconds, into context: inout DrawContext) {
        let span = gradientSpan(textX: x, textWidth: width, minimumBand: minimumBand, phase: phase(at: elapsed))
        let p = (x: x, width: width)
        if context.monochrome {
            // On/off LEDs cannot show a gradient: lit glyphs, and a band passing through in which
            // they are drawn in reverse (unlit letters on lit pixels), so the sweep shows and the
            // letters under it stay whole. An unlit band took whole strokes out of 5-pixel
            // letters: a MAX7219 strip read "Star!ing".
            let b = Swift.max(Fixed(2 * unit), Fixed(p.width) / 10)
            let centre = Fixed(p.x) - b + phase(at: elapsed) * (Fixed(p.width) + b * 2)
            context.canvas.fill(context.mask, with: .solid(.white))
            let mask = context.mask, unlit = Color.black.premultiplied, lit = Color.white.premultiplied
            let written = mask.written
            let from = Swift.max((centre - b / 2).floor, written.x), to = Swift.min((centre + b / 2).ceil, written.x + written.width)
            guard from < to else { return }
            for y in written.y..<(written.y + written.height) {
                for x in from..<to { context.canvas[x, y] = mask[x, y] != 0 ? unlit : lit }
            }
        } else if style.isOverlay {
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

/// What to do with text wider than its line.
public enum TextOverflow: Sendable, Equatable {
    /// Keep the whole words that fit, then an ellipsis.
    case ellipsis
    /// Scroll the whole text through the line, positioned by the time `elapsed` (a frame stays a
    /// pure function of time).
    case marquee(elapsed: Microseconds)
}

/// The marquee of a line too long for a narrow LED strip: the text rests at its start for
/// `hold`, then moves left `speed` pixels per second (times the font scale) in whole pixels, with
/// a gap of three advances before it comes round again.
public enum Marquee {
    public static let hold: Microseconds = 1_000_000
    public static let speed: Int64 = 16

    public static func gap(font: BitmapFont, scale: Int) -> Int { 3 * font.advance * Swift.max(1, scale) }

    /// How far (pixels) the text has moved left at `elapsed`, for a text plus gap `cycle` wide.
    public static func offset(at elapsed: Microseconds, cycle: Int, scale: Int) -> Int {
        let pixelsPerSecond = speed * Int64(Swift.max(1, scale))
        let moving = Int64(Swift.max(1, cycle)) * Time.perSecond / pixelsPerSecond
        let period = hold + moving
        var c = elapsed % period
        if c < 0 { c += period }
        if c < hold { return 0 }
        return Int((c - hold) * pixelsPerSecond / Time.perSecond) % Swift.max(1, cycle)
    }
}
