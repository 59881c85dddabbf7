import CLinux
import LinuxSystem
import ImageCodecs
import Raster
import CompactText

/// `image:path=FILE,size=WxH[,background=COLOR][,fps=N]`: each changed frame is written to FILE
/// (`.ppm` or `.png`, by extension), atomically: into a temporary file in the same directory, then
/// renamed over FILE, so a reader never sees half a frame. An unchanged frame writes nothing.
/// For tests, screenshots and headless machines.
public final class ImageDisplay: Display {
    public static let acceptedKeys = ["path", "size", "background", "fps"]
    /// What it writes (not GIF: one file rewritten per frame, not an animation).
    static let formats: [ImageFormat] = [.ppm, .png]

    public let name: String
    public let canvasWidth: Int
    public let canvasHeight: Int
    public let framesPerSecond: Int
    public let path: String
    public let background: Color
    let format: ImageFormat
    let temporaryPath: String

    /// RGB bytes of the frame on disk, and the frame being made (swapped, never reallocated).
    private var written: [UInt8]
    private var next: [UInt8]
    private var hasWritten = false
    /// For PPM: header + pixels, made once; the pixels are copied in per frame.
    private var ppm: [UInt8]
    private let ppmHeaderCount: Int
    /// Files written (frames that changed).
    public private(set) var writes = 0

    public static func open(_ spec: DisplaySpec) throws(DisplaySpecError) -> ImageDisplay {
        let o = try readOptions(spec)
        return ImageDisplay(path: o.path, format: o.format, width: o.size.width, height: o.size.height,
                            background: o.background, fps: o.fps)
    }

    /// The spec's keys and values checked, nothing made (`open`, and `--check-config`).
    public static func checkOptions(_ spec: DisplaySpec) throws(DisplaySpecError) { _ = try readOptions(spec) }

    static func readOptions(_ spec: DisplaySpec) throws(DisplaySpecError)
        -> (path: String, format: ImageFormat, size: (width: Int, height: Int), background: Color, fps: Int) {
        try spec.checkKeys(acceptedKeys)
        // What is wrong with path=, thrown once below (for size: each throw site is code of its own).
        var why = "missing path=FILE (.ppm or .png)"
        if let path = spec["path"], !path.isEmpty {
            var format: ImageFormat? = nil
            do { format = try ImageFormat(path: path, expected: formats) } catch { why = filled("path='{}': {}", path, error.description) }
            if let format {
                if formats.contains(format) {
                    return (path, format, try spec.size(default: nil), try spec.color("background", default: .black), try spec.framesPerSecond())
                }
                why = filled("path='{}': the image display writes .ppm or .png, not .{}", path, format.rawValue)
            }
        }
        throw DisplaySpecError(spec: spec.description, message: why)
    }

    init(path: String, format: ImageFormat, width: Int, height: Int, background: Color, fps: Int) {
        self.path = path
        self.format = format
        self.canvasWidth = width
        self.canvasHeight = height
        self.background = Color(r: background.r, g: background.g, b: background.b)
        self.framesPerSecond = fps
        self.name = "image:" + path
        // Same directory, so rename(2) is atomic; a dot name so globbing readers skip it.
        if let slash = path.lastIndex(of: "/") {
            let name = path.utf8.index(after: slash)  // a byte after the slash, not a Character (for size)
            temporaryPath = filled("{}.{}.tmp", String(path[..<name]), String(path[name...]))
        } else {
            temporaryPath = filled(".{}.tmp", path)
        }
        // Two buffers of their own: `next = written` would share one, and the first frame would
        // pay for copying it (copy on write) before drawing into it.
        written = [UInt8](repeating: 0, count: width * height * 3)
        next = [UInt8](repeating: 0, count: width * height * 3)
        let header = Array(filled("P6\n{} {}\n255\n", String(width), String(height)).utf8)
        ppmHeaderCount = header.count
        // Zeroed at its full size, then the header: `header + zeros` appends byte by byte.
        ppm = [UInt8](repeating: 0, count: header.count + width * height * 3)
        for (i, byte) in header.enumerated() { ppm[i] = byte }
    }

    public func show(_ canvas: Canvas) throws(DisplayError) {
        precondition(canvas.width == canvasWidth && canvas.height == canvasHeight, "canvas size differs from the display's")
        RGBImage.composite(canvas, over: background, into: &next)
        try commit()
    }

    public func clear() throws(DisplayError) {
        let background = self.background
        next.withUnsafeMutableBufferPointer { out in
            var o = 0
            while o < out.count { out[o] = background.r; out[o + 1] = background.g; out[o + 2] = background.b; o += 3 }
        }
        try commit()
    }

    public func close() {}

    /// Writes `next` if it differs from what is on disk. Only a write that succeeded makes `next`
    /// the frame on disk: after a failure (a full disk) the same frame differs from `written`
    /// still, so the next frame tries again instead of taking the stale file for current.
    private func commit() throws(DisplayError) {
        if hasWritten && sameBytes(next, written) { return }
        switch format {
        case .png:
            let encoded: [UInt8]
            do { encoded = try PNG.encode(RGBImage(width: canvasWidth, height: canvasHeight, bytes: next)) } catch {
                throw DisplayError(display: name, message: error.description)
            }
            try replaceFile(with: encoded)
        default:
            let headerCount = ppmHeaderCount
            ppm.withUnsafeMutableBufferPointer { out in
                next.withUnsafeBufferPointer { src in
                    UnsafeMutableRawPointer(out.baseAddress! + headerCount).copyMemory(from: src.baseAddress!, byteCount: src.count)
                }
            }
            try replaceFile(with: ppm)
        }
        swap(&next, &written)
        hasWritten = true
        writes += 1
    }

    /// `==` on two byte arrays compares element by element (~3 instructions a byte, every frame);
    /// memcmp does it a word at a time.
    private func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    private func replaceFile(with bytes: [UInt8]) throws(DisplayError) {
        func failure(_ what: String, _ code: Int32) -> DisplayError {
            let reason = loaderd_strerror(code).map { String(cString: $0) } ?? filled("error {}", String(code))
            return DisplayError(display: name, message: filled("{}: {}", what, reason))
        }
        // O_NONBLOCK: a FIFO at the temporary path would block the daemon in open(2) for good
        // (no reader) where no signal ends it; it is refused, and left alone, as it is not ours.
        let fd = loaderd_open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        guard fd >= 0 else {
            let e = errno
            // ENXIO from a non-blocking open for writing: a FIFO nobody reads.
            if e == ENXIO { throw DisplayError(display: name, message: filled("cannot write {}: it is a FIFO, not a regular file; remove it or choose another path", temporaryPath)) }
            throw failure(filled("cannot create {}", temporaryPath), e)
        }
        if let refusal = RegularFile.refusal(fd) {
            _ = CLinux.close(fd)
            throw DisplayError(display: name, message: filled("cannot write {}: {}", temporaryPath, refusal))
        }
        var code = FileIO.writeAll(fd: fd, bytes: bytes)
        if CLinux.close(fd) != 0 && code == 0 && errno != EINTR { code = errno }
        if code != 0 {
            unlink(temporaryPath)
            throw failure(filled("cannot write {}", temporaryPath), code)
        }
        if rename(temporaryPath, path) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw failure(filled("cannot rename {} to {}", temporaryPath, path), e)
        }
    }
}
