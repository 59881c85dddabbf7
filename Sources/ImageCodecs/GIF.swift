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
/// Writing (`GIFWriter`, one frame at a time): every frame is stored whole (no inter-frame
/// diffing or transparency), with a Graphics Control Extension holding its delay (disposal "do
/// not dispose"), and a NETSCAPE2.0 application extension makes the animation loop forever.
///
/// Colour: frames share one exact global palette, of all frames' colours when the writer has
/// them all beforehand and they are at most 256 (`encode`, `write`), else of the first frame's
/// (a writer fed as frames are rendered). A frame with a colour the global palette lacks gets a
/// local palette: exact when that frame alone has at most 256 colours, else quantized by our own median cut (on the exact 8-bit colour histogram,
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
        let writer = GIFWriter(global: globalPalette(frames))
        for frame in frames { try writer.add(frame) }
        try writer.finish()
        return writer.bytes
    }

    /// Writes `frames` to `path` as an animated GIF (`GIFWriter` writes one as it is rendered).
    public static func write(_ frames: [GIFFrame], to path: String) throws(ImageCodecError) {
        let writer = try GIFWriter(path: path, global: globalPalette(frames))
        for frame in frames { try writer.add(frame) }
        try writer.finish()
    }

    /// With every frame at hand: all their colours when they number at most 256.
    private static func globalPalette(_ frames: [GIFFrame]) -> GIFWriter.GlobalPalette {
        GIFExactPalette(frames.lazy.map { $0.image }).map { .colors($0.colors) } ?? .firstFrame
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
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap else { return fail(filled("frame {} has no colour map", String(i))) }
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
        return filled("giflib error {}", String(code))
    }

    private final class ByteSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}
