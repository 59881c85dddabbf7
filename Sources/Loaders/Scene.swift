import FixedPoint
import ImageCodecs
import Raster
import CompactText

/// Options of the scene around a loader: what `loaderd` and `loaderctl render` set per display.
public struct SceneOptions: Sendable {
    /// Empty pixels kept around everything on every side; nil: automatic (5 % of the shorter side
    /// on a screen, none on an LED matrix).
    public var margin: Int? = nil
    /// How the message line is drawn: `plain` or a shimmer preset (`grok`, `chatgpt`, `calm`).
    public var messageStyle: MessageStyle = .plain
    /// Colour of a plain message.
    public var messageColor: Color = .gray
    /// How long a success mark stays after the exit animation; a failure's stays twice as long
    /// (`hold(for:)`), with the message that says what failed.
    public var outcomeHold: Microseconds = 1_500_000

    /// The time `outcome`'s mark is shown: a failure is read, not glanced at.
    public func hold(for outcome: Outcome) -> Microseconds { outcome == .failure ? 2 * outcomeHold : outcomeHold }
    public var successColor: Color = .green
    public var failureColor: Color = .red
    /// The display lights a pixel fully or not at all: loaders draw their lit/unlit design.
    public var monochrome = false
    /// Colour under everything (clear: the display's own background).
    public var background: Color = .clear
    /// A PNG shown centred above the loader on screens (scaled down to fit 60 % x 35 % of it).
    public var logoPath: String? = nil
    /// The loader's size on a screen, in percent of the automatic size.
    public var loaderSize: Int = 100
    /// The font of a screen's text. `.bitmap` here (tests, goldens: no system font involved);
    /// loaderd and loaderctl start from `.automatic`.
    public var font: ScreenFont = .bitmap
    public init() {}

    /// These options with the `screen.*` settings a loader was started with applied on top.
    public func applying(_ settings: ScreenSettings) -> SceneOptions {
        var o = self
        if let v = settings.margin { o.margin = v }
        if let v = settings.monochrome { o.monochrome = v }
        if let v = settings.background { o.background = v }
        if let v = settings.logo { o.logoPath = v.isEmpty ? nil : v }
        if let v = settings.loaderSize { o.loaderSize = v }
        if let v = settings.messageColor { o.messageColor = v }
        if let v = settings.font { o.font = ScreenFont(setting: v) }
        return o
    }
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
    /// The logo, decoded and scaled once when the scene is made (nil: none, or it failed to load).
    public let logo: Logo?
    /// Why the logo did not load, naming the file and the reason, for the caller to log.
    public let logoError: String?
    /// Whether the anti-aliased face was asked for, given (`useFace`), or cannot be had.
    public private(set) var faceState = FaceState.notTried
    /// A frame wanted text before the face was tried, and drew none (see `faceRequest`).
    var textDeferred = false
    /// What `placement` worked out last, and from what.
    var lastPlacement: (design: DesignSize, lineHeight: Int, areas: BootScreenLayout, layout: Layout)? = nil
    /// A long message's lines, for the message and width they were made for (MessageWrap.swift).
    var wrapped: (message: String, width: Int, lines: [String])? = nil

    public enum FaceState: Sendable, Equatable { case notTried, loaded, unavailable }

    /// The fade-out used by loaders without an exit of their own (LOADERS.md: ≤ 0.3 s).
    public static let fadeDuration: Microseconds = 250_000
    /// The outcome mark grows in over this, and fades out over `markFadeOut` at the end of its hold.
    public static let markFadeIn: Microseconds = 200_000
    public static let markFadeOut: Microseconds = 250_000
    /// Areas up to this tall are LED strips, which a bar fills top to bottom.
    public static let stripHeight = 16

    public init(loader: AnyLoader, width: Int, height: Int, options: SceneOptions = SceneOptions()) {
        var options = options.applying(loader.screen)
        // A light screen: the catalog's white parts and the gray message drawn dark (LightBackground.swift).
        let light = !options.monochrome && options.background.isLight
        self.loader = light ? loader.onLightBackground() : loader
        if light && options.messageColor == .gray { options.messageColor = .messageGrayOnLight }
        self.options = options
        self.context = DrawContext(width: width, height: height)
        context.monochrome = options.monochrome
        var logo: Logo? = nil, logoError: String? = nil
        if let path = options.logoPath, BootScreenLayout.isScreen(width: width, height: height) {
            do { logo = try Logo.load(path: path, maxWidth: width * 60 / 100, maxHeight: height * 35 / 100) } catch {
                logoError = filled("screen.logo not shown: {}; the screen draws without it", error.description)
            }
        }
        self.logo = logo
        self.logoError = logoError
    }

    public var canvas: Canvas { context.canvas }

    /// Whether this scene's text would be drawn in a face: a screen, and a font other than the
    /// bitmap one chosen.
    public var drawsFaceText: Bool {
        options.font != .bitmap && BootScreenLayout.isScreen(width: context.canvas.width, height: context.canvas.height)
    }

    /// The face to load and hand to `useFace`, once a frame has wanted text: loading it is left to
    /// the caller and to after that frame (loaderd: after the frame is on the display; start-up
    /// never waits for a font). Until then a screen's text is not drawn: one frame without the
    /// message, rather than one in the bitmap font and the next in the face.
    public var faceRequest: (font: ScreenFont, pixelSize: Int)? {
        guard textDeferred, faceState == .notTried, drawsFaceText else { return nil }
        return (options.font, TextFace.pixelSize(canvasWidth: context.canvas.width, height: context.canvas.height))
    }

    /// Gives the scene its face (nil: none could be had, the bitmap fonts stay).
    public mutating func useFace(_ face: GlyphAtlas?) {
        context.face = drawsFaceText ? face : nil
        faceState = context.face == nil ? .unavailable : .loaded
    }

    /// Loads the face for this scene's text now, whether or not a frame asked for it (loaderctl,
    /// tests; loaderd shares one per size, see `faceRequest`); what went wrong, if anything.
    public mutating func loadFace() -> TextFaceError? {
        guard drawsFaceText, faceState == .notTried else { return nil }
        do throws(TextFaceError) {
            useFace(try TextFace.load(options.font, pixelSize: TextFace.pixelSize(canvasWidth: context.canvas.width, height: context.canvas.height)))
            return nil
        } catch {
            useFace(nil)
            return error
        }
    }

    public func phase(_ state: FrameState) -> ScenePhase {
        guard let stop = state.stop else { return .running }
        let exitEnd = stop.at + loader.exitDuration(stoppedAt: stop.at)
        if state.elapsed < exitEnd { return .exiting }
        if let outcome = stop.outcome, state.elapsed < exitEnd + options.hold(for: outcome) { return .showingOutcome(outcome) }
        return .finished
    }

    /// Where everything goes for a frame with `message` (see `BootScreenLayout`).
    public func layout(message: String?, state: FrameState? = nil) -> BootScreenLayout {
        layout(design: state.map { loader.designSize(for: $0) } ?? loader.designSize, lineHeight: lineHeight(message: message))
    }

    func layout(design: DesignSize, lineHeight: Int) -> BootScreenLayout {
        BootScreenLayout.compute(width: context.canvas.width, height: context.canvas.height, options: options, design: design, kind: loader.kind,
                                 drawsMessage: loader.drawsMessage, messageHeight: lineHeight,
                                 logoSize: logo.map { (width: $0.width, height: $0.height) })
    }

    /// The height the message line takes, 0 when there is none to place.
    func lineHeight(message: String?) -> Int {
        let hasMessage = message.map { !$0.isEmpty } ?? false
        // The bitmap font only when there is a line to place: touching `BitmapFont.large` parses its
        // glyph art (~0.3 M instructions), which a first frame without a message need not wait for.
        guard hasMessage || loader.drawsMessage else { return 0 }
        if let face = context.face { return face.boxHeight }
        let line = MessageLine.font(forCanvasWidth: context.canvas.width, height: context.canvas.height)
        return line.font.height(scale: line.scale)
    }

    /// The areas and the loader's layout for a frame: the last frame's, unless the design size or
    /// the message line's height changed (the rest they depend on is the scene's for its life), so
    /// that a frame does not work out the same rectangles again (~800 instructions, a sixth of
    /// an 8x8 LED frame).
    mutating func placement(design: DesignSize, lineHeight: Int) -> (areas: BootScreenLayout, layout: Layout) {
        if let last = lastPlacement, last.design == design, last.lineHeight == lineHeight { return (last.areas, last.layout) }
        let areas = layout(design: design, lineHeight: lineHeight)
        // Bars take a strip's whole height (an LED strip up to 16 rows) and a screen's bar box.
        let screen = BootScreenLayout.isScreen(width: context.canvas.width, height: context.canvas.height)
        let stretch = loader.stretches && (screen || areas.loader.height <= Scene.stripHeight)
        let layout = stretch ? Layout.stretch(design: design, into: areas.loader) : Layout.fit(design: design, into: areas.loader)
        lastPlacement = (design, lineHeight, areas, layout)
        return (areas, layout)
    }

    /// The area left for the loader and the message line's area, if the message fits.
    public func areas(message: String?) -> (loader: PixelRect, message: PixelRect?) {
        let l = layout(message: message)
        return (l.loader, l.message)
    }

    /// Draws the frame for `state` into `canvas` (transparent where nothing is drawn, unless a
    /// background is set); whether the scene now wants its face (`faceRequest` is not nil).
    /// Answered here, where the scene is at hand in place: loaderd keeps its scenes in a class,
    /// and a computed property read through one copies the whole scene (21 references counted
    /// up and down) every frame.
    @discardableResult
    public mutating func render(_ state: FrameState) -> Bool {
        renderFrame(state)
        return faceRequest != nil
    }

    /// Hands the canvas to `body` without copying it (see `render`): loaderd's displays take
    /// each frame this way.
    public mutating func withCanvas<E: Error>(_ body: (Canvas) throws(E) -> Void) throws(E) {
        try body(context.canvas)
    }

    private mutating func renderFrame(_ state: FrameState) {
        context.canvas.clear(to: options.background)
        let phase = phase(state)
        if phase == .finished { return }
        let design = loader.designSize(for: state)
        var placed = placement(design: design, lineHeight: lineHeight(message: state.message))
        // A long message on a screen takes more lines where the screen has room for them.
        var lines: [String]? = nil
        if let area = placed.areas.message, let face = context.face, let wrapped = messageLines(state.message, width: area.width) {
            let taller = placement(design: design, lineHeight: wrapped.count * face.boxHeight)
            if taller.areas.message != nil { placed = taller; lines = wrapped }
        }
        let areas = placed.areas
        var layout = placed.layout
        // Text waits for the face (see `faceRequest`); a face's shimmer centres itself in its box.
        let waitsForFace = drawsFaceText && faceState == .notTried
        let messageWaits = waitsForFace && areas.message != nil && state.message.map({ !$0.isEmpty }) == true
        if context.face != nil && loader.drawsMessage {
            let a = areas.loader
            layout = Layout(rect: FixedRect(x: Fixed(a.x), y: Fixed(a.y), width: Fixed(a.width), height: Fixed(a.height)), scaleX: .one, scaleY: .one)
        }
        // An LED strip too short for the message under the loader: the two take turns.
        if phase == .running, areas.message == nil, !loader.drawsMessage, let message = state.message, !message.isEmpty,
           !BootScreenLayout.isScreen(width: context.canvas.width, height: context.canvas.height),
           let font = StripMessage.font(height: areas.loader.height),
           let time = StripMessage.messageTime(at: state.elapsed, message: message, font: font, width: areas.loader.width) {
            MessageLine.draw(message, style: options.messageStyle, color: options.messageColor, into: &context, area: areas.loader,
                             elapsed: time, font: font, scale: 1)
            return
        }
        switch phase {
        case .running, .exiting:
            if waitsForFace && loader.drawsMessage {
                textDeferred = true
            } else {
                loader.draw(&context, in: layout, state: state)
            }
            // A failure keeps its message whole through the exit and under the mark: it says what
            // failed. Otherwise the message fades with the loader: left whole, it would vanish in
            // one frame when the mark comes.
            let keepsMessage = phase == .exiting && state.stop?.outcome == .failure
            if messageWaits {
                textDeferred = true
            } else if !keepsMessage {
                drawMessage(state, in: areas.message, lines: lines)
            }
            if phase == .exiting, loader.fadesOnExit, let stop = state.stop {
                let duration = loader.exitDuration(stoppedAt: stop.at)
                let remaining = Fixed.one - Fixed.ratio(state.elapsed - stop.at, Swift.max(1, duration))
                fade(by: remaining.unitClamped)
            }
            if keepsMessage && !messageWaits { drawFailureMessage(state, in: areas.message, lines: lines, opacity: 255) }
        case .showingOutcome(let outcome):
            let start = state.stop.map { $0.at + loader.exitDuration(stoppedAt: $0.at) } ?? state.elapsed
            let shown = state.elapsed - start, left = start + options.hold(for: outcome) - state.elapsed
            // In: grows from 60 % and fades in; out: fades. A pop in one frame reads as a glitch.
            let grow = Fixed.ratio(Swift.min(shown, Scene.markFadeIn), Scene.markFadeIn)
            let eased = Fixed.one - (Fixed.one - grow) * (Fixed.one - grow)
            let scale = Fixed(6, over: 10) + Fixed(4, over: 10) * eased
            let opacity = Swift.min(grow, Fixed.ratio(Swift.max(0, left), Scene.markFadeOut)).unitClamped
            OutcomeMark.draw(outcome, into: &context.canvas, area: areas.mark, scale: scale, options: options)
            fade(by: opacity)
            if outcome == .failure {
                let out = Fixed.ratio(Swift.max(0, left), Scene.markFadeOut).unitClamped.unitByte
                if messageWaits { textDeferred = true } else { drawFailureMessage(state, in: areas.message, lines: lines, opacity: out) }
            }
        case .finished:
            return
        }
        if let logo, let rect = areas.logo {
            logo.draw(into: &context.canvas, x: rect.x, y: rect.y, opacity: 255)
        }
    }

    /// The message in its area, when there is both: on `lines` when it was wrapped.
    mutating func drawMessage(_ state: FrameState, in area: PixelRect?, lines: [String]?) {
        guard let area, let message = state.message else { return }
        if let lines { drawLines(lines, color: options.messageColor, in: area); return }
        MessageLine.draw(message, style: options.messageStyle, color: options.messageColor, into: &context, area: area, elapsed: state.elapsed)
    }

    /// After a failure the message says what failed: plain (a shimmer says "working", which is
    /// over), at `opacity` (it fades out with the mark).
    mutating func drawFailureMessage(_ state: FrameState, in area: PixelRect?, lines: [String]?, opacity: UInt8) {
        guard let area, let message = state.message else { return }
        var color = options.messageColor
        color.a = UInt8(Int(color.a) * Int(opacity) / 255)
        if let lines { drawLines(lines, color: color, in: area); return }
        MessageLine.draw(message, style: .plain, color: color, into: &context, area: area, elapsed: state.elapsed)
    }

    /// Draws `lines` one under the other in `area`, each centred, in `color`.
    mutating func drawLines(_ lines: [String], color: Color, in area: PixelRect) {
        guard let face = context.face else { return }
        let fill = context.monochrome ? Color.white : color
        for (i, line) in lines.enumerated() {
            let rect = PixelRect(x: area.x, y: area.y + i * face.boxHeight, width: area.width, height: face.boxHeight)
            guard ShimmerText.layOut(line, atlas: face, in: rect, mask: &context.mask) != nil else { continue }
            context.canvas.fill(context.mask, with: .solid(fill))
        }
    }

    /// Fades what was drawn this frame by `opacity` as one group, over the scene's background.
    mutating func fade(by opacity: Fixed) {
        context.canvas.fade(by: opacity.unitByte, toward: options.background.premultiplied)
    }
}

/// The success and failure marks: a filled circle with a check mark or a cross, drawn with the
/// same anti-aliased primitives as the loaders.
public enum OutcomeMark {
    /// Draws the mark for `outcome` centred in `area` at `scale` (1: fills the area's square).
    /// Monochrome: a lit disc with unlit strokes (a green disc and a white check have nearly the
    /// same luma, so a threshold would merge them).
    public static func draw(_ outcome: Outcome, into canvas: inout Canvas, area: PixelRect, scale: Fixed = .one, options: SceneOptions) {
        let full = Layout.fit(design: DesignSize(width: 20, height: 20), into: area)
        let s = full.lengthScale * scale
        let c = full.point(10, 10)
        func p(_ x: Int, _ y: Int) -> Point {  // design half-units about the centre (20, 20)
            Point(x: c.x + Fixed(x - 20, over: 2) * s, y: c.y + Fixed(y - 20, over: 2) * s)
        }
        let disc = options.monochrome ? Color.white : (outcome == .success ? options.successColor : options.failureColor)
        let ink = options.monochrome ? Color.black : Color.white
        canvas.fill(Ellipse(center: c, radius: Fixed(10) * s), with: .solid(disc))
        let stroke = Swift.max(Fixed.one, Fixed(2) * s)
        switch outcome {
        case .success:
            canvas.fill(LineSegment(from: p(11, 21), to: p(17, 27), width: stroke), with: .solid(ink))
            canvas.fill(LineSegment(from: p(17, 27), to: p(29, 13), width: stroke), with: .solid(ink))
        case .failure:
            canvas.fill(LineSegment(from: p(13, 13), to: p(27, 27), width: stroke), with: .solid(ink))
            canvas.fill(LineSegment(from: p(27, 13), to: p(13, 27), width: stroke), with: .solid(ink))
        }
    }
}
