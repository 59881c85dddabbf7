import Displays
import FixedPoint
import Loaders
import Raster

/// One open display, its scene (sized to its canvas) and its own frame schedule.
final class DisplaySlot {
    let display: any Display
    let spec: DisplaySpec
    var scene: Scene?
    /// CLOCK_MONOTONIC nanoseconds at which the next frame is due; nil: nothing to draw until a
    /// command changes something.
    var deadline: Int64?
    /// The schedule's origin: frame k is due at `base + k · 10⁹ / fps` (derived, not accumulated).
    var base: Int64 = 0
    /// Index of the next frame on that schedule.
    var nextIndex: Int64 = 0
    /// The blank (idle) frame is on the display.
    var showsBlank = false
    /// Where a dimmed frame is made (brightness < 100), allocated once.
    var dimmed: Canvas
    /// The last error, logged once until the display works again.
    var lastError: DisplayError?

    init(display: any Display, spec: DisplaySpec) {
        self.display = display
        self.spec = spec
        dimmed = Canvas(width: display.canvasWidth, height: display.canvasHeight)
    }

    var fps: Int64 { Int64(display.framesPerSecond) }

    /// Something changed at `now`: draw as soon as the loop gets to it, unless a frame is
    /// already due (an animating display picks the change up at its next frame).
    func invalidate(now: Int64) {
        guard deadline == nil else { return }
        deadline = now
        base = now
        nextIndex = 0
    }

    /// After drawing the frame due at `now`: the next deadline on the schedule, skipping (and
    /// counting) frames whose time has passed. Returns the number skipped.
    func advance(now: Int64) -> Int64 {
        let k = (now - base) * fps / 1_000_000_000
        let skipped = Swift.max(0, k - nextIndex)
        nextIndex = k + 1
        deadline = base + nextIndex * 1_000_000_000 / fps
        return skipped
    }

    /// The scene's canvas scaled to `brightness` percent (premultiplied: a fade to the background).
    func canvas(brightness: Int) -> Canvas {
        guard let scene else { return dimmed }
        guard brightness < 100 else { return scene.canvas }
        let scale = UInt8(brightness * 255 / 100)
        dimmed.pixels.withUnsafeMutableBufferPointer { out in
            scene.context.canvas.pixels.withUnsafeBufferPointer { src in
                for i in src.indices { out[i] = src[i].scaled(by: scale) }
            }
        }
        return dimmed
    }
}
