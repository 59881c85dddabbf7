import FixedPoint
import Raster

/// `skeleton` (LOADERS.md, seed 004): gray placeholder blocks in the shape of the content to come
/// (the "redacted" look) with a highlight sweeping across them.
///
/// Design size 64 x 16: a circle "avatar" of diameter 12 at (2, 2) and two rounded text lines,
/// 4 high, at y = 2 and y = 10, starting at x = 18 and as long as `line1Width` / `line2Width`
/// percent of the 44 units left of the right margin (60 % and 40 % by default). The 4:1 shape is
/// the native size of a 32x8 LED strip at half scale, where every block edge falls on a pixel
/// boundary (avatar rows 1–6, lines on rows 1–2 and 5–6 with a clean 2-row gap). Without the
/// avatar the lines start at x = 2 and share 60 units.
///
/// The highlight is a horizontal gradient black → `highlight` → black as wide as the loader,
/// whose centre moves from 1.5 W (just off the right edge) to −0.5 W (just off the left edge)
/// over `duration`, repeating. It is composited onto the blocks only (each block is filled a
/// second time with the gradient) with the screen blend mode, so the background is never touched.
/// The gradient's black ends are transparent black: screen with black leaves a colour as it is
/// either way, and a zero alpha also leaves the blocks' anti-aliased edges exactly as they were.
///
/// Exit: the default fade; the scene then draws the success or failure mark.
public struct SkeletonShimmer: Loader {
    public static let name = "skeleton"
    public static let summary = "placeholder blocks (avatar and text lines) with a sweeping shimmer"
    public static let parameters: [ParameterSpec] = [
        ParameterSpec("blockColor", .color, default: "gray", "colour of the placeholder blocks"),
        ParameterSpec("highlight", .color, default: "white", "centre colour of the sweeping gradient (screen-blended)"),
        ParameterSpec("duration", .seconds(0.1...60), default: "2.0", "time for the highlight to cross from right to left"),
        ParameterSpec("line1Width", .number(0...100), default: "60", "first text line, percent of the text column (0 hides it)"),
        ParameterSpec("line2Width", .number(0...100), default: "40", "second text line, percent of the text column (0 hides it)"),
        ParameterSpec("cornerRadius", .number(0...2), default: "1", "corner radius of the text lines (design units; 2 makes pills)"),
        ParameterSpec("avatar", .bool, default: "true", "draw the circle avatar left of the lines"),
    ]

    public let blockColor: Color
    public let duration: Microseconds
    public let line1Width: Fixed
    public let line2Width: Fixed
    public let cornerRadius: Fixed
    public let avatar: Bool
    /// Built once; per frame only its ends move.
    let gradient: LinearGradient
    let monochromeGradient = LinearGradient(colors: [.clear, .black, .clear])

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        blockColor = parameters.color("blockColor")
        duration = Swift.max(1, parameters.seconds("duration"))
        line1Width = parameters.number("line1Width")
        line2Width = parameters.number("line2Width")
        cornerRadius = parameters.number("cornerRadius")
        avatar = parameters.bool("avatar")
        gradient = LinearGradient(colors: [.clear, parameters.color("highlight"), .clear])
    }

    public var designSize: DesignSize { DesignSize(width: 64, height: 16) }

    public var period: Microseconds { duration }

    /// Centre of the highlight at `elapsed`, as a fraction of the loader's width from its left
    /// edge: 1.5 at the start of each sweep, −0.5 at its end.
    public func highlightCenter(at elapsed: Microseconds) -> Fixed {
        let phase = Fixed.ratio(Swift.max(0, elapsed) % duration, duration)
        return Fixed(3, over: 2) - phase * 2
    }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        let width = layout.rect.width
        let center = layout.rect.x + width * highlightCenter(at: state.elapsed)
        var sweep = context.monochrome ? monochromeGradient : gradient
        sweep.startX = center - width / 2
        sweep.endX = center + width / 2
        // Monochrome: lit blocks with a dark band passing (a brighter band cannot show on LEDs
        // that are already fully lit), narrower so it reads as a band rather than a gap.
        if context.monochrome { sweep.startX = center - width / 8; sweep.endX = center + width / 8 }
        let shine = Paint.linearGradient(sweep)
        let blend: BlendMode = context.monochrome ? .normal : .screen
        let blockColor = context.monochrome ? Color.white : self.blockColor

        let textX = Fixed(avatar ? 18 : 2)
        let column = Fixed(62) - textX
        if avatar {
            let circle = Ellipse(center: layout.point(8, 8), radius: layout.length(6))
            context.canvas.fill(circle, with: .solid(blockColor))
            context.canvas.fill(circle, with: shine, blend: blend)
        }
        drawLine(&context.canvas, layout: layout, x: textX, y: 2, width: column * line1Width / 100, color: blockColor, shine: shine, blend: blend)
        drawLine(&context.canvas, layout: layout, x: textX, y: 10, width: column * line2Width / 100, color: blockColor, shine: shine, blend: blend)
    }

    private func drawLine(_ canvas: inout Canvas, layout: Layout, x: Fixed, y: Fixed, width: Fixed, color: Color, shine: Paint, blend: BlendMode) {
        guard width.raw > 0 else { return }
        let line = RoundedRectangle(layout.rect(x, y, width, 4), cornerRadius: layout.length(cornerRadius))
        canvas.fill(line, with: .solid(color))
        canvas.fill(line, with: shine, blend: blend)
    }
}
