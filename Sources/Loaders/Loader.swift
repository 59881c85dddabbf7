import FixedPoint
import Raster

/// Scratch space a loader may draw with, made once per scene so frames allocate nothing.
public struct DrawContext: Sendable {
    public var canvas: Canvas
    /// A canvas-sized coverage mask (for text shimmer and other masked fills).
    public var mask: Mask
    /// The display lights each pixel fully or not at all (a MAX7219 matrix): loaders then draw
    /// their monochrome design, lit (white) and unlit (black) parts chosen so that every loader
    /// reads at the default threshold instead of leaving its mid-luma colours to chance.
    public var monochrome = false
    /// The anti-aliased face a screen's text is drawn with, once loaded (nil: the bitmap fonts).
    public var face: GlyphAtlas?

    public init(width: Int, height: Int) {
        canvas = Canvas(width: width, height: height)
        mask = Mask(width: width, height: height)
    }
}

/// One loading indicator from the catalog (LOADERS.md). A loader is its validated parameters and
/// nothing else: `draw` is a pure function of the frame state, so a late or skipped frame changes
/// nothing after it.
public protocol Loader: Sendable {
    /// The name used by `start NAME`, `loaderctl render NAME`, and the config.
    static var name: String { get }
    /// One line for `loaderctl list`.
    static var summary: String { get }
    /// Every parameter with its default (the numbers of LOADERS.md).
    static var parameters: [ParameterSpec] { get }
    /// Named parameter sets (`preset=NAME`); most loaders have none.
    static var presets: [Preset] { get }

    /// Builds the loader from validated parameters (see `Catalog.make`).
    init(_ parameters: Parameters)

    /// The size the seed article drew it at, in design units: the layout keeps these proportions.
    var designSize: DesignSize { get }

    /// One full cycle of the animation (for looping GIFs and tests).
    var period: Microseconds { get }

    /// Whether the scene fades the loader out after `stop` (true), or the loader draws its own exit
    /// (e.g. quizup finishes the step in progress) for `exitDuration`.
    var fadesOnExit: Bool { get }

    /// Whether the picture changes with time only through the progress animation and the exit
    /// (e.g. `bar`): the daemon then draws only when something changes, and sleeps in between.
    var isStill: Bool { get }

    /// How long the exit lasts when stop arrives at `stoppedAt` (≤ 0.3 s for a fade).
    func exitDuration(stoppedAt: Microseconds) -> Microseconds

    /// Whether the loader shows the daemon's message itself (the shimmer's text is the message):
    /// the scene then gives it the whole area and draws no message line of its own.
    var drawsMessage: Bool { get }

    /// The design size for the frame `state` (default `designSize`): a loader whose content
    /// depends on the state, such as the shimmer drawing the message, keeps the proportions of
    /// what it draws now.
    func designSize(for state: FrameState) -> DesignSize

    /// Draws the frame for `state` into `context.canvas` inside `layout`.
    func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState)
}

extension Loader {
    public static var presets: [Preset] { [] }
    public var fadesOnExit: Bool { true }
    public var isStill: Bool { false }
    public func exitDuration(stoppedAt: Microseconds) -> Microseconds { Scene.fadeDuration }
    public var drawsMessage: Bool { false }
    public func designSize(for state: FrameState) -> DesignSize { designSize }
}
