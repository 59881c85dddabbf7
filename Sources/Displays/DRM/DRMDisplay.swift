import CLinux
import LinuxSystem
import Raster
import CompactText
import ScreenEncoding

/// What a DRM display has done: for tests, benchmarks and the daemon's status.
public struct DRMStatistics: Sendable, Equatable {
    public var frames = 0
    public var framesWritten = 0
    public var bytesWritten = 0
    /// Page flips asked for (one per output per written frame), and flips that never completed.
    public var flips = 0
    public var flipsLost = 0
    /// Successful re-probes after an output failed (unplugged, replugged).
    public var recoveries = 0
}

/// A DRM/KMS card (`/dev/dri/cardN`) showing the canvas on every connected output, mirrored,
/// placed, scaled and rotated like `fb:` and encoded by the same `FrameWriter`.
///
/// Everything is decided in `open`: outputs and mode, pixel format, two dumb buffers mapped once,
/// the console mode. Each `show` draws only the changed rectangle into the hidden buffer and
/// flips to it on the next vertical blank; with one buffer it draws on screen and reports the
/// rectangle with DIRTYFB. DRM master is held from open to close; `close` puts back what the
/// CRTCs showed before (normally the console), or with `retainingFrame` leaves the last frame up.
public final class DRMDisplay: Display {
    public static var acceptedKeys: [String] { DRMOptions.keys }

    /// The spec's keys and values checked (a `drm` or an `auto` spec), no card opened: as
    /// `FramebufferDisplay.checkOptions`.
    public static func checkOptions(_ spec: DisplaySpec) throws(DisplaySpecError) {
        if spec.type == "auto" { try spec.checkKeys(AutoDisplay.acceptedKeys) }
        _ = try DRMOptions(spec)
    }

    public let name: String
    public var canvasWidth: Int { placement.canvasWidth }
    public var canvasHeight: Int { placement.canvasHeight }
    public let framesPerSecond: Int
    public let screenWidth: Int
    public let screenHeight: Int
    public let format: FramebufferPixelFormat
    public let placement: Placement
    /// The connectors shown on, e.g. `["HDMI-A-1", "HDMI-A-2"]`.
    public private(set) var outputNames: [String]
    public private(set) var isDoubleBuffered: Bool
    public private(set) var warnings: [String] = []
    public private(set) var statistics = DRMStatistics()

    let card: FileDescriptor
    let path: String
    private let options: DRMOptions
    private var console: ConsoleMode?
    private let writer: FrameWriter
    private var buffer0: DumbBuffer?
    private var buffer1: DumbBuffer?
    private let bases: (UnsafeMutableRawPointer, UnsafeMutableRawPointer)
    private let framebuffers: (UInt32, UInt32)
    private var front = 0
    /// CRTC id, connector ids and timing of each output driven.
    private var outputs: [(crtc: UInt32, connectors: [UInt32], timing: loaderd_drm_mode_info)] = []
    /// What each CRTC showed before open, put back at close.
    private var saved: [loaderd_drm_crtc] = []
    private var pendingFlips = 0
    private var dirtyWanted = true
    private var needsModeset = false
    private var lastReprobe: Int64 = 0
    private var staleBack: PixelRect? = nil
    /// The canvas shown last, to find what a frame changes.
    private let shown: ShownFrame
    private let events: UnsafeMutableRawPointer
    private var closed = false

    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> DRMDisplay {
        try open(spec, warn: warnOnStandardError)
    }

    public static func open(_ spec: DisplaySpec, warn: (String) -> Void) throws(DisplayOpenError) -> DRMDisplay {
        try open(spec, probed: false, warn: warn)
    }

    /// `probed`: the card's outputs were just asked (by the `auto` search), so read what the
    /// kernel knows rather than probe again.
    static func open(_ spec: DisplaySpec, probed: Bool, warn: (String) -> Void) throws(DisplayOpenError) -> DRMDisplay {
        let options: DRMOptions
        do { options = try DRMOptions(spec) } catch { throw .spec(error) }
        var path = options.device
        if path == "auto" {
            switch firstCardWithConnectedOutput() {
            case .success(let found): path = found
            case .failure(let why): throw .device(DisplayError(display: "drm:auto", message: why.description))
            }
        }
        // The search just asked the outputs (EDID reads take milliseconds each): no second probe.
        return try DRMDisplay(options: options, path: path, probed: probed || options.device == "auto", spec: spec, warn: warn)
    }

    // `__shared`: borrowed, so no throw below has them to destroy; copied once where stored (for size).
    private init(options: __shared DRMOptions, path: __shared String, probed: Bool, spec: __shared DisplaySpec,
                 warn: (String) -> Void) throws(DisplayOpenError) {
        let name = "drm:" + path
        var warnings: [String] = []
        func note(_ message: String) { noteOpenWarning(message, of: name, in: &warnings, warn) }
        func deviceError(_ message: String) -> DisplayOpenError { .device(DisplayError(display: name, message: message)) }

        let fd: FileDescriptor
        do { fd = try FileDescriptor.openDevice(path, .readWrite, options: [.closeOnExec, .nonBlocking]) } catch {
            throw deviceError(drmOpenHint(path: path, error))
        }
        var ok = false
        defer { if !ok { try? fd.close() } }
        guard (try? fd.drmCapability(loaderd_drm_cap_dumb_buffer)) == 1 else {
            throw deviceError(path + " is not a mode-setting device with dumb buffers (a render node or a GPU without display?); try another /dev/dri/card* or fb:")
        }
        do { try fd.setDRMMaster() } catch { throw deviceError(drmMasterHint(path: path, error)) }
        var keepMaster = false
        defer { if !keepMaster { try? fd.dropDRMMaster() } }

        let probe: DRMProbe
        do { probe = try fd.drmProbe(probe: !probed) } catch { throw deviceError(filled("cannot read the outputs of {} ({})", path, error.description)) }
        let choice: DRMOutputChoice
        switch DRMOutputChoice.choose(probe.outputs, crtcCount: probe.crtcIDs.count, connector: options.connector, mode: options.mode) {
        case .success(let c): choice = c
        case .failure(let why):
            throw deviceError(filled("{} on {}; plug a display in, or name a connector with connector= (or use device= for another card)", why.description, path))
        }
        for reason in choice.skipped { note(reason) }

        let depth = (try? fd.drmCapability(loaderd_drm_cap_dumb_preferred_depth)) ?? 24
        let format = options.format ?? (depth == 16 ? .rgb565 : .xrgb8888)
        self.format = format
        screenWidth = choice.width; screenHeight = choice.height

        let placement: Placement
        switch Placement.resolve(screenWidth: choice.width, screenHeight: choice.height, size: options.size,
                                 scale: options.screen.scale, rotation: options.screen.rotation, anchor: options.screen.anchor,
                                 offsetX: options.screen.offsetX, offsetY: options.screen.offsetY) {
        case .success(let p): placement = p
        case .failure(.doesNotFit(let why)):
            throw .spec(DisplaySpecError(spec: spec.description, message: why + " (change size=, scale=, anchor=, x=, y= or mode=)"))
        }
        self.placement = placement

        let first: DumbBuffer
        do { first = try DumbBuffer(card: fd, width: choice.width, height: choice.height, format: format) } catch {
            throw deviceError(error.description)
        }
        var second: DumbBuffer? = nil
        if options.buffering != .one {
            do { second = try DumbBuffer(card: fd, width: choice.width, height: choice.height, format: format) } catch {
                note(error.description + "; one buffer, frames may tear")
            }
        }
        writer = FrameWriter(placement: placement, encoder: PixelEncoder(format), background: options.screen.background, stride: first.pitch)
        bases = (first.base, second?.base ?? first.base)
        framebuffers = (first.framebuffer, second?.framebuffer ?? first.framebuffer)
        isDoubleBuffered = second != nil
        writer.fillBackground(bases.0, rowPixels: choice.width, rows: choice.height)
        if second != nil { writer.fillBackground(bases.1, rowPixels: choice.width, rows: choice.height) }
        buffer0 = first
        buffer1 = second

        // The console goes to graphics mode before the mode set, so fbcon does not draw meanwhile.
        if options.screen.console == .graphics {
            do { console = try ConsoleMode() } catch { note(error.description) }
        }
        for a in choice.assignments {
            let crtc = probe.crtcIDs[a.crtcIndex]
            if let before = try? fd.drmCRTC(crtc) { saved.append(before) }
            guard let timing = probe.timing(a) else { continue }
            outputs.append((crtc, [a.output.connectorID], timing))
        }
        outputNames = Self.names(choice)
        // Set here, not first: a failure above has fewer properties to take apart (for size).
        self.name = name
        self.path = path
        self.options = options
        framesPerSecond = options.screen.framesPerSecond
        card = fd
        shown = ShownFrame(width: placement.canvasWidth, height: placement.canvasHeight)
        events = .allocate(byteCount: 1024, alignment: 8)
        // From here close() owns the descriptor, master, buffers and console.
        ok = true; keepMaster = true
        self.warnings = warnings
        do { try setCRTCs() } catch {
            close()
            throw deviceError(filled("cannot show a {}x{} framebuffer on {} (DRM_IOCTL_MODE_SETCRTC: {})", String(choice.width), String(choice.height), outputNames.joined(separator: ", "), error.description))
        }
    }

    deinit {
        close()
        events.deallocate()
        writer.release()
    }

    /// Shows the front buffer on every output (at open, and after a re-probe).
    private func setCRTCs() throws(Errno) {
        let fb = front == 0 ? framebuffers.0 : framebuffers.1
        for o in outputs { try card.setDRMCRTC(o.crtc, framebuffer: fb, connectors: o.connectors, mode: o.timing) }
    }

    // MARK: Frames

    public func show(_ canvas: Canvas) throws(DisplayError) {
        precondition(canvas.width == canvasWidth && canvas.height == canvasHeight,
                     "canvas \(canvas.width)x\(canvas.height) shown on a \(canvasWidth)x\(canvasHeight) display")
        guard !closed else { throw DisplayError(display: name, message: "shown after close") }
        statistics.frames += 1
        if needsModeset { try recover() }
        if isDoubleBuffered { completeFlips(waitMilliseconds: 50) }
        let drawnRows = canvas.drawnRows
        let drawn: (bytes: Int, rect: PixelRect)? = canvas.pixels.withUnsafeBufferPointer { pixels in
            guard let dirty = shown.changes(to: pixels, drawnRows: drawnRows) else { return nil }
            let placed = placement.rotated(dirty)
            if isDoubleBuffered {
                // The hidden buffer last showed the frame before the previous one: bring both changes.
                let region = staleBack.map { placed.union($0) } ?? placed
                staleBack = placed
                return (writer.write(pixels.baseAddress!, placedRect: region, into: front == 0 ? bases.1 : bases.0), placed)
            }
            return (writer.write(pixels.baseAddress!, placedRect: placed, into: bases.0), placed)
        }
        guard let drawn else { return }
        statistics.framesWritten += 1
        statistics.bytesWritten += drawn.bytes
        if isDoubleBuffered { try flip() } else { reportDirty(drawn.rect) }
    }

    /// Flips every output to the buffer just drawn; completion arrives as an event on the card.
    private func flip() throws(DisplayError) {
        let back = 1 - front
        let fb = back == 0 ? framebuffers.0 : framebuffers.1
        for (i, o) in outputs.enumerated() {
            do {
                do {
                    try card.drmPageFlip(crtc: o.crtc, framebuffer: fb, userData: UInt64(i))
                } catch where error == .resourceBusy {
                    // The previous flip is still pending: its completion came later than
                    // `completeFlips` waited (a machine under load, emulation). Not a lost
                    // display: wait for that completion and flip once more.
                    awaitLateFlip(milliseconds: 100)
                    try card.drmPageFlip(crtc: o.crtc, framebuffer: fb, userData: UInt64(i))
                }
                pendingFlips += 1
                statistics.flips += 1
            } catch {
                if statistics.flips == 0 && i == 0 && (error == .invalidArgument || error == .notSupported) {
                    // A driver without page flips: buffer 0 stays on screen; bring it the frame just
                    // drawn into buffer 1 and draw on screen from now on.
                    isDoubleBuffered = false
                    memcpy(bases.0, bases.1, (buffer0?.pitch ?? 0) * screenHeight)
                    reportDirty(PixelRect(x: 0, y: 0, width: placement.rotatedWidth, height: placement.rotatedHeight))
                    warnings.append(filled("the driver cannot page-flip ({}); one buffer, frames may tear", error.description))
                    return
                }
                needsModeset = true
                throw DisplayError(display: name, message: filled("page flip on {} failed ({}); re-probing the outputs (was a display unplugged?)",
                                                                    outputNames.indices.contains(i) ? outputNames[i] : "an output", error.description))
            }
        }
        front = back
    }

    /// Reads flip completions; waits up to `waitMilliseconds` (at most a refresh period in
    /// practice) when flips are still pending, so the hidden buffer is never drawn while scanned.
    private func completeFlips(waitMilliseconds: Int32) {
        drainEvents()
        if pendingFlips == 0 { return }
        var p = pollfd(fd: card.rawValue, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, waitMilliseconds) > 0 { drainEvents() }
        if pendingFlips > 0 {
            // No completion within several refresh periods: the CRTC is gone or off.
            statistics.flipsLost += pendingFlips
            pendingFlips = 0
            needsModeset = true
        }
    }

    /// Reads the completion of a flip already given up for lost (`pendingFlips` is 0 by then),
    /// waiting up to `milliseconds` for it.
    private func awaitLateFlip(milliseconds: Int32) {
        var p = pollfd(fd: card.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, milliseconds) > 0 else { return }
        pendingFlips = 1
        drainEvents()
        pendingFlips = 0
    }

    private func drainEvents() {
        while pendingFlips > 0 {
            let n = read(card.rawValue, events, 1024)
            if n <= 0 { return }
            var offset = 0
            while offset + 8 <= n {
                let type = events.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let length = Int(events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                if type == loaderd_drm_event_flip_complete { pendingFlips = max(0, pendingFlips - 1) }
                if length < 8 { break }
                offset += length
            }
        }
    }

    /// Single buffering: tell manual-update drivers which screen rectangle changed. Drivers that
    /// scan out continuously answer ENOSYS (or EINVAL): then never again.
    private func reportDirty(_ placed: PixelRect) {
        guard dirtyWanted else { return }
        let s = placement.scale
        do {
            try card.drmDirty(framebuffer: framebuffers.0, x: placement.x + placed.x * s, y: placement.y + placed.y * s,
                              width: placed.width * s, height: placed.height * s)
        } catch {
            dirtyWanted = false
        }
    }

    /// After a failure: asks the outputs again (at most once a second; probing reads EDID) and
    /// sets the mode again on those connected with a mode of the buffers' size.
    private func recover() throws(DisplayError) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        // Between probes the last answer stands (the daemon logs an error once, not every frame).
        let waiting = DisplayError(display: name, message: filled("no connected output shows {}x{}; waiting for one to be plugged in", String(screenWidth), String(screenHeight)))
        guard nanoseconds - lastReprobe >= 1_000_000_000 || lastReprobe == 0 else { throw waiting }
        lastReprobe = nanoseconds
        let request = DRMModeRequest(width: screenWidth, height: screenHeight, refresh: options.mode?.refresh)
        guard let probe = try? card.drmProbe(probe: true),
              case .success(let choice) = DRMOutputChoice.choose(probe.outputs, crtcCount: probe.crtcIDs.count, connector: options.connector, mode: request) else {
            throw waiting
        }
        do { try follow(choice, probe, names: Self.names(choice)) } catch {
            throw waiting
        }
        needsModeset = false
        statistics.recoveries += 1
    }

    /// The names of the connectors `choice` drives (one loop for open and both re-probes, for size).
    static func names(_ choice: DRMOutputChoice) -> [String] {
        var names: [String] = []
        for a in choice.assignments { names.append(a.output.name) }
        return names
    }

    /// Drives the outputs `choice` picked from `probe` after a re-probe, with the front buffer
    /// (`recover` and `outputsChanged` alike: one copy, for size).
    private func follow(_ choice: DRMOutputChoice, _ probe: DRMProbe, names: [String]) throws(Errno) {
        var driven: [(crtc: UInt32, connectors: [UInt32], timing: loaderd_drm_mode_info)] = []
        for a in choice.assignments {
            if let timing = probe.timing(a) { driven.append((probe.crtcIDs[a.crtcIndex], [a.output.connectorID], timing)) }
        }
        outputs = driven
        outputNames = names
        pendingFlips = 0
        try setCRTCs()
    }

    public var followsOutputs: Bool { !closed }

    /// A hotplug event: asks the outputs again (probing reads EDID, so only on an event) and
    /// chooses as `open` would. The same size: shown on the outputs chosen now (a monitor plugged
    /// back, a second one mirrored). Another size (a monitor that prefers another mode, or the
    /// one `mode=` names offered again elsewhere): the display asks to be opened again, with
    /// buffers and placement for that mode. Nothing connected: it waits for the next event.
    public func outputsChanged() -> OutputChange {
        guard !closed, let probe = try? card.drmProbe(probe: true) else { return .same }
        guard case .success(let choice) = DRMOutputChoice.choose(probe.outputs, crtcCount: probe.crtcIDs.count,
                                                                 connector: options.connector, mode: options.mode) else {
            return .same
        }
        let names = Self.names(choice)
        if choice.width != screenWidth || choice.height != screenHeight {
            return .reopen(filled("{} now shows {}x{}, not {}", names.joined(separator: ", "), String(choice.width), String(choice.height), filled("{}x{}", String(screenWidth), String(screenHeight))))
        }
        if names == outputNames && !needsModeset { return .same }
        do { try follow(choice, probe, names: names) } catch {
            needsModeset = true
            return .same
        }
        needsModeset = false
        statistics.recoveries += 1
        return .followed(filled("showing {}x{} on {}", String(screenWidth), String(screenHeight), names.joined(separator: ", ")))
    }

    public func clear() throws(DisplayError) {
        guard !closed else { throw DisplayError(display: name, message: "cleared after close") }
        writer.fillBackground(bases.0, rowPixels: screenWidth, rows: screenHeight)
        if isDoubleBuffered { writer.fillBackground(bases.1, rowPixels: screenWidth, rows: screenHeight) }
        staleBack = nil
        if !isDoubleBuffered { reportDirty(PixelRect(x: 0, y: 0, width: placement.rotatedWidth, height: placement.rotatedHeight)) }
        shown.setTransparent()
    }

    public func close() { close(retainingFrame: false) }

    /// Hands the screen over: waits for a pending flip, puts back what each CRTC showed before
    /// (the console's framebuffer) — or, retaining, leaves the last frame up (Linux 6.8+) —
    /// drops DRM master, closes the card, then gives the console its text mode back.
    public func close(retainingFrame: Bool) {
        if closed { return }
        closed = true
        if isDoubleBuffered && pendingFlips > 0 { completeFlips(waitMilliseconds: 100) }
        if retainingFrame {
            let shown = front == 0 ? buffer0 : buffer1
            if shown?.keepOnScreen() == false {
                standardErrorLine(filled("{}{}: this kernel cannot keep the last frame after exit (DRM_IOCTL_MODE_CLOSEFB needs Linux 6.8); the screen goes dark until the next program sets a mode", StandardErrorPriority.prefix(5), name))
            }
            console?.keepGraphicsMode()
        } else {
            for before in saved where before.fb_id != 0 && before.mode_valid != 0 {
                let connectors = outputs.first { $0.crtc == before.crtc_id }?.connectors ?? []
                try? card.setDRMCRTC(before.crtc_id, framebuffer: before.fb_id, connectors: connectors, mode: before.mode)
            }
        }
        buffer0 = nil   // deinit unmaps, removes the framebuffer (a CRTC still showing it goes dark) and frees it
        buffer1 = nil
        try? card.dropDRMMaster()
        try? card.close()
        console = nil   // deinit restores the console mode: fbcon takes the screen back
    }
}
