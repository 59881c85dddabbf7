import FixedPoint
import Raster

/// How the message line under a loader is drawn.
public enum MessageStyle: String, Sendable, CaseIterable {
    case plain, grok, chatgpt, calm
}

/// The message line: one line of bitmap text centred under the loader.
public enum MessageLine {
    /// Height in pixels of the message line on a canvas `canvasHeight` tall.
    public static func height(forCanvasHeight canvasHeight: Int) -> Int {
        canvasHeight < 32 ? 5 : 7 * Swift.max(1, canvasHeight / 120)
    }

    public static func draw(_ message: String, style: MessageStyle, color: Color, into context: inout DrawContext,
                            area: PixelRect, elapsed: Microseconds) {
        // Filled in once the bitmap fonts land.
    }
}
