import FixedPoint
import Raster

/// `shimmer`: a line of text with a moving gradient (LOADERS.md, shimmer; seed 003 part 1).
/// The text is the daemon's current message when one is set, else the `text` parameter; the
/// loader draws the message itself, so the scene adds no message line under it.
///
/// Layout: the design size is the text's own box, in pixels of the font it is measured with
/// (the small font for `font=auto`, which is the wider one per pixel of height, so whichever font
/// `auto` then picks fits the fitted width): text width + 2 (a pixel of margin each side) by the
/// font's box height. `Layout.fit` keeps that aspect, and the font and integer scale are then
/// chosen from the fitted rectangle's pixel height: `auto` takes the large 5x7+2 font from 9
/// pixels (scale ⌊h / 9⌋), its eight-row cut (`BitmapFont.large8`) at 8 pixels (a strip of
/// MAX7219 modules) and the small 3x5 font below. The text is centred in that rectangle; if it
/// does not fit even so (a long message on a narrow display), its start is kept in whole glyphs,
/// or it scrolls on an LED matrix, at least eight pixels high where the matrix has them.
/// On a screen with a loaded face (`TextFace`) the text is anti-aliased in that face instead,
/// centred in the scene's shimmer box.
public struct Shimmer: Loader {
    public static let name = "shimmer"
    public static let summary = "text with a moving gradient: the message (or `text`) in a shimmer"

    public static let parameters: [ParameterSpec] = [
        ParameterSpec("text", .text(maxLength: 200), default: "Loading", "text shown while no message is set"),
        ParameterSpec("colors", .colors, default: "blue,purple,pink,blue", "full-fill gradient stops, evenly spaced"),
        ParameterSpec("textColor", .color, default: "clear", "clear: the gradient fills the glyphs; else the glyphs' colour under a highlight band"),
        ParameterSpec("highlight", .color, default: "white@0.35", "peak of the highlight band (when textColor is set)"),
        ParameterSpec("duration", .seconds(0.05...60), default: "2.0", "length of one sweep"),
        ParameterSpec("repeatDelay", .seconds(0...60), default: "0", "rest after each sweep"),
        ParameterSpec("font", .choice(["auto", "small", "large"]), default: "auto", "auto: large from 9 px of height (scaled from 18), large in 8 rows at 8 px, small below"),
    ]

    /// Each preset sets every key of the look, so the result does not depend on the defaults.
    public static let presets: [Preset] = [
        Preset("grok", "blue, purple, pink, blue filling the glyphs; 2 s (the default)", [
            ("colors", "blue,purple,pink,blue"), ("textColor", "clear"), ("highlight", "white@0.35"),
            ("duration", "2.0"), ("repeatDelay", "0"),
        ]),
        Preset("chatgpt", "gray and gray at 0.45 filling the glyphs; 2 s", [
            ("colors", "gray,gray@0.45,gray,gray@0.45,gray"), ("textColor", "clear"), ("highlight", "white@0.35"),
            ("duration", "2.0"), ("repeatDelay", "0"),
        ]),
        Preset("calm", "gray text under a white band; 2 s sweep, 0.5 s rest", [
            ("colors", "blue,purple,pink,blue"), ("textColor", "gray"), ("highlight", "white@0.35"),
            ("duration", "2.0"), ("repeatDelay", "0.5"),
        ]),
    ]

    public enum FontChoice: String, Sendable { case auto, small, large }

    public let text: String
    public let fontChoice: FontChoice
    public let shimmer: ShimmerText
    public var style: ShimmerStyle { shimmer.style }

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        text = parameters.text("text")
        fontChoice = FontChoice(rawValue: parameters.choice("font")) ?? .auto
        shimmer = ShimmerText(style: ShimmerStyle(
            colors: parameters.colors("colors"), textColor: parameters.color("textColor"),
            highlight: parameters.color("highlight"), duration: parameters.seconds("duration"),
            repeatDelay: parameters.seconds("repeatDelay")))
    }

    public var drawsMessage: Bool { true }

    /// What the frame shows: the message when set (and not empty), else `text`.
    public func displayedText(_ state: FrameState) -> String {
        if let message = state.message, !message.isEmpty { return message }
        return text
    }

    /// The font the design size is measured in.
    var metricsFont: BitmapFont { fontChoice == .large ? .large : .small }

    public var designSize: DesignSize { designSize(of: text) }

    public func designSize(for state: FrameState) -> DesignSize { designSize(of: displayedText(state)) }

    func designSize(of text: String) -> DesignSize {
        let font = metricsFont
        return DesignSize(width: font.width(of: text) + 2, height: font.boxHeight)
    }

    /// Font and scale for a text `pixelHeight` pixels tall at most.
    public func font(forHeight pixelHeight: Int) -> (font: BitmapFont, scale: Int) {
        let font: BitmapFont
        switch fontChoice {
        case .small: font = .small
        case .large: font = pixelHeight >= BitmapFont.large.boxHeight ? .large : .large8
        case .auto:
            // The finest font the height takes: the 5x7 from 9 pixels (scaled from 18), its
            // eight-row cut on 8-pixel strips, the 3x5 below. (The 3x5 doubled, which 10 to 15
            // pixels had, is blocky, and at 3x5 a g reads as a 9.)
            let large = BitmapFont.large, large8 = BitmapFont.large8
            font = pixelHeight >= large.boxHeight ? large : pixelHeight >= large8.boxHeight ? large8 : .small
        }
        return (font, Swift.max(1, pixelHeight / font.boxHeight))
    }

    public var period: Microseconds { shimmer.period }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        // Layout.fit snaps the rectangle to whole pixels.
        let r = layout.rect
        var rect = PixelRect(x: r.x.floor, y: r.y.floor, width: r.width.rounded, height: r.height.rounded)
        // A text too long for its line keeps its proportions only down to a font's height: below
        // that it is cut or scrolls (MessageLine) rather than shrinking to nothing. The 5x7's
        // eight rows where the canvas has them (a long message scrolls along an 8-LED strip in
        // it), unless the small font was asked for.
        let floor = fontChoice != .small && context.canvas.height >= BitmapFont.large8.boxHeight ? BitmapFont.large8 : BitmapFont.small
        let minimum = Swift.min(floor.boxHeight, context.canvas.height)
        if rect.height < minimum {
            let y = Swift.max(0, Swift.min(context.canvas.height - minimum, rect.y + rect.height / 2 - minimum / 2))
            rect = PixelRect(x: rect.x, y: y, width: rect.width, height: minimum)
        }
        let text = displayedText(state)
        let screen = BootScreenLayout.isScreen(width: context.canvas.width, height: context.canvas.height)
        if let face = context.face, screen {
            // The scene gives a face's shimmer its whole box (see Scene.render).
            shimmer.draw(text, atlas: face, in: rect, elapsed: state.elapsed, into: &context)
            return
        }
        var (font, scale) = font(forHeight: rect.height)
        // A font taller than the line (font=large on an 8-pixel strip) would lose rows: the small one fits.
        if font.height(scale: 1) > rect.height { font = .small; scale = 1 }
        scale = MessageLine.scale(for: text, font: font, preferred: scale, width: rect.width)
        shimmer.draw(text, font: font, scale: scale, in: rect, elapsed: state.elapsed, into: &context,
                     overflow: screen ? .ellipsis : .marquee(elapsed: state.elapsed))
    }
}
