import Displays
import FixedPoint
import Loaders
import Raster
import CompactText

/// One open display, its scene (sized to its canvas) and its own frame schedule.
final class DisplaySlot {
    /// The open display, or a `PlaceholderDisplay` while its device is missing.
    var display: any Display
    let spec: DisplaySpec
    /// The device node a missing or vanished display is waited for (fb: and drm: with a path);
    /// for a display that searches (`auto`), the device it opened, nil while it waits.
    var devicePath: String?
    /// `auto` and `drm:device=auto`: which devices the search takes (AutoDisplayWatch.swift).
    let search: AutoSearch?
    /// The device is missing: nothing is drawn until inotify reports it (DisplayWatch.swift).
    var waiting = false
    /// Closed while a password is asked on the console (PasswordQuestions.swift): waiting, but
    /// for the question to be answered, not for its device.
    var steppedAside = false
    /// CLOCK_MONOTONIC nanoseconds at which the current wait began: the display is given up
    /// `display_timeout` later (DisplayTimeout.swift).
    var waitingSince: Int64?
    /// The inotify watch that reports the device (or the first missing directory on its path):
    /// its descriptor and the name in that directory.
    var watch: (wd: Int32, name: String)?
    var scene: Scene?
    /// Whether the slot has a scene, and the scene's phase. Asked of the slot: code outside that
    /// reads `scene` gets a copy of the whole struct, a retain of each of its references; and
    /// through a mutating method the scene is read in place, not copied here either (for size).
    var hasScene: Bool { scene != nil }
    func scenePhase(_ frame: FrameState) -> ScenePhase? { scene?.phaseInPlace(frame) }
    /// The message's room on this screen (`Scene.messageRoom`), the scene read in place.
    func messageRoom(_ message: String) -> (fits: Bool, width: Int, height: Int)? { scene?.messageRoom(message) }
    /// CLOCK_MONOTONIC nanoseconds at which the next frame is due; nil: nothing to draw until a
    /// command changes something.
    var deadline: Int64?
    /// The schedule's origin: frame k is due at `base + k · 10⁹ / fps` (derived, not accumulated).
    var base: Int64 = 0
    /// Index of the next frame on that schedule.
    var nextIndex: Int64 = 0
    /// The blank (idle) frame is on the display.
    var showsBlank = false
    /// Where a dimmed frame is made: allocated at the first frame drawn below full brightness
    /// (and again for a display of another size), then kept. Most boots never dim, and a canvas
    /// writes its pixels and its row-sized tables at init (its stamp buffers stay untouched
    /// until used): 2 MB of pixels for a 1080p
    /// screen's 960x540 canvas, 8 MB for a 1920x1080 image display, made before the first frame
    /// when it came with the slot (docs/PERFORMANCE.md, 25 Nov).
    var dimmed: Canvas?
    /// The last error while the display fails (nil: it works). Logged once when the failing
    /// starts and once when it ends, not per try.
    var lastError: DisplayError?
    /// Tries that failed in a row: the back-off before the next one doubles with each.
    var failures = 0
    /// The `screen.margin` last found too large for this display and logged: boot scripts start
    /// loaders all the time, and the same margin is said once (again once another was drawn).
    var clampedMargin: Int?
    /// The message was found to have no room on this screen, and the log said so (MessageRoom.swift).
    var saidNoRoom = false

    init(display: any Display, spec: DisplaySpec) {
        self.display = display
        self.spec = spec
        devicePath = Self.devicePath(spec)
        search = AutoSearch(spec)
    }

    /// The spec's last `device=` value (the one that counts); one copy for devicePath and AutoSearch (for size).
    @inline(never)
    static func deviceOption(_ spec: DisplaySpec) -> String? {
        spec.options.last(where: { $0.key == "device" })?.value
    }

    /// `spec[key]`, one out-of-line copy for `devicePath`'s three (for size).
    @inline(never)
    static func option(_ spec: DisplaySpec, _ key: String) -> String? { spec[key] }

    var fps: Int64 { Int64(display.framesPerSecond) }

    /// "name: text", how the log's lines about the slot (mostly its device's path) begin; one
    /// out-of-line copy (for size).
    @inline(never)
    func naming(_ text: String) -> String { filled("{}: {}", display.name, text) }

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

    /// The first retry comes 0.1 s after a failure, each later one twice as long after the
    /// previous try, up to 3.2 s: a display that is gone costs a few syscalls a second, not one
    /// try per frame, and comes back within 3.2 s of being usable again.
    static let firstRetry: Int64 = 100_000_000
    static let longestRetry: Int64 = 3_200_000_000

    /// After a failed try at `now`: the next try's time, derived from the number of failures.
    func scheduleRetry(now: Int64) {
        let doublings = Swift.min(failures - 1, 5)
        deadline = now + Swift.min(Self.firstRetry << Int64(Swift.max(doublings, 0)), Self.longestRetry)
    }

    /// After a successful try that ended a failure: the frame schedule starts again from `now`
    /// (the frames missed meanwhile are not counted as dropped).
    func restartSchedule(now: Int64) {
        base = now
        nextIndex = 0
    }

    /// "ok", "failing", "waiting" or "aside" (for a password question), for `status`.
    var stateName: String { steppedAside ? "aside" : waiting ? "waiting" : lastError == nil ? "ok" : "failing" }

    /// The device node a spec names: `fb:` its device (default /dev/fb0), `drm:` a device path
    /// (not `auto`), an LED display's SPI device (default /dev/spidev0.0) or GPIO chip, as a
    /// path or /dev/gpiochipN by name or number (a chip named by its label has no path to wait
    /// for). nil for displays that are not waited for. An SPI or GPIO node appears when its
    /// driver is loaded, which at boot may be after loaderd starts, as a screen's driver may be.
    static func devicePath(_ spec: DisplaySpec) -> String? {
        let device = deviceOption(spec)
        // The type by its place in `DisplayFactory.types` (a jump, not string comparisons: for size).
        guard let index = DisplayFactory.typeIndex(spec.type) else { return nil }
        switch index {
        case DisplayFactory.framebufferIndex: return device ?? "/dev/fb0"
        case DisplayFactory.drmIndex: return device == nil || device == "auto" ? nil : device
        default:
            // The LED displays: the types whose keys include the SPI device's.
            guard index >= DisplayFactory.firstLEDIndex else { return nil }
            if let dryRun = option(spec, "dry-run"), parseYesNo(dryRun) != false { return nil }  // opens no device
            guard let chip = option(spec, "gpiochip") else { return option(spec, "spi") ?? "/dev/spidev0.0" }
            if chip.hasPrefix("/") { return chip }
            if chip.hasPrefix("gpiochip") { return "/dev/" + chip }
            // The digits read as contiguous bytes, not through the UTF-8 view's index (for size).
            var number = chip
            let isNumber = number.withUTF8 { !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
            return isNumber ? "/dev/gpiochip" + chip : nil
        }
    }

    /// Shows the scene's canvas scaled to `brightness` percent (premultiplied: a fade to the
    /// background). At full brightness the display reads the scene's own canvas in place:
    /// returned from here it would be a copy a frame (19 references counted up and down).
    /// Only for a slot with a scene (the daemon clears a display that has none).
    func show(brightness: Int) throws(DisplayError) {
        let display = self.display
        // A display that dims itself (a MAX7219's registers) is given the frame as it is.
        let dimsItself = try display.dim(to: brightness)
        guard brightness < 100 && !dimsItself else {
            try scene!.withCanvas { (canvas) throws(DisplayError) in try display.show(canvas) }
            return
        }
        let full = scene!.canvas
        if dimmed?.width != full.width || dimmed?.height != full.height {
            dimmed = Canvas(width: full.width, height: full.height)
        }
        dimmed!.copyScaled(from: full, by: UInt8(brightness * 255 / 100))
        try display.show(dimmed!)
    }
}

extension Scene {
    /// `phase(_:)`, mutating only so that a slot's scene is read where it is rather than copied
    /// (a copy retains and releases each of its references: for size).
    mutating func phaseInPlace(_ frame: FrameState) -> ScenePhase { phase(frame) }

    /// Whether `message` has room under the loader, and the canvas's size; nil when that is not
    /// asked: a loader that draws the message itself, or no screen. Mutating for the same reason.
    mutating func messageRoom(_ message: String) -> (fits: Bool, width: Int, height: Int)? {
        let width = context.canvas.width, height = context.canvas.height
        guard !loader.drawsMessage, BootScreenLayout.isScreen(width: width, height: height) else { return nil }
        return (areas(message: message).message != nil, width, height)
    }
}
