import FixedPoint
import Raster

/// `pagedots`: the Apple TV page control with a timer (LOADERS.md, seed 001). A row of dots; the
/// current page is a pill whose white fill runs left to right. Pages already seen are brighter
/// than those to come. When the page changes, the old pill collapses to a dot and the new dot
/// expands to a pill on a spring, moving every dot in between.
///
/// Timer mode (no progress): each page lasts `pageDuration`, wrapping after the last. Determinate
/// mode: with N pages and displayed progress P (0...1) the current page is min(N − 1, ⌊P·N⌋) and
/// the pill shows the fraction of that page.
///
/// Derived from time: a page change starts a spring at the moment it happened (a multiple of
/// `pageDuration`, or the moment the linearly smoothed progress crossed k/N). Changes add up the
/// way SwiftUI's additive spring animations do: each one contributes its width change times
/// (spring(t − tₖ) − 1) on top of the settled layout, so a change that interrupts another does
/// not jump.
public struct PageDots: Loader {
    public static let name = "pagedots"
    public static let summary = "page dots with a timer pill: the active page fills, then the next expands on a spring"
    public static let parameters: [ParameterSpec] = [
        ParameterSpec("count", .integer(1...32), default: "3", "number of pages (dots)"),
        ParameterSpec("spacing", .integer(0...100), default: "6", "gap between dots, design units"),
        ParameterSpec("dotSize", .integer(1...100), default: "8", "dot diameter and pill height, design units"),
        ParameterSpec("pillWidth", .integer(1...200), default: "36", "width of the active page's pill, design units"),
        ParameterSpec("color", .color, default: "white", "colour of dots, pill track and pill fill"),
        ParameterSpec("seenOpacity", .number(0...1), default: "0.7", "opacity of pages already seen"),
        ParameterSpec("unseenOpacity", .number(0...1), default: "0.35", "opacity of pages still to come"),
        ParameterSpec("trackOpacity", .number(0...1), default: "0.35", "opacity of the pill's track"),
        ParameterSpec("pageDuration", .seconds(0.1...3600), default: "4.0", "time per page in timer mode"),
        ParameterSpec("springResponse", .seconds(0.01...10), default: "0.3", "response of the page-change spring"),
        ParameterSpec("springDamping", .number(0.1...4), default: "0.75", "damping fraction of the page-change spring"),
    ]

    /// At most this many recent page changes are combined (a change older than the spring's
    /// settling time contributes nothing anyway).
    static let maximumChanges = 32

    public let count: Int
    public let spacing: Int
    public let dotSize: Int
    public let pillWidth: Int
    public internal(set) var color: Color
    public let seenOpacity: Fixed
    public let unseenOpacity: Fixed
    public let trackOpacity: Fixed
    public let pageDuration: Microseconds
    public let spring: Spring
    /// After this long a change has settled: its contribution is left out.
    let settle: Microseconds

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        count = parameters.integer("count")
        spacing = parameters.integer("spacing")
        dotSize = parameters.integer("dotSize")
        pillWidth = parameters.integer("pillWidth")
        color = parameters.color("color")
        seenOpacity = parameters.number("seenOpacity")
        unseenOpacity = parameters.number("unseenOpacity")
        trackOpacity = parameters.number("trackOpacity")
        pageDuration = Swift.max(1, parameters.seconds("pageDuration"))
        spring = Spring(response: Time.seconds(parameters.seconds("springResponse")), dampingFraction: parameters.number("springDamping"))
        // Past `settlingDuration` the deviation is < 1/1000; twice that it is below Q16.16's step,
        // so leaving a change out then moves nothing even at framebuffer scales.
        let settling = spring.settlingDuration
        settle = settling > Microseconds.max / 2 ? Microseconds.max : 2 * settling
    }

    /// The row: N − 1 dots, one pill and N − 1 gaps wide, one dot high (64 x 8 for 3 pages).
    public var designSize: DesignSize {
        DesignSize(width: (count - 1) * (dotSize + spacing) + pillWidth, height: dotSize)
    }

    /// Timer mode goes round every page once.
    public var period: Microseconds { Int64(count) * pageDuration }

    // MARK: Pages

    /// Current page and the fraction of it shown in the pill, for displayed progress `p` (0...1).
    public func page(progress p: Fixed) -> (index: Int, fraction: Fixed) {
        let scaled = Int64(p.unitClamped.raw) * Int64(count)
        let index = Swift.min(count - 1, Int(scaled >> 16))
        return (index, Fixed(saturatingRaw: scaled - (Int64(index) << 16)).unitClamped)
    }

    /// Current page and fraction in timer mode.
    public func page(elapsed t: Microseconds) -> (index: Int, fraction: Fixed) {
        let t = Swift.max(0, t)
        let pages = t / pageDuration
        return (Int(pages % Int64(count)), Fixed.ratio(t % pageDuration, pageDuration))
    }

    /// The smallest raw progress value that shows page `index`: ⌈index / N⌉ in Q16.16.
    func threshold(_ index: Int) -> Int64 {
        (Int64(index) << 16 + Int64(count) - 1) / Int64(count)
    }

    /// Calls `body(from, to, at)` for each page change recent enough to still be springing.
    func forEachRecentChange(_ state: FrameState, _ body: (Int, Int, Microseconds) -> Void) {
        let t = state.elapsed
        if let progress = state.progress {
            // Determinate: only crossings inside the current smoothing segment are known.
            let now = page(progress: progress.value(at: t)).index
            let start = page(progress: progress.from).index
            if now == start { return }
            let from = Int64(progress.from.raw), to = Int64(progress.to.raw)
            let span = to - from
            if span == 0 { return }
            let step = now > start ? 1 : -1
            var p = start
            var n = 0
            while p != now && n < PageDots.maximumChanges {
                let next = p + step
                // Rising, the change to `next` happens at threshold(next); falling, the change
                // away from `p` happens just below threshold(p).
                let level = step > 0 ? threshold(next) : threshold(p)
                let at = progress.changedAt + (ProgressState.smoothing * (level - from)) / span
                if t - at < settle { body(p, next, at) }
                p = next
                n += 1
            }
        } else {
            // Timer: change m (from page m − 1 to page m, modulo N) happens at m · pageDuration.
            guard count > 1, t >= pageDuration else { return }
            var m = t / pageDuration
            var n = 0
            while m >= 1 && n < PageDots.maximumChanges {
                let at = m * pageDuration
                if t - at >= settle { break }
                body(Int((m - 1) % Int64(count)), Int(m % Int64(count)), at)
                m -= 1
                n += 1
            }
        }
    }

    /// How much slot `slot` is a pill (1) rather than a dot (0): 1 for the current page when
    /// settled, plus each recent change's (spring − 1) deviation. May overshoot a little.
    func pillness(_ slot: Int, current: Int, state: FrameState) -> Fixed {
        var a: Fixed = slot == current ? .one : .zero
        let t = state.elapsed
        forEachRecentChange(state) { from, to, at in
            if from == to { return }
            let deviation = spring.value(at: Swift.max(0, t - at)) - .one
            if slot == to { a += deviation } else if slot == from { a -= deviation }
        }
        return a
    }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        let (current, fraction) = state.displayedProgress.map { page(progress: $0) } ?? page(elapsed: state.elapsed)
        let dot = Fixed(dotSize), pill = Fixed(pillWidth), gap = Fixed(spacing)
        var x = Fixed.zero
        for slot in 0..<count {
            let width = dot + (pill - dot) * pillness(slot, current: current, state: state)
            let rect = layout.rect(x, .zero, Swift.max(.zero, width), dot)
            x += width + gap
            if context.monochrome {
                // On/off LEDs: pages seen are lit discs, the rest and the pill's track lit outlines.
                if slot < current {
                    context.canvas.fill(RoundedRectangle.capsule(rect), with: .solid(.white))
                } else {
                    Monochrome.outline(RoundedRectangle.capsule(rect), inner: RoundedRectangle.capsule(rect.insetBy(dx: .one, dy: .one)), into: &context.canvas)
                }
                if slot != current { continue }
            } else if slot != current {
                context.canvas.fill(RoundedRectangle.capsule(rect), with: .solid(color), opacity: slot < current ? seenOpacity : unseenOpacity)
                continue
            } else {
                context.canvas.fill(RoundedRectangle.capsule(rect), with: .solid(color), opacity: trackOpacity)
            }
            guard fraction.raw > 0 else { continue }
            let fillRect = FixedRect(x: rect.x, y: rect.y, width: pill * fraction * layout.scaleX, height: rect.height)
            let color = context.monochrome ? Color.white : self.color
            context.canvas.withClip(.roundedRect(rect, cornerRadius: Swift.min(rect.width, rect.height) / 2)) { canvas in
                canvas.fill(RoundedRectangle.capsule(fillRect), with: .solid(color))
            }
        }
    }
}
