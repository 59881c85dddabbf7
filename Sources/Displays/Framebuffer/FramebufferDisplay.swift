import CLinux
import Raster
import LinuxSystem
import CompactText
import ScreenEncoding

/// What a framebuffer display has written: for tests, benchmarks and the daemon's status.
public struct FramebufferStatistics: Sendable, Equatable {
    /// Frames passed to `show`.
    public var frames = 0
    /// Frames that changed something on screen (the others wrote nothing).
    public var framesWritten = 0
    /// Screen rows and bytes written by `show` (the background fills of open/clear not counted).
    public var rowsWritten = 0
    public var bytesWritten = 0
    /// FBIOPAN_DISPLAY calls made by `show`.
    public var pans = 0
}

/// A Linux framebuffer (`/dev/fbN`, or a regular file standing in for one) showing the canvas
/// scaled by an integer, rotated and anchored on a background colour.
///
/// Everything is decided in `open`: the pixel format (into one encode path), placement, double
/// buffering, the console mode. Each `show` compares the canvas with the previous frame and
/// writes only the changed rectangle; an unchanged frame writes nothing.
public final class FramebufferDisplay: Display {
    /// The spec keys `fb:` accepts (for checks that do not open the device, e.g. `--check-config`).
    public static var acceptedKeys: [String] { FramebufferOptions.keys }

    /// The spec's keys and values checked, the device not opened (`--check-config`, and a display
    /// whose device is waited for). What depends on the device (the canvas fitting it) is checked at open.
    public static func checkOptions(_ spec: DisplaySpec) throws(DisplaySpecError) { _ = try FramebufferOptions(spec) }

    public let name: String
    public var canvasWidth: Int { placement.canvasWidth }
    public var canvasHeight: Int { placement.canvasHeight }
    public let framesPerSecond: Int

    /// The visible screen size in pixels, its stride in bytes and its pixel format.
    public let screenWidth: Int
    public let screenHeight: Int
    public let stride: Int
    public let format: FramebufferPixelFormat
    public let placement: Placement
    /// Whether frames are drawn into a hidden half and panned to (FBIOPAN_DISPLAY).
    public private(set) var isDoubleBuffered: Bool
    /// Whether the console was switched to graphics mode.
    public var holdsConsole: Bool { console != nil }
    /// Problems that did not stop the display (also passed to the `warn` handler of `open`).
    public private(set) var warnings: [String] = []
    public private(set) var statistics = FramebufferStatistics()

    private var memory: FramebufferMemory?
    /// The device's descriptor for ioctls (owned by `memory`); nil for a stand-in file.
    private let device: FileDescriptor?
    private var console: ConsoleMode?
    private let writer: FrameWriter
    private var vsync: Bool
    /// The first byte of the visible area (file or single-buffered device).
    private let visibleBase: UnsafeMutableRawPointer
    /// The screen buffers when double-buffered (each `screenHeight` rows), and which is shown.
    private var buffers: (UnsafeMutableRawPointer, UnsafeMutableRawPointer)
    private var front = 0
    /// Placed rectangle that changed since the hidden buffer was last drawn.
    private var staleBack: PixelRect? = nil
    private var variableInfo: fb_var_screeninfo
    private var originalInfo: fb_var_screeninfo?
    /// The canvas shown last, to find what a frame changes.
    private let shown: ShownFrame
    private var closed = false
    /// A regular stand-in file's descriptor (owned by `memory`) and its length. Frames are drawn
    /// into anonymous memory and written to the file with pwrite, never through a mapping of the
    /// file: something may truncate it at any moment, and a store past its end would be SIGBUS.
    private var standIn: (fd: Int32, length: Int)? = nil
    /// The whole stand-in file must be written at the next frame (at open, after a truncation
    /// or a failed write), not only the rows that changed.
    private var standInStale = true

    /// Opens the framebuffer a spec names. Spec errors (`DisplayOpenError.spec`) name the key and
    /// what it accepts; device errors (`.device`) say what to do. Warnings (no console access,
    /// panning refused) go to `warn`, by default standard error with a syslog warning prefix.
    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> FramebufferDisplay {
        try open(spec, warn: warnOnStandardError)
    }

    public static func open(_ spec: DisplaySpec, warn: (String) -> Void) throws(DisplayOpenError) -> FramebufferDisplay {
        let options: FramebufferOptions
        do { options = try FramebufferOptions(spec) } catch { throw .spec(error) }
        return try FramebufferDisplay(options: options, spec: spec, warn: warn)
    }

    // `__shared`: the options and spec are borrowed, so no throw below has them to destroy (for size).
    private init(options: __shared FramebufferOptions, spec: __shared DisplaySpec, warn: (String) -> Void) throws(DisplayOpenError) {
        let name = "fb:" + options.device
        vsync = options.vsync
        var warnings: [String] = []
        func note(_ message: String) { noteOpenWarning(message, of: name, in: &warnings, warn) }
        func deviceError(_ message: String) -> DisplayOpenError { .device(DisplayError(display: name, message: message)) }
        // Out of line: the device's and a character device stand-in's mapping fail alike (for size).
        @inline(never) func mapFailure(_ length: Int, _ error: Errno) -> DisplayOpenError {
            deviceError(filled("cannot map {} ({} bytes): {}", options.device, String(length), error.description))
        }

        let fd: FileDescriptor
        do throws(Errno) {
            // A stand-in file is never reached through a symlink (O_NOFOLLOW): the daemon runs as
            // root and would otherwise write frames into whatever file the link names.
            fd = try FileDescriptor.openDevice(options.device, .readWrite,
                                         options: options.file == nil ? [.closeOnExec] : [.closeOnExec, .create, .noFollow, .nonBlocking, .noControllingTerminal],
                                         permissions: options.file == nil ? nil : [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw deviceError(Self.openFailure(path: options.device, error, isFile: options.file != nil))
        }

        var info = fb_var_screeninfo()
        let memory: FramebufferMemory
        var visibleOffset = 0
        var doubleBuffered = false
        if let file = options.file {
            // A regular file with the geometry given: no ioctls; grow it to hold the screen.
            let stride = file.stride ?? file.width * file.format.bytesPerPixel
            let length = stride * file.height
            var st = stat()
            guard fstat(fd.rawValue, &st) == 0, loaderd_s_isreg(st.st_mode) != 0 || loaderd_s_ischr(st.st_mode) != 0 else {
                try? fd.close()
                throw deviceError(filled("{} is {}; a stand-in must be a regular file", options.device, RegularFile.kind(st.st_mode)))
            }
            if loaderd_s_isreg(st.st_mode) != 0 {
                RegularFile.makeBlocking(fd.rawValue)
                // Blocks reserved, not a sparse ftruncate: a store into an unbacked page of a full
                // file system raises SIGBUS, which would kill the daemon mid-frame.
                let rc = posix_fallocate(fd.rawValue, 0, off_t(length))
                if rc != 0 {
                    try? fd.close()
                    throw deviceError(filled("cannot reserve {} bytes for {}: {} (is the file system full?)", String(length), options.device, Errno(rawValue: rc).description))
                }
                standIn = (fd.rawValue, length)
                do { memory = try FramebufferMemory(shadowing: fd, length: length) } catch {
                    throw deviceError(filled("cannot allocate {} bytes for {}: {}", String(length), options.device, error.description))
                }
            } else {
                // A character device given with geometry= (e.g. a framebuffer without the ioctls):
                // device memory does not shrink, so it is mapped.
                do { memory = try FramebufferMemory(mapping: fd, length: length) } catch { throw mapFailure(length, error) }
            }
            screenWidth = file.width; screenHeight = file.height; self.stride = stride; format = file.format
            info.xres = UInt32(file.width); info.yres = UInt32(file.height)
            info.xres_virtual = info.xres; info.yres_virtual = info.yres
            info.bits_per_pixel = UInt32(file.format.bitsPerPixel)
        } else {
            var fix: fb_fix_screeninfo
            do {
                info = try fd.framebufferVariableInfo()
                fix = try fd.framebufferFixedInfo()
            } catch {
                try? fd.close()
                throw deviceError(filled("{} is not a framebuffer (FBIOGET_VSCREENINFO: {}); for a regular file give geometry=WxH and format=… ({})", options.device, error.description, supportedFormatNames()))
            }
            switch FramebufferPixelFormat.resolve(info, fix) {
            case .success(let found): format = found
            case .failure(let unsupported):
                try? fd.close()
                throw deviceError(unsupported.description)
            }
            screenWidth = Int(info.xres); screenHeight = Int(info.yres); stride = Int(fix.line_length)
            let frameBytes = stride * screenHeight

            // The console goes to graphics mode before any mode change, so that fbcon neither
            // draws meanwhile nor records our virtual size as its own (close() undoes this in
            // the reverse order).
            if options.screen.console == .graphics {
                do { console = try ConsoleMode() } catch { note(error.description) }
            }
            if options.buffering == .two && Int(info.yres_virtual) < 2 * screenHeight {
                // Ask for a double-height virtual screen; give back the original mode on close.
                var wanted = info
                wanted.yres_virtual = UInt32(2 * screenHeight)
                wanted.yoffset = 0
                wanted.activate = UInt32(FB_ACTIVATE_NOW)
                do {
                    try fd.setFramebufferVariableInfo(&wanted)
                    originalInfo = info
                    info = try fd.framebufferVariableInfo()
                    fix = try fd.framebufferFixedInfo()
                } catch {
                    note(filled("the driver refused a {}x{} virtual screen ({}); single buffering", String(screenWidth), String(2 * screenHeight), error.description))
                }
            }
            let mapLength = Int(fix.smem_len)
            do { memory = try FramebufferMemory(mapping: fd, length: mapLength) } catch { throw mapFailure(mapLength, error) }
            doubleBuffered = options.buffering != .one && Int(info.yres_virtual) >= 2 * screenHeight
                && Int(fix.line_length) * 2 * screenHeight <= mapLength
            visibleOffset = Int(info.yoffset) * stride + Int(info.xoffset) * format.bytesPerPixel
            if !doubleBuffered && visibleOffset + frameBytes > mapLength { visibleOffset = 0 }
        }

        let placement: Placement
        switch Placement.resolve(screenWidth: screenWidth, screenHeight: screenHeight, size: options.size,
                                 scale: options.screen.scale, rotation: options.screen.rotation, anchor: options.screen.anchor,
                                 offsetX: options.screen.offsetX, offsetY: options.screen.offsetY) {
        case .success(let p): placement = p
        case .failure(.doesNotFit(let why)):
            throw .spec(DisplaySpecError(spec: spec.description, message: why + " (change size=, scale=, anchor=, x= or y=)"))
        }
        // Set here, not first: a failure above has fewer properties to take apart (for size).
        self.name = name
        framesPerSecond = options.screen.framesPerSecond
        self.placement = placement
        writer = FrameWriter(placement: placement, encoder: PixelEncoder(format), background: options.screen.background, stride: stride)
        shown = ShownFrame(width: placement.canvasWidth, height: placement.canvasHeight)

        let base = memory.base
        visibleBase = base + visibleOffset
        buffers = (base, base + stride * screenHeight)
        variableInfo = info
        self.memory = consume memory
        device = options.file == nil ? fd : nil
        isDoubleBuffered = doubleBuffered

        // The background fills the whole screen once (both halves when double-buffered).
        if doubleBuffered {
            writer.fillBackground(buffers.0, rowPixels: screenWidth, rows: screenHeight)
            writer.fillBackground(buffers.1, rowPixels: screenWidth, rows: screenHeight)
            // Probe: show the second half (same picture). A driver that refuses gets single buffering.
            front = 1
            do { try pan(to: 1) } catch {
                note(filled("the driver refused to pan (FBIOPAN_DISPLAY: {}); single buffering, frames may tear", error.description))
                isDoubleBuffered = false
                front = 0
            }
        } else {
            writer.fillBackground(visibleBase, rowPixels: screenWidth, rows: screenHeight)
        }
        do { try writeStandIn(rows: 0..<screenHeight) } catch { throw .device(error) }

        if vsync, let device {
            // Probe once: drivers without vertical-blank interrupts refuse (vfb, many SPI panels).
            do { try device.waitForVerticalSync() } catch {
                note(filled("the driver does not support FBIO_WAITFORVSYNC ({}); vsync off", error.description))
                vsync = false
            }
        }
        self.warnings = warnings
    }

    deinit {
        close()
        writer.release()
    }

    // MARK: Frames

    public func show(_ canvas: Canvas) throws(DisplayError) {
        precondition(canvas.width == canvasWidth && canvas.height == canvasHeight,
                     "canvas \(canvas.width)x\(canvas.height) shown on a \(canvasWidth)x\(canvasHeight) display")
        guard !closed else { throw DisplayError(display: name, message: "shown after close") }
        try checkStandIn()
        statistics.frames += 1
        var rows = 0..<0
        let drawnRows = canvas.drawnRows
        let written: Int = canvas.pixels.withUnsafeBufferPointer { pixels in
            guard let dirty = shown.changes(to: pixels, drawnRows: drawnRows) else { return 0 }
            let placed = placement.rotated(dirty)
            if isDoubleBuffered {
                let back = 1 - front
                let region = staleBack.map { placed.union($0) } ?? placed
                statistics.rowsWritten += region.height * placement.scale
                staleBack = placed
                return writer.write(pixels.baseAddress!, placedRect: region, into: back == 0 ? buffers.0 : buffers.1)
            }
            statistics.rowsWritten += placed.height * placement.scale
            rows = (placement.y + placed.y * placement.scale)..<(placement.y + placed.maxY * placement.scale)
            return writer.write(pixels.baseAddress!, placedRect: placed, into: visibleBase)
        }
        try writeStandIn(rows: rows)
        guard written > 0 else { return }
        statistics.framesWritten += 1
        statistics.bytesWritten += written
        if vsync, let device { try? device.waitForVerticalSync() }  // probed at open
        if isDoubleBuffered {
            do { try pan(to: 1 - front) } catch {
                throw DisplayError(display: name, message: filled("FBIOPAN_DISPLAY failed: {}", error.description))
            }
            statistics.pans += 1
        }
    }

    /// A stand-in file that something truncated is written whole at this frame (the memory
    /// behind it still holds the whole picture). Nothing here can fault: the file is only
    /// written with pwrite, which extends a short file.
    private func checkStandIn() throws(DisplayError) {
        guard let standIn else { return }
        var st = stat()
        guard fstat(standIn.fd, &st) == 0 else {
            throw DisplayError(display: name, message: filled("cannot inspect the stand-in file: {}", Errno.current.description))
        }
        if Int(st.st_size) < standIn.length { standInStale = true }
    }

    /// Writes screen rows `rows` of the stand-in file (all of it when it is stale). A failed or
    /// short write (a full file system) leaves the file stale: the next frame writes it whole.
    private func writeStandIn(rows: Range<Int>) throws(DisplayError) {
        guard let standIn else { return }
        let range = standInStale ? 0..<screenHeight : rows
        guard !range.isEmpty else { return }
        let offset = range.lowerBound * stride
        let count = standInStale ? standIn.length : range.count * stride
        standInStale = true
        var done = 0
        while done < count {
            let n = pwrite(standIn.fd, visibleBase + offset + done, count - done, off_t(offset + done))
            if n < 0 {
                let e = Errno.current
                if e == .interrupted { continue }
                throw DisplayError(display: name, message: filled("cannot write the stand-in file: {} (is the file system full?); the frame is written again at the next one", e.description))
            }
            if n == 0 {
                throw DisplayError(display: name, message: "cannot write the stand-in file: no byte written; the frame is written again at the next one")
            }
            done += n
        }
        standInStale = false
    }

    private func pan(to buffer: Int) throws(Errno) {
        guard let fd = device else { return }
        variableInfo.xoffset = 0
        variableInfo.yoffset = UInt32(buffer * screenHeight)
        try fd.panFramebuffer(&variableInfo)
        front = buffer
    }

    public func clear() throws(DisplayError) {
        guard !closed else { throw DisplayError(display: name, message: "cleared after close") }
        try checkStandIn()
        if isDoubleBuffered {
            writer.fillBackground(buffers.0, rowPixels: screenWidth, rows: screenHeight)
            writer.fillBackground(buffers.1, rowPixels: screenWidth, rows: screenHeight)
            staleBack = nil
        } else {
            writer.fillBackground(visibleBase, rowPixels: screenWidth, rows: screenHeight)
        }
        // The screen now shows an all-transparent canvas (so far in memory: a failed write leaves
        // the file stale, to be written whole at the next frame).
        shown.setTransparent()
        try writeStandIn(rows: 0..<screenHeight)
    }

    /// Gives the screen back: the console's text mode, then the original virtual screen (fbcon,
    /// back in text mode, adopts it) and pan position, then the mapping and the descriptor.
    /// Safe to call twice.
    public func close() {
        if closed { return }
        closed = true
        console = nil   // deinit restores the console mode: fbcon takes the screen back
        if let device {
            if var original = originalInfo {
                original.activate = UInt32(FB_ACTIVATE_NOW)
                try? device.setFramebufferVariableInfo(&original)
            } else if isDoubleBuffered && front != 0 {
                variableInfo.yoffset = 0
                try? device.panFramebuffer(&variableInfo)
            }
        }
        memory = nil    // deinit unmaps and closes
    }
}

/// A display's warning at open, on standard error with the syslog priority of a warning: the
/// `warn` handler of the fb, drm and auto displays when none is given. One named function, so the
/// code the compiler specialises for it exists once for the drm and auto paths.
func warnOnStandardError(_ text: String) { standardErrorLine(StandardErrorPriority.prefix(4) + text) }

/// A warning while a display opens: kept in its `warnings` and passed to `warn` as `NAME: MESSAGE`.
/// One copy for the fb and drm displays (inlined, it was copied to each of their seven warnings).
@inline(never) func noteOpenWarning(_ message: String, of display: String, in warnings: inout [String], _ warn: (String) -> Void) {
    warnings.append(message)
    warn(filled("{}: {}", display, message))
}

/// Writes one line to standard error, unbuffered (warnings at open, before any logger exists).
func standardErrorLine(_ text: String) {
    var line = text
    line.append("\n")
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
