import FixedPoint
import Raster

/// `worm` (LOADERS.md, seed 003 part 2): a 3x3 grid of dots with a head that travels through
/// them in a fixed order, leaving a fading, slightly swollen trail, then pauses.
///
/// Design size 3·dotSize + 2·spacing square (25 x 25 with the defaults: dots of diameter 5 with
/// gaps of 5). Serial numbers by rows: [3, 2, 1], [9, 8, 7], [4, 5, 6]. Where a dot would be
/// under 4 pixels across (an LED matrix: 1.6 px at 8x8) it is a block of whole pixels instead, on
/// a grid of whole pixels (8x8: 2x2 blocks with 1-pixel gaps): a round dot that small is
/// anti-aliased into the pixels it straddles, a grey smudge that never lights an LED fully.
///
/// With cycle = 9·dotDuration + pauseBetweenCycles and c = t mod cycle, the head is at
/// c / dotDuration while c < 9·dotDuration and absent during the pause. A dot at distance
/// d = head − (serial − 1) behind the head, 0 ≤ d ≤ trailLength, gets an overlay of opacity n^1.2
/// and scale 0.94 + 0.16·n, n = 1 − d / trailLength; other dots show their base only.
///
/// Colours: the article draws gray dots with a black head on a light background; for dark
/// displays and LED matrices the defaults are a dim base (white at 20 %, a dot that is clearly
/// "off" but still marks the grid) and a white head.
///
/// Monochrome (on/off LEDs): a dim base and a fading trail cannot be shown, so the grid is unlit
/// and every dot the trail covers is lit: the head and the ~3 dots behind it, a worm of whole dots.
public struct WormGrid: Loader {
    public static let name = "worm"
    public static let summary = "3x3 dot grid with a worm-like head and fading trail"
    public static let parameters: [ParameterSpec] = [
        ParameterSpec("dotSize", .integer(1...100), default: "5", "dot diameter (design units)"),
        ParameterSpec("spacing", .integer(0...100), default: "5", "gap between dots (design units)"),
        ParameterSpec("dotDuration", .seconds(0.01...10), default: "0.16", "time the head takes from one dot to the next"),
        ParameterSpec("trailLength", .number(0.1...9), default: "2.8", "length of the fading tail, in dots"),
        ParameterSpec("pauseBetweenCycles", .seconds(0...60), default: "0.4", "rest after the head passed the last dot"),
        ParameterSpec("tailExponent", .number(0.1...8), default: "1.2", "overlay opacity is n^tailExponent along the tail"),
        ParameterSpec("baseColor", .color, default: "white@0.2", "colour of the dots"),
        ParameterSpec("headColor", .color, default: "white", "colour of the head and its trail"),
    ]

    /// Serial number of each dot, row by row (the order the head visits them: 1 → 9).
    static let serials: [Int] = [3, 2, 1, 9, 8, 7, 4, 5, 6]

    public let dotSize: Int
    public let spacing: Int
    public let dotDuration: Microseconds
    public let trailLength: Fixed
    public let pause: Microseconds
    public let tailExponent: Fixed
    public internal(set) var baseColor: Color
    public internal(set) var headColor: Color

    /// The `screen.*` settings it was started with (applied to its scene).
    public let screen: ScreenSettings

    public init(_ parameters: Parameters) {
        screen = parameters.screen
        dotSize = parameters.integer("dotSize")
        spacing = parameters.integer("spacing")
        dotDuration = Swift.max(1, parameters.seconds("dotDuration"))
        trailLength = parameters.number("trailLength")
        pause = parameters.seconds("pauseBetweenCycles")
        tailExponent = parameters.number("tailExponent")
        baseColor = parameters.color("baseColor")
        headColor = parameters.color("headColor")
    }

    public var designSize: DesignSize {
        let side = 3 * dotSize + 2 * spacing
        return DesignSize(width: side, height: side)
    }

    /// 9 · dotDuration + pauseBetweenCycles (1.84 s with the defaults).
    public var period: Microseconds { 9 * dotDuration + pause }

    /// The head position at `elapsed` (0 at dot 1 up to 9 past dot 9), or nil during the pause.
    public func head(at elapsed: Microseconds) -> Fixed? {
        let c = Swift.max(0, elapsed) % period
        return c < 9 * dotDuration ? Fixed.ratio(c, dotDuration) : nil
    }

    /// The head's largest overlay scale (0.94 + 0.16 at the head itself).
    static let maximumScale = Fixed(110, over: 100)

    /// Overlay opacity and scale of the dot `serial` for head position `head`.
    public func overlay(serial: Int, head: Fixed?) -> (opacity: Fixed, scale: Fixed) {
        guard let head else { return (.zero, .one) }
        let d = head - Fixed(serial - 1)
        guard d >= .zero, d <= trailLength else { return (.zero, .one) }
        let n = (Fixed.one - d / trailLength).unitClamped
        return (Fixed.powUnit(n, tailExponent), Fixed(94, over: 100) + Fixed(16, over: 100) * n)
    }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        let head = head(at: state.elapsed)
        let monochrome = context.monochrome
        if let blocks = PixelBlockGrid(dotSize: dotSize, spacing: spacing, in: layout) {
            drawBlocks(blocks, &context.canvas, head: head, monochrome: monochrome)
            return
        }
        // The swollen head (scale up to 1.10) must stay inside the area: the grid is drawn
        // shrunk by the swelling, so the corner dots' heads are round, not cut flat by the edge.
        let side = Fixed(3 * dotSize + 2 * spacing)
        let r = Fixed(dotSize) / 2
        let pad = r * (WormGrid.maximumScale - .one)
        let k = side / (side + pad * 2)
        let pitch = Fixed(dotSize + spacing) * k
        let radius = layout.length(r * k)
        for row in 0..<3 {
            for column in 0..<3 {
                let center = layout.point(pad * k + r * k + pitch * column, pad * k + r * k + pitch * row)
                let (opacity, scale) = overlay(serial: WormGrid.serials[row * 3 + column], head: head)
                if monochrome {
                    if opacity.raw > 0 { context.canvas.fill(Ellipse(center: center, radius: radius * scale), with: .solid(.white)) }
                    continue
                }
                context.canvas.fill(Ellipse(center: center, radius: radius), with: .solid(baseColor))
                if opacity.raw > 0 {
                    context.canvas.fill(Ellipse(center: center, radius: radius * scale), with: .solid(headColor), opacity: opacity)
                }
            }
        }
    }

    private func drawBlocks(_ grid: PixelBlockGrid, _ canvas: inout Canvas, head: Fixed?, monochrome: Bool) {
        for row in 0..<3 {
            for column in 0..<3 {
                let block = grid.block(row: row, column: column)
                let opacity = overlay(serial: WormGrid.serials[row * 3 + column], head: head).opacity
                if monochrome {
                    if opacity.raw > 0 { canvas.fillPixels(block, with: .white) }
                    continue
                }
                canvas.fillPixels(block, with: baseColor)
                if opacity.raw > 0 { canvas.fillPixels(block, with: headColor, opacity: opacity) }
            }
        }
    }
}

/// The worm's 3x3 grid in whole pixels, for areas too small for round dots: blocks `side` pixels
/// square (the dot's size, rounded, at least 1) with gaps of at least one pixel, centred.
struct PixelBlockGrid {
    let origin: (x: Int, y: Int)
    let side: Int
    let pitch: Int

    /// Nil when a dot is 4 pixels across or more: there it is drawn round.
    init?(dotSize: Int, spacing: Int, in layout: Layout) {
        let dot = layout.length(Fixed(dotSize))
        guard dot < Fixed(4) else { return nil }
        let area = min(layout.rect.width.floor, layout.rect.height.floor)
        var side = Swift.max(1, dot.rounded)
        // The gaps keep their share of the design, and at least a pixel (3 blocks and 2 gaps fit).
        while side > 1 && 3 * side + 2 > area { side -= 1 }
        let gap = Swift.max(1, Swift.min((area - 3 * side) / 2, layout.length(Fixed(spacing)).rounded))
        guard 3 * side + 2 * gap <= area else { return nil }
        self.side = side
        pitch = side + gap
        let extent = 3 * side + 2 * gap
        origin = (layout.rect.x.rounded + (layout.rect.width.floor - extent) / 2,
                  layout.rect.y.rounded + (layout.rect.height.floor - extent) / 2)
    }

    func block(row: Int, column: Int) -> PixelRect {
        PixelRect(x: origin.x + pitch * column, y: origin.y + pitch * row, width: side, height: side)
    }
}
