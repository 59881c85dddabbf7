import Raster
import CGIF
import CLinux
import LinuxSystem
import CompactText

/// An animated GIF written one frame at a time: each frame is indexed and compressed when it is
/// added and its bytes go to the file then, so memory holds the frame being written and a 64 KiB
/// buffer, whatever the length (a 20 s 1920x1080 animation held whole was 4 GB).
///
/// The stream is `GIF`'s (see its comment): a global palette, a NETSCAPE2.0 loop, then per frame
/// a Graphics Control Extension and the image, with a local palette when the global one lacks
/// one of its colours (exact when the frame has at most 256, else quantized). Nothing later
/// can change the header, so the global palette is known at the first frame: the colours of
/// every frame when the caller has them all (`GIF.encode`), else the first frame's.
public final class GIFWriter {
    /// Where the global colour table comes from.
    public enum GlobalPalette: Sendable {
        /// The first frame's colours, when at most 256 (else none): later frames drawn in them
        /// share it, others carry their own.
        case firstFrame
        /// These colours (0xRRGGBB, at most 256, each once).
        case colors([UInt32])
    }

    private let path: String?
    private let choice: GlobalPalette
    private let sink: Sink
    private var gif: UnsafeMutablePointer<GifFileType>? = nil
    private var global: GIFExactPalette? = nil
    private var size = (width: 0, height: 0)
    private var count = 0
    private var finished = false

    /// Writes to `path` (created, or truncated, with mode 0644 less the umask); an error names it.
    public init(path: String, global: GlobalPalette = .firstFrame) throws(ImageCodecError) {
        let fd = loaderd_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImageCodecError(.write, path: path, reason: FileIO.systemReason(errno)) }
        self.path = path
        self.choice = global
        self.sink = Sink(fd: fd)
    }

    /// Collects the bytes in memory (`GIF.encode`).
    init(global: GlobalPalette) {
        self.path = nil
        self.choice = global
        self.sink = Sink(fd: -1)
    }

    deinit {
        // Abandoned after an error: release giflib's state and the file (left as written so far).
        if let gif { var error: Int32 = 0; _ = EGifCloseFile(gif, &error) }
        if sink.fd >= 0 { close(sink.fd) }
    }

    /// The bytes written, for a writer made without a path, once `finish()` has returned.
    var bytes: [UInt8] { sink.buffer }

    /// Indexes, compresses and writes `frame`. Every frame must be the size of the first
    /// (at most 65535 x 65535).
    public func add(_ frame: GIFFrame) throws(ImageCodecError) {
        precondition(!finished, "GIFWriter.add after finish")
        let image = frame.image
        if count == 0 {
            guard image.width <= 0xFFFF, image.height <= 0xFFFF else {
                throw fail(filled("image size {}x{} exceeds 65535x65535", String(image.width), String(image.height)))
            }
            size = (image.width, image.height)
            switch choice {
            case .firstFrame: global = GIFExactPalette(CollectionOfOne(image))
            case .colors(let colors): global = GIFExactPalette(colors: colors)
            }
            try begin()
        } else if image.width != size.width || image.height != size.height {
            throw fail(filled("frame {} is {}, frame 0 is {}", String(count), filled("{}x{}", String(image.width), String(image.height)), filled("{}x{}", String(size.width), String(size.height))))
        }
        var indices: [UInt8]
        var local: [UInt32]? = nil
        if let shared = global?.indices(of: image) {
            indices = shared
        } else if let exact = GIFExactPalette(CollectionOfOne(image)), let own = exact.indices(of: image) {
            (local, indices) = (exact.colors, own)
        } else {
            (local, indices) = GIF.quantize(image)
        }
        try put(frame.delay, local: local, indices: &indices)
        count += 1
    }

    /// Ends the stream and closes the file. At least one frame must have been added.
    public func finish() throws(ImageCodecError) {
        precondition(!finished, "GIFWriter.finish twice")
        finished = true
        guard let gif else { throw fail("no frames") }
        self.gif = nil
        var closeError: Int32 = 0
        if EGifCloseFile(gif, &closeError) == GIF_ERROR { throw fail(sink.failure ?? GIF.reason(closeError)) }
        if let failure = sink.flush() { throw fail(failure) }
        if sink.fd >= 0 {
            let fd = sink.fd
            sink.fd = -1
            if close(fd) != 0 { throw fail(FileIO.systemReason(errno)) }
        }
    }

    // MARK: The stream

    /// The header: screen descriptor with the global palette, and the loop extension.
    private func begin() throws(ImageCodecError) {
        var openError: Int32 = 0
        let userData = Unmanaged.passUnretained(sink).toOpaque()
        guard let gif = EGifOpen(userData, { gif, data, count in
            guard let gif, let data, count > 0 else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            return sink.append(data, Int(count)) ? count : 0
        }, &openError) else {
            throw fail(GIF.reason(openError))
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
        let globalMap = global.map { Self.makeColorMap($0.colors) }
        if let globalMap, globalMap == nil { throw fail("cannot allocate the colour map") }
        defer { if let map = globalMap ?? nil { GifFreeMapObject(map) } }
        guard EGifPutScreenDesc(gif, Int32(size.width), Int32(size.height), 8, 0, globalMap ?? nil) == GIF_OK else {
            throw giflibFailure(gif)
        }
        // Loop forever: NETSCAPE2.0 application extension, sub-block 1, loop count 0.
        let netscape = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, 0, 0]
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
              EGifPutExtensionBlock(gif, Int32(netscape.count), netscape) == GIF_OK,
              EGifPutExtensionBlock(gif, Int32(loop.count), loop) == GIF_OK,
              EGifPutExtensionTrailer(gif) == GIF_OK else { throw giflibFailure(gif) }
    }

    /// One frame: its delay (Graphics Control Extension, "do not dispose"), then the image.
    private func put(_ delay: UInt16, local: [UInt32]?, indices: inout [UInt8]) throws(ImageCodecError) {
        guard let gif else { return }
        var gcb = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                       DelayTime: Int32(delay), TransparentColor: NO_TRANSPARENT_COLOR)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&gcb, &extensionBytes)
        guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK else {
            throw giflibFailure(gif)
        }
        let localMap = local.map(Self.makeColorMap)
        if let localMap, localMap == nil { throw fail("cannot allocate the colour map") }
        defer { if let map = localMap ?? nil { GifFreeMapObject(map) } }
        guard EGifPutImageDesc(gif, 0, 0, Int32(size.width), Int32(size.height), false, localMap ?? nil) == GIF_OK else {
            throw giflibFailure(gif)
        }
        // One call for the whole frame (giflib masks the indices in place, hence inout).
        let ok = indices.withUnsafeMutableBufferPointer { line in EGifPutLine(gif, line.baseAddress, Int32(line.count)) }
        guard ok == GIF_OK else { throw giflibFailure(gif) }
    }

    /// A giflib colour map holding `colors` (0xRRGGBB), padded to a power of two ≥ 2.
    private static func makeColorMap(_ colors: [UInt32]) -> UnsafeMutablePointer<ColorMapObject>? {
        var size = 2
        while size < colors.count { size *= 2 }
        var entries = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for (i, c) in colors.enumerated() {
            entries[i] = GifColorType(Red: UInt8(truncatingIfNeeded: c >> 16), Green: UInt8(truncatingIfNeeded: c >> 8),
                                      Blue: UInt8(truncatingIfNeeded: c))
        }
        return GifMakeMapObject(Int32(size), entries)
    }

    /// A giflib call failed: the file's own error (a full disk) when writing it failed, else giflib's.
    private func giflibFailure(_ gif: UnsafeMutablePointer<GifFileType>) -> ImageCodecError {
        fail(sink.failure ?? GIF.reason(gif.pointee.Error))
    }

    /// Errors name the file when there is one ("cannot write x.gif: ..."), else the data.
    private func fail(_ reason: String) -> ImageCodecError {
        let error = ImageCodecError(.encode, format: .gif, reason: reason)
        return path.map { error.at(path: $0, .write) } ?? error
    }

    /// giflib's output: into memory, or buffered on the way to the file (giflib hands over at
    /// most 255 bytes at a time; one write(2) each would be thousands per frame).
    private final class Sink {
        static let chunk = 1 << 16
        var fd: Int32
        var buffer: [UInt8] = []
        /// Why writing the file failed, once it has.
        var failure: String? = nil

        init(fd: Int32) {
            self.fd = fd
            if fd >= 0 { buffer.reserveCapacity(Self.chunk) }
        }

        func append(_ data: UnsafePointer<GifByteType>, _ count: Int) -> Bool {
            guard failure == nil else { return false }
            buffer.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
            return fd < 0 || buffer.count < Self.chunk || flush() == nil
        }

        /// Writes out what is buffered (a file only); the failure, or nil.
        func flush() -> String? {
            guard fd >= 0, failure == nil, !buffer.isEmpty else { return failure }
            let code = FileIO.writeAll(fd: fd, bytes: buffer)
            buffer.removeAll(keepingCapacity: true)
            if code != 0 { failure = FileIO.systemReason(code) }
            return failure
        }
    }
}
