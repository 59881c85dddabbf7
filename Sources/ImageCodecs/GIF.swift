import Raster
import CGIF
import CompactText

/// One frame of an animated GIF: a full-size image and how long it stays on screen.
public struct GIFFrame: Sendable, Hashable {
    public var image: RGBImage
    /// Display time in centiseconds (1/100 s). Players treat delays below 2 (some below
    /// 6) as "as fast as possible" / 10 cs, so animations should use delays ≥ 2, i.e. the CLI
    /// should accept at most 50 frames per second; `GIF.delays(frameCount:fps:)` helps.
    public var delay: UInt16

    public init(_ image: RGBImage, delay: UInt16) {
        self.image = image
        self.delay = delay
    }
}

/// Animated GIF (GIF89a) through giflib 5.2.
///
/// Writing: every frame is stored whole (no inter-frame diffing or transparency), with a
/// Graphics Control Extension holding its delay (disposal "do not dispose"), and a
/// NETSCAPE2.0 application extension makes the animation loop forever.
///
/// Colour: if all frames together use at most 256 distinct colours they share one exact global
/// palette. Otherwise each frame gets a local palette: exact when that frame alone has at most
/// 256 colours, else quantized by our own median cut (on the exact 8-bit colour histogram,
/// splitting the box with the widest channel range at its pixel-weighted median, up to 256
/// boxes) refined by two k-means steps (colours re-mapped to the nearest entry, entries
/// re-averaged). Deterministic, no dithering. giflib's `GifQuantizeBuffer` was tried first and
/// dropped: it works on a 5-bit histogram (white comes out #F8F8F8) and its cuts left channel
/// errors up to 44 on a smooth 64×64 gradient.
public enum GIF {
    /// Per-frame delays (centiseconds) for `frameCount` frames at `fps` frames per second,
    /// rounded so the total stays exact (30 fps gives 3, 4, 3, 3, 4, 3, …). Meant for
    /// 1...50 fps: above 50 some delays fall below 2 cs and players slow them down.
    public static func delays(frameCount: Int, fps: Int) -> [UInt16] {
        precondition(fps > 0 && frameCount >= 0, "fps must be positive and frameCount non-negative")
        func at(_ i: Int) -> Int { (i * 200 / fps + 1) / 2 }  // round(i × 100 / fps)
        return (0..<frameCount).map { UInt16(clamping: at($0 + 1) - at($0)) }
    }

    /// The GIF encoding of `frames`, which must be non-empty and all the same size
    /// (at most 65535 × 65535).
    public static func encode(_ frames: [GIFFrame]) throws(ImageCodecError) -> [UInt8] {
        func fail(_ reason: String) -> ImageCodecError { ImageCodecError(.encode, format: .gif, reason: reason) }
        guard let first = frames.first else { throw fail("no frames") }
        let width = first.image.width, height = first.image.height
        guard width <= 0xFFFF, height <= 0xFFFF else { throw fail("image size \(width)x\(height) exceeds 65535x65535") }
        for (i, frame) in frames.enumerated() where frame.image.width != width || frame.image.height != height {
            throw fail("frame \(i) is \(frame.image.width)x\(frame.image.height), frame 0 is \(width)x\(height)")
        }

        // Palettes and index buffers.
        let global = ExactPalette(frames.lazy.map { $0.image })
        var indexed: [(palette: [UInt32]?, indices: [UInt8])] = []
        indexed.reserveCapacity(frames.count)
        for frame in frames {
            if let global {
                indexed.append((nil, global.indices(of: frame.image)))
            } else if let local = ExactPalette(CollectionOfOne(frame.image)) {
                indexed.append((local.colors, local.indices(of: frame.image)))
            } else {
                let (palette, indices) = quantize(frame.image)
                indexed.append((palette, indices))
            }
        }

        let sink = ByteSink()
        var openError: Int32 = 0
        let userData = Unmanaged.passUnretained(sink).toOpaque()
        guard let gif = EGifOpen(userData, { gif, data, count in
            guard let gif, let data, count > 0 else { return 0 }
            let sink = Unmanaged<ByteSink>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(count)))
            return count
        }, &openError) else {
            throw fail(reason(openError))
        }
        var failure: String? = nil
        withExtendedLifetime(sink) {
            failure = emit(gif, width: width, height: height, globalPalette: global?.colors,
                           frames: frames, indexed: &indexed)
            let pending = failure == nil ? 0 : gif.pointee.Error
            var closeError: Int32 = 0
            if EGifCloseFile(gif, &closeError) == GIF_ERROR, failure == nil {
                failure = reason(closeError)
            } else if let f = failure, f.isEmpty {
                failure = reason(pending)
            }
        }
        if let failure { throw fail(failure) }
        return sink.bytes
    }

    /// Writes `frames` to `path` as an animated GIF.
    public static func write(_ frames: [GIFFrame], to path: String) throws(ImageCodecError) {
        let bytes: [UInt8]
        do { bytes = try encode(frames) } catch { throw error.at(path: path, .write) }
        try FileIO.writeFile(bytes, to: path)
    }

    /// Decodes every frame as a full-screen image, compositing each frame onto the previous
    /// one as a player would (image position, transparent index and disposal modes 1–3 are
    /// honoured; the screen starts as the global palette's background colour, or black).
    public static func decode(_ bytes: [UInt8]) throws(ImageCodecError) -> [GIFFrame] {
        func fail(_ reason: String) -> ImageCodecError { ImageCodecError(.decode, format: .gif, reason: reason) }
        let source = ByteSource(bytes)
        var openError: Int32 = 0
        let userData = Unmanaged.passUnretained(source).toOpaque()
        guard let gif = DGifOpen(userData, { gif, buffer, count in
            guard let gif, let buffer, count > 0 else { return 0 }
            let source = Unmanaged<ByteSource>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            let n = min(Int(count), source.bytes.count - source.offset)
            if n > 0 {
                source.bytes.withUnsafeBufferPointer { all in
                    buffer.update(from: all.baseAddress! + source.offset, count: n)
                }
                source.offset += n
            }
            return Int32(n)
        }, &openError) else {
            throw fail(reason(openError))
        }
        var result: Result<[GIFFrame], ImageCodecError> = .success([])
        withExtendedLifetime(source) {
            if DGifSlurp(gif) == GIF_ERROR {
                result = .failure(fail(reason(gif.pointee.Error)))
            } else {
                result = composite(gif)
            }
            var closeError: Int32 = 0
            _ = DGifCloseFile(gif, &closeError)
        }
        return try result.get()
    }

    /// Reads every frame of the GIF at `path` (see `decode(_:)`).
    public static func read(path: String) throws(ImageCodecError) -> [GIFFrame] {
        let bytes = try FileIO.readFile(path)
        do { return try decode(bytes) } catch { throw error.at(path: path, .read) }
    }

    // MARK: Writing

    /// Writes the stream after the header; returns nil on success, "" when giflib failed
    /// (the caller reads `gif.Error`), or our own message.
    private static func emit(_ gif: UnsafeMutablePointer<GifFileType>, width: Int, height: Int,
                             globalPalette: [UInt32]?, frames: [GIFFrame],
                             indexed: inout [(palette: [UInt32]?, indices: [UInt8])]) -> String? {
        EGifSetGifVersion(gif, true)
        let globalMap = globalPalette.map(makeColorMap)
        if let globalMap, globalMap == nil { return "cannot allocate the colour map" }
        defer { if let map = globalMap ?? nil { GifFreeMapObject(map) } }
        guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, globalMap ?? nil) == GIF_OK else { return "" }

        // Loop forever: NETSCAPE2.0 application extension, sub-block 1, loop count 0.
        let netscape = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, 0, 0]
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
              EGifPutExtensionBlock(gif, Int32(netscape.count), netscape) == GIF_OK,
              EGifPutExtensionBlock(gif, Int32(loop.count), loop) == GIF_OK,
              EGifPutExtensionTrailer(gif) == GIF_OK else { return "" }

        for i in frames.indices {
            var gcb = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                           DelayTime: Int32(frames[i].delay), TransparentColor: NO_TRANSPARENT_COLOR)
            var extensionBytes = [UInt8](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&gcb, &extensionBytes)
            guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK else { return "" }

            let localMap = indexed[i].palette.map(makeColorMap)
            if let localMap, localMap == nil { return "cannot allocate the colour map" }
            defer { if let map = localMap ?? nil { GifFreeMapObject(map) } }
            guard EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, localMap ?? nil) == GIF_OK else { return "" }
            // One call for the whole frame (giflib masks the indices in place, hence inout).
            let ok = indexed[i].indices.withUnsafeMutableBufferPointer { line in
                EGifPutLine(gif, line.baseAddress, Int32(line.count))
            }
            guard ok == GIF_OK else { return "" }
        }
        return nil
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

    /// A 256-colour palette and index buffer for a frame with more than 256 colours (see the
    /// type's comment). Deterministic: the same image always gives the same bytes.
    static func quantize(_ image: RGBImage) -> ([UInt32], [UInt8]) {
        let bytes = image.bytes
        let n = image.width * image.height
        @inline(__always) func key(_ p: Int) -> UInt32 {
            UInt32(bytes[3 * p]) << 16 | UInt32(bytes[3 * p + 1]) << 8 | UInt32(bytes[3 * p + 2])
        }
        // Histogram of distinct colours, sorted so the result does not depend on hash order.
        var counts: [UInt32: Int] = [:]
        for p in 0..<n { counts[key(p), default: 0] += 1 }
        var entries = counts.map { (color: $0.key, count: $0.value) }
        entries.sort { $0.color < $1.color }

        @inline(__always) func channel(_ c: UInt32, _ k: Int) -> Int { Int((c >> UInt32(16 - 8 * k)) & 0xFF) }
        struct Box { var start: Int; var end: Int; var extent: Int; var axis: Int }
        func box(_ start: Int, _ end: Int) -> Box {
            var lo = [255, 255, 255], hi = [0, 0, 0]
            for e in entries[start..<end] {
                for k in 0..<3 { let v = channel(e.color, k); lo[k] = min(lo[k], v); hi[k] = max(hi[k], v) }
            }
            var axis = 0
            for k in 1..<3 where hi[k] - lo[k] > hi[axis] - lo[axis] { axis = k }
            return Box(start: start, end: end, extent: hi[axis] - lo[axis], axis: axis)
        }

        // Median cut: split the box with the widest channel range at its weighted median.
        var boxes = [box(0, entries.count)]
        while boxes.count < 256 {
            var pick = -1
            for (i, b) in boxes.enumerated() where b.end - b.start >= 2 && b.extent > 0 {
                if pick < 0 || b.extent > boxes[pick].extent { pick = i }
            }
            if pick < 0 { break }
            let b = boxes[pick]
            entries[b.start..<b.end].sort {
                let x = channel($0.color, b.axis), y = channel($1.color, b.axis)
                return x != y ? x < y : $0.color < $1.color
            }
            let total = entries[b.start..<b.end].reduce(0) { $0 + $1.count }
            var split = b.start + 1, running = 0
            for i in b.start..<(b.end - 1) {
                running += entries[i].count
                split = i + 1
                if 2 * running >= total { break }
            }
            boxes[pick] = box(b.start, split)
            boxes.append(box(split, b.end))
        }

        // Palette = weighted mean of each box; then two Lloyd (k-means) steps: map every
        // colour to its nearest entry and re-average.
        var assignment = [Int](repeating: 0, count: entries.count)
        for (k, b) in boxes.enumerated() { for i in b.start..<b.end { assignment[i] = k } }
        var palette = [UInt32](repeating: 0, count: boxes.count)
        func average() {
            var sums = [(r: Int, g: Int, b: Int, n: Int)](repeating: (0, 0, 0, 0), count: palette.count)
            for (i, e) in entries.enumerated() {
                let k = assignment[i]
                sums[k].r += channel(e.color, 0) * e.count; sums[k].g += channel(e.color, 1) * e.count
                sums[k].b += channel(e.color, 2) * e.count; sums[k].n += e.count
            }
            for k in palette.indices where sums[k].n > 0 {
                let s = sums[k], h = s.n / 2
                palette[k] = UInt32((s.r + h) / s.n) << 16 | UInt32((s.g + h) / s.n) << 8 | UInt32((s.b + h) / s.n)
            }
        }
        func assignNearest() {
            for (i, e) in entries.enumerated() {
                let r = channel(e.color, 0), g = channel(e.color, 1), b = channel(e.color, 2)
                var best = assignment[i], bestDistance = Int.max
                for (k, c) in palette.enumerated() {
                    let dr = r - channel(c, 0), dg = g - channel(c, 1), db = b - channel(c, 2)
                    let d = dr * dr + dg * dg + db * db
                    if d < bestDistance { bestDistance = d; best = k }
                }
                assignment[i] = best
            }
        }
        average()
        for _ in 0..<2 { assignNearest(); average() }
        assignNearest()

        var indexOf: [UInt32: UInt8] = [:]
        indexOf.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { indexOf[e.color] = UInt8(assignment[i]) }
        var indices = [UInt8](repeating: 0, count: n)
        for p in 0..<n { indices[p] = indexOf[key(p)]! }
        return (palette, indices)
    }

    // MARK: Reading

    private static func composite(_ gif: UnsafeMutablePointer<GifFileType>) -> Result<[GIFFrame], ImageCodecError> {
        func fail(_ reason: String) -> Result<[GIFFrame], ImageCodecError> {
            .failure(ImageCodecError(.decode, format: .gif, reason: reason))
        }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        do { _ = try RGBImage.checkedByteCount(width: width, height: height, format: .gif) } catch { return .failure(error) }
        let count = Int(gif.pointee.ImageCount)
        guard count > 0, let saved = gif.pointee.SavedImages else { return fail("no images") }

        func color(_ map: UnsafeMutablePointer<ColorMapObject>?, _ index: Int) -> (UInt8, UInt8, UInt8) {
            guard let map, let colors = map.pointee.Colors, index >= 0, index < Int(map.pointee.ColorCount) else { return (0, 0, 0) }
            return (colors[index].Red, colors[index].Green, colors[index].Blue)
        }
        let bg = gif.pointee.SColorMap == nil ? (UInt8(0), UInt8(0), UInt8(0)) : color(gif.pointee.SColorMap, Int(gif.pointee.SBackGroundColor))
        var screen = RGBImage(width: width, height: height, fill: .init(r: bg.0, g: bg.1, b: bg.2))
        var frames: [GIFFrame] = []
        frames.reserveCapacity(count)
        for i in 0..<count {
            let image = saved[i]
            let desc = image.ImageDesc
            var gcb = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                                           TransparentColor: NO_TRANSPARENT_COLOR)
            _ = DGifSavedExtensionToGCB(gif, Int32(i), &gcb)
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap else { return fail("frame \(i) has no colour map") }
            let before = gcb.DisposalMode == DISPOSE_PREVIOUS ? screen : nil
            let left = Int(desc.Left), top = Int(desc.Top), w = Int(desc.Width), h = Int(desc.Height)
            if let raster = image.RasterBits, w > 0, h > 0 {
                for row in 0..<h where top + row >= 0 && top + row < height {
                    for col in 0..<w where left + col >= 0 && left + col < width {
                        let index = Int(raster[row * w + col])
                        if index == Int(gcb.TransparentColor) { continue }
                        let (r, g, b) = color(map, index)
                        let o = ((top + row) * width + left + col) * 3
                        screen.bytes[o] = r; screen.bytes[o + 1] = g; screen.bytes[o + 2] = b
                    }
                }
            }
            frames.append(GIFFrame(screen, delay: UInt16(clamping: gcb.DelayTime)))
            if gcb.DisposalMode == DISPOSE_BACKGROUND {
                for y in max(0, top)..<min(height, top + h) {
                    for x in max(0, left)..<min(width, left + w) {
                        let o = (y * width + x) * 3
                        screen.bytes[o] = bg.0; screen.bytes[o + 1] = bg.1; screen.bytes[o + 2] = bg.2
                    }
                }
            } else if let before {
                screen = before
            }
        }
        return .success(frames)
    }

    // MARK: Helpers

    static func reason(_ code: Int32) -> String {
        if let text = GifErrorString(code) { return "giflib: " + String(cString: text) }
        return "giflib error \(code)"
    }

    private final class ByteSink { var bytes: [UInt8] = [] }

    private final class ByteSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// A palette of at most 256 exact colours and the lookup from colour to index.
    private struct ExactPalette {
        var colors: [UInt32] = []
        var index: [UInt32: UInt8] = [:]

        /// Nil when the images use more than 256 distinct colours.
        init?<S: Sequence<RGBImage>>(_ images: S) {
            for image in images {
                let bytes = image.bytes
                var last: UInt32 = .max
                var i = 0
                while i < bytes.count {
                    let key = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                    i += 3
                    if key == last { continue }
                    last = key
                    if index[key] == nil {
                        if colors.count == 256 { return nil }
                        index[key] = UInt8(colors.count)
                        colors.append(key)
                    }
                }
            }
        }

        func indices(of image: RGBImage) -> [UInt8] {
            let bytes = image.bytes
            var out = [UInt8](repeating: 0, count: bytes.count / 3)
            for p in out.indices {
                let key = UInt32(bytes[3 * p]) << 16 | UInt32(bytes[3 * p + 1]) << 8 | UInt32(bytes[3 * p + 2])
                out[p] = index[key]!
            }
            return out
        }
    }
}
