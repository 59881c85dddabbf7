import FixedPoint
import Raster

/// How the message line under a loader is drawn.
public enum MessageStyle: String, Sendable, CaseIterable {
    case plain, grok, chatgpt, calm
}

/// The message line: one line of bitmap text centred under the loader.
///
/// Font: below 32 pixels of canvas height the small 3x5 font at scale 1 (an 8-pixel LED strip
/// keeps its loader and shows no message; a 16-pixel panel has room for both); from 32 pixels on,
/// the large 5x7+2 font at scale ⌊height / 120⌋ (at least 1). The line is exactly as tall as that
/// font's text box at that scale.
///
/// A message wider than its area keeps its start, cut after the last glyph that fits whole
/// (see `ShimmerText.placement`).
public enum MessageLine {
    /// The font and scale of the message line on a canvas `canvasHeight` tall.
    public static func font(forCanvasHeight canvasHeight: Int) -> (font: BitmapFont, scale: Int) {
        canvasHeight < 32 ? (.small, 1) : (.large, Swift.max(1, canvasHeight / 120))
    }

    /// Height in pixels of the message line on a canvas `canvasHeight` tall: the text box of
    /// `font(forCanvasHeight:)`.
    public static func height(forCanvasHeight canvasHeight: Int) -> Int {
        let (font, scale) = font(forCanvasHeight: canvasHeight)
        return font.height(scale: scale)
    }

    // Built once (on first use), so a styled line allocates nothing per frame.
    static let grok = ShimmerText(style: .grok)
    static let chatgpt = ShimmerText(style: .chatgpt)
    static let calm = ShimmerText(style: .calm)

    /// Draws `message` centred in `area`: in `color` for `plain`, else with that shimmer preset
    /// (the time is the loader's `elapsed`). Uses `context.mask` as scratch.
    public static func draw(_ message: String, style: MessageStyle, color: Color, into context: inout DrawContext,
                            area: PixelRect, elapsed: Microseconds) {
        let (font, scale) = font(forCanvasHeight: context.canvas.height)
        switch style {
        case .plain:
            guard ShimmerText.layOut(message, font: font, scale: scale, in: area, mask: &context.mask) != nil else { return }
            context.canvas.fill(context.mask, with: .solid(color))
        case .grok:
            grok.draw(message, font: font, scale: scale, in: area, elapsed: elapsed, into: &context)
        case .chatgpt:
            chatgpt.draw(message, font: font, scale: scale, in: area, elapsed: elapsed, into: &context)
        case .calm:
            calm.draw(message, font: font, scale: scale, in: area, elapsed: elapsed, into: &context)
        }
    }
}
