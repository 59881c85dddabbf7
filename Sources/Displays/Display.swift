import Raster
import CompactText
// The framebuffer encoders (pixel formats, placement, the frame writer, the changed rectangle) are a
// module of their own so that ARMv6 can compile them in ARM and the displays' set-up in Thumb-1
// (scripts/cross-build); a user of the displays sees them here as before.
@_exported import ScreenEncoding

/// Something that shows frames: a framebuffer, an LED matrix, an image file, a terminal.
///
/// A display is opened once (all format, rotation and scale decisions are made then) and owns
/// its resources until `close()` (or deinit). Per frame the daemon renders the scene into a canvas
/// of `canvasWidth × canvasHeight` and calls `show`, which maps, encodes and writes only what
/// changed. Errors are environment errors (a device unplugged, a full disk): the daemon reports
/// them and keeps running; they never trap.
public protocol Display: AnyObject {
    /// A short human name, e.g. `fb:/dev/fb0` or `image:/run/loaderd/frame.png`.
    var name: String { get }
    /// The size of the low-resolution canvas this display wants frames in.
    var canvasWidth: Int { get }
    var canvasHeight: Int { get }
    /// Frames per second while animating (each display may differ).
    var framesPerSecond: Int { get }

    /// Shows `canvas` (exactly `canvasWidth × canvasHeight`), writing only what changed since the
    /// previous frame.
    func show(_ canvas: Canvas) throws(DisplayError)

    /// Blanks the display (background colour, or off for LEDs).
    func clear() throws(DisplayError)

    /// Releases the device, restoring whatever was changed at open (e.g. the console mode).
    /// Safe to call twice.
    func close()

    /// Releases the device at exit; `retainingFrame` (Plymouth's `quit --retain-splash`) asks to
    /// leave the last frame on screen for whoever takes it next. By default the same as `close()`.
    func close(retainingFrame: Bool)
    /// Whether each pixel is only on or off (a MAX7219 matrix): the scene then draws loaders'
    /// monochrome designs. False unless a display says otherwise.
    var isMonochrome: Bool { get }

    /// The kernel reported that outputs were plugged, unplugged or changed (a DRM hotplug
    /// event): look at them again. What the daemon must do about it is the answer. By default
    /// nothing changes (only `drm` displays have outputs that come and go).
    func outputsChanged() -> OutputChange
    /// Whether `outputsChanged` means anything to this display (the daemon listens for hotplug
    /// events only while one does).
    var followsOutputs: Bool { get }

    /// Dims the display itself to `percent` (0...100) of its own brightness, when it has a way
    /// to (a MAX7219's intensity and shutdown registers: on/off LEDs cannot be dimmed through their
    /// pixels, which a threshold turns off). False: the frame's colours are scaled instead. By
    /// default false.
    func dim(to percent: Int) throws(DisplayError) -> Bool
}

/// What a display made of a hotplug event.
public enum OutputChange: Sendable, Equatable {
    /// Nothing to do (no change that concerns it, or no output connected: it waits for one).
    case same
    /// It follows the change itself (outputs added or set again); the sentence says what happened.
    case followed(String)
    /// The connected monitor cannot show the current buffers (another size): the display must
    /// be opened again, which picks the new mode; the sentence says why.
    case reopen(String)
}

extension Display {
    public func close(retainingFrame: Bool) { close() }
    public var isMonochrome: Bool { false }
    public func outputsChanged() -> OutputChange { .same }
    public var followsOutputs: Bool { false }
    public func dim(to percent: Int) throws(DisplayError) -> Bool { false }
}

/// A display failure a person can act on: names the display, what failed and a hint.
public struct DisplayError: Error, Sendable, CustomStringConvertible, Equatable {
    public let display: String
    public let message: String
    public init(display: String, message: String) { self.display = display; self.message = message }
    public var description: String { filled("{}: {}", display, message) }
}
