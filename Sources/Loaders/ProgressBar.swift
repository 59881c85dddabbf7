import FixedPoint
import Raster

/// `bar`: the determinate progress pill of `pagedots` on its own — a capsule track and a
/// leading-aligned capsule fill of width W × progress (smoothed over 0.05 s by `ProgressState`).
/// The boot-progress workhorse. Without a progress it shows an empty track. `direction=right`
/// fills from the right edge instead (psplash shows a negative `PROGRESS` that way).
public struct ProgressBar: Loader {
    public static let name = "bar"
    public static let summary = "determinate progress pill: a capsule track filled left to right"
    public static let parameters: [ParameterSpec] = [
        ParameterSpec("fill", .color, default: "white", "colour of the filled part"),
        ParameterSpec("track", .color, default: "white@0.35", "colour of the track"),
        ParameterSpec("width", .integer(1...1000), default: "36", "design width (the pagedots pill is 36)"),
        ParameterSpec("height", .integer(1...1000), default: "8", "design height (the pagedots pill is 8)"),
        ParameterSpec("direction", .choice(["left", "right"]), default: "left", "edge the fill starts from (right: psplash's negative progress)"),
    ]

    public internal(set) var fill: Color
    public internal(set) var track: Color
    public let designSize: DesignSize
    /// The fill grows from the right edge.
    public let fillsFromRight: Bool

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        fill = parameters.color("fill")
        track = parameters.color("track")
        designSize = DesignSize(width: parameters.integer("width"), height: parameters.integer("height"))
        fillsFromRight = parameters.choice("direction") == "right"
    }

    public var period: Microseconds { Time.perSecond }

    /// Nothing moves but the progress fill.
    public var isStill: Bool { true }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        let area = layout.rect
        let fill = context.monochrome ? Color.white : self.fill
        if context.monochrome {
            // On/off LEDs: the track as a lit outline, so an empty bar still shows where it is.
            Monochrome.outline(RoundedRectangle.capsule(area), inner: RoundedRectangle.capsule(area.insetBy(dx: .one, dy: .one)), into: &context.canvas)
        } else {
            context.canvas.fill(RoundedRectangle.capsule(area), with: .solid(track))
        }
        guard let progress = state.displayedProgress, progress.raw > 0 else { return }
        // The fill is a capsule of its own width, clipped to the track: at small widths it shows as
        // the rounded start of the bar rather than a squashed dot.
        let width = area.width * progress
        let fillRect = FixedRect(x: fillsFromRight ? area.x + area.width - width : area.x, y: area.y, width: width, height: area.height)
        context.canvas.withClip(.roundedRect(area, cornerRadius: area.height / 2)) { canvas in
            canvas.fill(RoundedRectangle.capsule(fillRect), with: .solid(fill))
        }
    }
}
