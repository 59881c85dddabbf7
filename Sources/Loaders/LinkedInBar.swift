import FixedPoint
import Raster

/// `linkedin`: LinkedIn's indeterminate bar (LOADERS.md, seed 000). A capsule track, and a fill
/// of half the width whose centre sweeps from the leading edge (x = 0) to the trailing edge
/// (x = W) over `duration` on a cubic-bezier curve, then back (auto-reverse). Everything is
/// clipped to the container, so the visible fill grows out of the left edge, slides, and squeezes
/// into the right edge.
public struct LinkedInBar: Loader {
    public static let name = "linkedin"
    public static let summary = "indeterminate bar: a half-width fill sweeping back and forth, squeezed by the container"
    public static let parameters: [ParameterSpec] = [
        ParameterSpec("cornerRadius", .number(0...50), default: "5", "corner radius in design units (the bar is 100 x 10)"),
        ParameterSpec("fill", .color, default: "blue", "colour of the moving fill"),
        ParameterSpec("track", .color, default: "gray@0.5", "colour of the track"),
        ParameterSpec("duration", .seconds(0.05...60), default: "0.85", "one sweep (half the period)"),
        ParameterSpec("curve", .curve, default: "0.6,0,0.4,1", "timing curve of a sweep (cubic-bezier x1,y1,x2,y2)"),
    ]

    public static let design = DesignSize(width: 100, height: 10)

    public let cornerRadius: Fixed
    public let fill: Color
    public let track: Color
    public let duration: Microseconds
    public let curve: CubicBezier

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        cornerRadius = parameters.number("cornerRadius")
        fill = parameters.color("fill")
        track = parameters.color("track")
        duration = parameters.seconds("duration")
        let c = parameters.curve("curve")
        curve = CubicBezier(c.x1, c.y1, c.x2, c.y2)
    }

    public var designSize: DesignSize { LinkedInBar.design }

    /// There and back.
    public var period: Microseconds { 2 * duration }

    /// Where the fill's centre is at `elapsed`, as a fraction of the width (0 = leading edge).
    /// The return sweep plays the curve backwards, as an auto-reversing animation does; it is
    /// computed from the time left to the end of the period, so a frame at t and one at
    /// period − t are identical.
    public func centreFraction(at elapsed: Microseconds) -> Fixed {
        let d = Swift.max(1, duration)
        var c = (elapsed % (2 * d))
        if c < 0 { c += 2 * d }
        let progress = c <= d ? Fixed.ratio(c, d) : Fixed.ratio(2 * d - c, d)
        return curve(progress)
    }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        let area = layout.rect
        let radius = layout.length(cornerRadius)
        // Monochrome: the track unlit and the fill lit (blue and half-gray are both below a
        // MAX7219's threshold, so the colours would light nothing).
        let fill = context.monochrome ? Color.white : self.fill
        if !context.monochrome { context.canvas.fill(RoundedRectangle(area, cornerRadius: radius), with: .solid(track)) }
        let centre = area.x + area.width * centreFraction(at: state.elapsed)
        let half = area.width / 2
        let fillRect = FixedRect(x: centre - half / 2, y: area.y, width: half, height: area.height)
        context.canvas.withClip(.roundedRect(area, cornerRadius: radius)) { canvas in
            canvas.fill(RoundedRectangle(fillRect, cornerRadius: radius), with: .solid(fill))
        }
    }
}
