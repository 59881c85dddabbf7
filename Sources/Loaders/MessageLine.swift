import FixedPoint
import Raster

/// How the message line under a loader is drawn.
public enum MessageStyle: String, Sendable, CaseIterable {
    case plain, grok, chatgpt, calm
}

/// The message line: one line of text centred under the loader.
///
/// On a screen whose scene has loaded a face (`TextFace`, FreeType), the line is anti-aliased
/// proportional text in that face. Otherwise:
///
/// Font, by the canvas: on a screen (`BootScreenLayout.isScreen`) the large 5x7+2 font at scale
/// ⌊shorter side / 360⌋ (at least 1: 1 at 800x480, 2 at 1280x720, 3 at 1920x1080); elsewhere
/// below 32 pixels of height the small 3x5 font, from 32 on the large one at scale 1. Then by the
/// width: a message too wide for the line at that scale takes the largest smaller scale at which
/// it fits whole. If it fits at none, it is cut after its last whole word with an ellipsis, or,
/// on an LED matrix, scrolls as a marquee (`Marquee`), positioned by the time.
public enum MessageLine {
    /// The preferred font and scale of the message line on a `width × height` canvas.
    public static func font(forCanvasWidth width: Int, height: Int) -> (font: BitmapFont, scale: Int) {
        if BootScreenLayout.isScreen(width: width, height: height) { return (.large, Swift.max(1, Swift.min(width, height) / 360)) }
        return height < 32 ? (.small, 1) : (.large, 1)
    }

    /// The scale for `message` in a line `width` wide: the preferred one, or the largest smaller
    /// one at which the message fits whole (1 when none does).
    public static func scale(for message: String, font: BitmapFont, preferred: Int, width: Int) -> Int {
        var s = Swift.max(1, preferred)
        while s > 1 && font.width(of: message, scale: s) > width { s -= 1 }
        return s
    }

    // Built once (on first use), so a styled line allocates nothing per frame.
    static let grok = ShimmerText(style: .grok)
    static let chatgpt = ShimmerText(style: .chatgpt)
    static let calm = ShimmerText(style: .calm)

    /// Draws `message` centred in `area`: in `color` for `plain`, else with that shimmer preset
    /// (the time is the loader's `elapsed`). Uses `context.mask` as scratch.
    public static func draw(_ message: String, style: MessageStyle, color: Color, into context: inout DrawContext,
                            area: PixelRect, elapsed: Microseconds) {
        let canvas = context.canvas
        if let face = context.face, BootScreenLayout.isScreen(width: canvas.width, height: canvas.height) {
            drawAntialiased(message, face: face, style: style, color: color, into: &context, area: area, elapsed: elapsed)
            return
        }
        let preferred = font(forCanvasWidth: canvas.width, height: canvas.height)
        let scale = scale(for: message, font: preferred.font, preferred: preferred.scale, width: area.width)
        draw(message, style: style, color: color, into: &context, area: area, elapsed: elapsed, font: preferred.font, scale: scale)
    }

    /// The same in a bitmap `font` at `scale` chosen by the caller (a strip's message turn).
    static func draw(_ message: String, style: MessageStyle, color: Color, into context: inout DrawContext,
                     area: PixelRect, elapsed: Microseconds, font: BitmapFont, scale: Int) {
        let canvas = context.canvas
        let overflow: TextOverflow = BootScreenLayout.isScreen(width: canvas.width, height: canvas.height) ? .ellipsis : .marquee(elapsed: elapsed)
        switch style {
        case .plain:
            guard ShimmerText.layOut(message, font: font, scale: scale, in: area, mask: &context.mask, overflow: overflow) != nil else { return }
            context.canvas.fill(context.mask, with: .solid(context.monochrome ? .white : color))
        case .grok:
            grok.draw(message, font: font, scale: scale, in: area, elapsed: elapsed, into: &context, overflow: overflow)
        case .chatgpt:
            chatgpt.draw(message, font: font, scale: scale, in: area, elapsed: elapsed, into: &context, overflow: overflow)
        case .calm:
            calm.draw(message, font: font, scale: scale, in: area, elapsed: elapsed, into: &context, overflow: overflow)
        }
    }

    /// A screen's line in the anti-aliased face: centred, cut after whole words with an ellipsis.
    static func drawAntialiased(_ message: String, face: GlyphAtlas, style: MessageStyle, color: Color, into context: inout DrawContext,
                                area: PixelRect, elapsed: Microseconds) {
        switch style {
        case .plain:
            guard ShimmerText.layOut(message, atlas: face, in: area, mask: &context.mask) != nil else { return }
            context.canvas.fill(context.mask, with: .solid(context.monochrome ? .white : color))
        case .grok: grok.draw(message, atlas: face, in: area, elapsed: elapsed, into: &context)
        case .chatgpt: chatgpt.draw(message, atlas: face, in: area, elapsed: elapsed, into: &context)
        case .calm: calm.draw(message, atlas: face, in: area, elapsed: elapsed, into: &context)
        }
    }
}
