import FixedPoint
import Raster

/// Options of the scene around a loader: what `loaderd` and `loaderctl render` set per display.
public struct SceneOptions: Sendable {
    /// Empty pixels kept around the loader on every side.
    public var margin: Int = 0
    /// How the message line is drawn: `plain` or a shimmer preset (`grok`, `chatgpt`, `calm`).
    public var messageStyle: MessageStyle = .plain
    /// Colour of a plain message.
    public var messageColor: Color = .gray
    /// How long a success or failure mark stays after the exit animation.
    public var outcomeHold: Microseconds = 1_500_000
    public var successColor: Color = .green
    public var failureColor: Color = .red
    public init() {}
}

/// What a scene is showing at a given time.
public enum ScenePhase: Sendable, Equatable {
    /// The loader animates.
    case running
    /// Stop arrived; the loader plays its exit.
    case exiting
    /// The exit is over; the success or failure mark shows.
    case showingOutcome(Outcome)
    /// Nothing left to show: the canvas is clear and stays clear.
    case finished
}

/// A loader placed on a canvas with its message line, its exit and its outcome mark: the whole
/// picture one display shows. Made when a loader starts on a display; `render` allocates nothing.
public struct Scene: Sendable {
    public let loader: AnyLoader
    public let options: SceneOptions
    public private(set) var context: DrawContext

    /// The fade-out used by loaders without an exit of their own (LOADERS.md: ≤ 0.3 s).
    public static let fadeDuration: Microseconds = 250_000

    public init(loader: AnyLoader, width: Int, height: Int, options: SceneOptions = SceneOptions()) {
        self.loader = loader
        self.options = options
        self.context = DrawContext(width: width, height: height)
    }

    public var canvas: Canvas { context.canvas }

    public func phase(_ state: FrameState) -> ScenePhase {
        guard let stop = state.stop else { return .running }
        let exitEnd = stop.at + loader.exitDuration(stoppedAt: stop.at)
        if state.elapsed < exitEnd { return .exiting }
        if let outcome = stop.outcome, state.elapsed < exitEnd + options.outcomeHold { return .showingOutcome(outcome) }
        return .finished
    }

    /// The area left for the loader and the message line's area, if the message fits.
    public func areas(message: String?) -> (loader: PixelRect, message: PixelRect?) {
        let w = context.canvas.width, h = context.canvas.height
        let inner = PixelRect(x: options.margin, y: options.margin,
                              width: Swift.max(1, w - 2 * options.margin), height: Swift.max(1, h - 2 * options.margin))
        guard let message, !message.isEmpty, !loader.drawsMessage else { return (inner, nil) }
        let line = MessageLine.height(forCanvasHeight: h)
        let gap = Swift.max(1, line / 4)
        // The loader keeps at least a third of the height (and 4 pixels), or the message is left out.
        let loaderHeight = inner.height - line - gap
        guard loaderHeight >= Swift.max(4, inner.height / 3) else { return (inner, nil) }
        return (PixelRect(x: inner.x, y: inner.y, width: inner.width, height: loaderHeight),
                PixelRect(x: inner.x, y: inner.y + loaderHeight + gap, width: inner.width, height: line))
    }

    /// Draws the frame for `state` into `canvas` (transparent where nothing is drawn).
    public mutating func render(_ state: FrameState) {
        context.canvas.clear()
        let phase = phase(state)
        let (loaderArea, messageArea) = areas(message: state.message)
        let layout = Layout.fit(design: loader.designSize(for: state), into: loaderArea)
        switch phase {
        case .running, .exiting:
            loader.draw(&context, in: layout, state: state)
            if phase == .exiting, loader.fadesOnExit, let stop = state.stop {
                let duration = loader.exitDuration(stoppedAt: stop.at)
                let remaining = Fixed.one - Fixed.ratio(state.elapsed - stop.at, Swift.max(1, duration))
                fade(by: remaining.unitClamped)
            }
        case .showingOutcome(let outcome):
            OutcomeMark.draw(outcome, into: &context.canvas, area: loaderArea, options: options)
        case .finished:
            return
        }
        if let messageArea, let message = state.message, phase == .running || phase == .exiting {
            MessageLine.draw(message, style: options.messageStyle, color: options.messageColor,
                             into: &context, area: messageArea, elapsed: state.elapsed)
        }
    }

    /// Multiplies every pixel by `opacity`: premultiplied pixels make this exactly a group fade.
    mutating func fade(by opacity: Fixed) {
        let a = opacity.unitByte
        if a == 255 { return }
        context.canvas.pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = buffer[i].scaled(by: a) }
        }
    }
}

/// The success and failure marks: a filled circle with a check mark or a cross, drawn with the
/// same anti-aliased primitives as the loaders.
public enum OutcomeMark {
    public static func draw(_ outcome: Outcome, into canvas: inout Canvas, area: PixelRect, options: SceneOptions) {
        let layout = Layout.fit(design: DesignSize(width: 20, height: 20), into: area)
        let center = layout.point(10, 10)
        let color = outcome == .success ? options.successColor : options.failureColor
        canvas.fill(Ellipse(center: center, radius: layout.length(10)), with: .solid(color))
        let stroke = Swift.max(Fixed.one, layout.length(2))
        switch outcome {
        case .success:
            canvas.fill(LineSegment(from: layout.point(Fixed(11, over: 2), Fixed(21, over: 2)), to: layout.point(Fixed(17, over: 2), Fixed(27, over: 2)), width: stroke), with: .solid(.white))
            canvas.fill(LineSegment(from: layout.point(Fixed(17, over: 2), Fixed(27, over: 2)), to: layout.point(Fixed(29, over: 2), Fixed(13, over: 2)), width: stroke), with: .solid(.white))
        case .failure:
            canvas.fill(LineSegment(from: layout.point(Fixed(13, over: 2), Fixed(13, over: 2)), to: layout.point(Fixed(27, over: 2), Fixed(27, over: 2)), width: stroke), with: .solid(.white))
            canvas.fill(LineSegment(from: layout.point(Fixed(27, over: 2), Fixed(13, over: 2)), to: layout.point(Fixed(13, over: 2), Fixed(27, over: 2)), width: stroke), with: .solid(.white))
        }
    }
}
