import FixedPoint
import Raster

/// `quizup` (LOADERS.md, seed 002): circles of cycling colours, each growing from the centre over
/// the previous one, under a white lightning bolt of two triangles.
///
/// Design size 100 x 100. Time is cut into steps of `stepDuration`: in step k a circle of
/// `colors[k mod n]` grows from scale 0 to 1 about the centre, eased by `curve`, on top of the
/// full circle of step k − 1 (`colors[(k − 1) mod n]`); step 0 grows on an empty background. The
/// full circle is the container's size (diameter 100), centred, and everything is clipped to the
/// container, so a curve that overshoots (y > 1) cannot spill out.
///
/// Default palette: the reference blue, purple and pink (#007AFF, #AF52DE, #FF2D55): three
/// saturated hues of similar weight that stay distinct from each other on an LED matrix and all
/// keep a white bolt readable on top.
///
/// Exit: on stop the step in progress plays to its end (no fade), bolt included; then circles and
/// bolt go together (the scene then shows the outcome mark, if any). A stop exactly on a step
/// boundary ends at once: the previous step has just finished and the new one has not grown yet.
public struct QuizUpCircles: Loader {
    public static let name = "quizup"
    public static let summary = "circles in cycling colours growing one over the other, under a lightning bolt"
    public static let parameters: [ParameterSpec] = [
        ParameterSpec("colors", .colors, default: "blue,purple,pink", "circle colours, in order, cycling"),
        ParameterSpec("stepDuration", .seconds(0.05...60), default: "0.7", "time for one circle to grow to full size"),
        ParameterSpec("curve", .curve, default: "0,0,0.58,1", "timing curve of the growth (CSS ease-out)"),
        ParameterSpec("boltColor", .color, default: "white", "colour of the lightning bolt"),
        ParameterSpec("showBolt", .bool, default: "true", "draw the lightning bolt"),
    ]

    public let colors: [Color]
    public let stepDuration: Microseconds
    public let curve: CubicBezier
    public let boltColor: Color
    public let showBolt: Bool

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        colors = parameters.colors("colors")
        stepDuration = Swift.max(1, parameters.seconds("stepDuration"))
        let c = parameters.curve("curve")
        curve = CubicBezier(c.x1, c.y1, c.x2, c.y2)
        boltColor = parameters.color("boltColor")
        showBolt = parameters.bool("showBolt")
    }

    public var designSize: DesignSize { DesignSize(width: 100, height: 100) }

    /// One pass through the colours.
    public var period: Microseconds { stepDuration * Int64(colors.count) }

    public var fadesOnExit: Bool { false }

    /// The time left in the step in progress at `stoppedAt`.
    public func exitDuration(stoppedAt: Microseconds) -> Microseconds {
        let into = Swift.max(0, stoppedAt) % stepDuration
        return into == 0 ? 0 : stepDuration - into
    }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        let t = Swift.max(0, state.elapsed)
        // After the exit nothing is left (the scene stops calling draw then; this keeps the loader
        // right on its own too). During the exit the step in progress simply plays on.
        if let stop = state.stop, t >= stop.at + exitDuration(stoppedAt: stop.at) { return }

        let step = t / stepDuration
        let fraction = Fixed.ratio(t - step * stepDuration, stepDuration)
        let n = Int64(colors.count)
        let center = layout.point(50, 50)
        let full = Ellipse(center: center, radius: layout.length(50))
        let growing = full.scaled(by: curve(fraction), about: center)
        var front = colors[Int(step % n)]
        var back: Color? = step == 0 ? nil : colors[Int((step - 1) % n)]
        var bolt = boltColor
        if context.monochrome {
            // On/off LEDs cannot tell blue from purple: steps alternate lit and unlit circles, and
            // the bolt takes the opposite of the circle under it (the new one covers the bolt's box
            // from about 72 % of its growth on).
            front = step % 2 == 0 ? .white : .black
            back = step == 0 ? nil : (step % 2 == 0 ? .black : .white)
            let under = curve(fraction) >= Fixed(72, over: 100) ? front : (back ?? .black)
            bolt = under == .white ? .black : .white
        }

        context.canvas.withClip(.rect(layout.rect)) { canvas in
            if let back { canvas.fill(full, with: .solid(back)) }
            canvas.fill(growing, with: .solid(front))
        }
        if showBolt {
            // The bolt is a function of the layout only: its slanted edges are worked out once and
            // kept in the canvas (the key: "bolt", the layout's rectangle and scales).
            let key = ShapeMemoKey(kind: 0x626F_6C74, rect: layout.rect, layout.scaleX, layout.scaleY)
            context.canvas.fill(Bolt(layout: layout), with: .solid(bolt), memo: key)
        }
    }
}

/// The lightning bolt: two triangles in the box inset 30 left/right and 20 top/bottom (40 x 60).
/// With the box's w and h: left (w/2, 0), (w/2, 0.66h), (0, 0.66h); right (w/2, 0.33h),
/// (w, 0.33h), (w/2, h). The triangles are disjoint and share the segment x = w/2,
/// 0.33h ≤ y ≤ 0.66h, so the bolt's coverage is the sum of theirs: a pixel straddling the shared
/// edge comes out full instead of showing a seam (which drawing them one over the other would).
struct Bolt: Shape {
    let left: Triangle
    let right: Triangle
    let bounds: FixedRect

    init(layout: Layout) {
        // Box at design (30, 20), 40 x 60: w/2 = 20, 0.33h = 19.8, 0.66h = 39.6.
        let midX = Fixed(50), top = Fixed(20), bottom = Fixed(80)
        let upper = Fixed(20) + Fixed(198, over: 10), lower = Fixed(20) + Fixed(396, over: 10)
        left = Triangle(layout.point(midX, top), layout.point(midX, lower), layout.point(30, lower))
        right = Triangle(layout.point(midX, upper), layout.point(70, upper), layout.point(midX, bottom))
        let x0 = Swift.min(left.bounds.x, right.bounds.x), y0 = Swift.min(left.bounds.y, right.bounds.y)
        let x1 = Swift.max(left.bounds.maxX, right.bounds.maxX), y1 = Swift.max(left.bounds.maxY, right.bounds.maxY)
        bounds = FixedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    func coverage(x: Fixed, y: Fixed) -> UInt8 {
        UInt8(Swift.min(255, Int(left.coverage(x: x, y: y)) + Int(right.coverage(x: x, y: y))))
    }

    /// Both triangles' rows, worked out once per row: the same sum, per column.
    func row(y: Fixed) -> BoltRow { BoltRow(left: left.row(y: y), right: right.row(y: y)) }

    /// Zero outside both triangles' spans (their hull); 255 wherever either triangle is 255, the
    /// sum being clamped (the larger of their full runs, or both when they touch or overlap).
    func rowSpan(y: Fixed, columns: Range<Int>) -> RowSpan {
        let l = left.rowSpan(y: y, columns: columns), r = right.rowSpan(y: y, columns: columns)
        let lo = l.isEmpty ? r.lo : (r.isEmpty ? l.lo : Swift.min(l.lo, r.lo))
        let hi = l.isEmpty ? r.hi : (r.isEmpty ? l.hi : Swift.max(l.hi, r.hi))
        var inner = (l.innerLo, l.innerHi)
        if l.hasInner && r.hasInner && l.innerLo <= r.innerHi && r.innerLo <= l.innerHi {
            inner = (Swift.min(l.innerLo, r.innerLo), Swift.max(l.innerHi, r.innerHi))
        } else if r.innerHi - r.innerLo > l.innerHi - l.innerLo {
            inner = (r.innerLo, r.innerHi)
        }
        return RowSpan(columns: columns, lo: lo, hi: hi, innerLo: inner.0, innerHi: inner.1, innerCoverage: 255)
    }
}

/// A row of the bolt: the clamped sum of its triangles' coverages, as `Bolt.coverage`.
struct BoltRow: ShapeRow {
    let left: TriangleRow
    let right: TriangleRow
    func coverage(column: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: Swift.min(255, UInt32(left.coverage(column: column)) + UInt32(right.coverage(column: column))))
    }
}
