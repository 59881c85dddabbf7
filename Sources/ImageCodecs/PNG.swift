import CPNG
import Raster
import CompactText

/// 8-bit RGB PNG through libpng's simplified API (`png_image_*`, libpng ≥ 1.6). That API
/// reports failures as a return code plus `png_image.message` instead of longjmp-ing, so no
/// libpng error ever unwinds across Swift frames.
public enum PNG {
    /// Whether libpng can be used: always in the host build; in the static board build when its
    /// helper, loaderd-media, can load the system's libpng16.so.16 (Sources/CMedia).
    public static var isAvailable: Bool { loaderd_png_available() != 0 }

    static func unavailable(_ operation: ImageCodecError.Operation) -> ImageCodecError {
        if let helper = loaderd_png_unavailable_reason() {
            return ImageCodecError(operation, format: .png, reason: String(cString: helper))
        }
        return ImageCodecError(operation, format: .png,
                               reason: "libpng16.so.16 could not be loaded (install libpng16-16, or use a .ppm file)")
    }

    /// The PNG encoding of `image` (8-bit RGB, no alpha, non-interlaced).
    public static func encode(_ image: RGBImage) throws(ImageCodecError) -> [UInt8] {
        guard isAvailable else { throw unavailable(.encode) }
        func fresh() -> png_image {
            var png = png_image()
            png.version = png_uint_32(PNG_IMAGE_VERSION)
            png.width = png_uint_32(image.width)
            png.height = png_uint_32(image.height)
            png.format = png_uint_32(PNG_FORMAT_RGB)
            return png
        }
        // A generous first guess (raw data + deflate/chunk overhead); libpng tells us the
        // real size if it was too small and we retry once with that.
        let raw = image.bytes.count + image.height
        var capacity = raw + raw / 1024 * 16 + 1024
        for _ in 0..<2 {
            var png = fresh()
            var out = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = out.withUnsafeMutableBytes { memory in
                image.bytes.withUnsafeBytes { pixels in
                    png_image_write_to_memory(&png, memory.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
                }
            }
            let message = messageText(&png)
            png_image_free(&png)
            if ok != 0 {
                out.removeSubrange(Int(size)...)
                return out
            }
            if Int(size) > capacity {
                capacity = Int(size)
                continue
            }
            throw ImageCodecError(.encode, format: .png, reason: "libpng: " + message)
        }
        throw ImageCodecError(.encode, format: .png, reason: "libpng: output buffer still too small")
    }

    /// Decodes a PNG of any colour type and bit depth to 8-bit RGB. Images with alpha are
    /// composited over `background` (opaque; black by default).
    /// `maxPixels` refuses larger images before any pixel memory is taken.
    public static func decode(_ bytes: [UInt8], background: Color = .black,
                              maxPixels: Int = RGBImage.maximumPixelCount) throws(ImageCodecError) -> RGBImage {
        // Our own check first: libpng's words for a wrong file ("Not a PNG file") come without
        // saying what was expected, and a missing libpng would hide that the file is wrong anyway.
        guard bytes.count >= 8, bytes[0..<8].elementsEqual(signature) else {
            throw ImageCodecError(.decode, format: .png, reason: "not a PNG file (it does not start with the PNG signature)")
        }
        guard isAvailable else { throw unavailable(.decode) }
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&png) }
        let begun = bytes.withUnsafeBytes { data in
            png_image_begin_read_from_memory(&png, data.baseAddress, data.count)
        }
        guard begun != 0 else {
            throw ImageCodecError(.decode, format: .png, reason: "libpng: " + messageText(&png))
        }
        let width = Int(png.width), height = Int(png.height)
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixelCount > maxPixels {
            throw ImageCodecError(.decode, format: .png, reason: filled("the image is {}x{} pixels, more than the {} accepted", String(width), String(height), String(maxPixels)))
        }
        let count = try RGBImage.checkedByteCount(width: width, height: height, format: .png)
        png.format = png_uint_32(PNG_FORMAT_RGB)
        // With RGB (non-colour-mapped) output, libpng composites any alpha onto what is
        // already in the buffer, so the buffer starts out as the background.
        var pixels = RGBImage(width: width, height: height, fill: background).bytes
        precondition(pixels.count == count)
        let finished = pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&png, nil, out.baseAddress, 0, nil)
        }
        guard finished != 0 else {
            throw ImageCodecError(.decode, format: .png, reason: "libpng: " + messageText(&png))
        }
        return RGBImage(width: width, height: height, bytes: pixels)
    }

    /// Writes `image` to `path` as PNG.
    public static func write(_ image: RGBImage, to path: String) throws(ImageCodecError) {
        let bytes: [UInt8]
        do { bytes = try encode(image) } catch { throw error.at(path: path, .write) }
        try FileIO.writeFile(bytes, to: path)
    }

    /// Reads the PNG file at `path` (alpha composited over `background`), refusing files longer
    /// than `maxBytes` and images of more than `maxPixels`.
    public static func read(path: String, background: Color = .black, maxBytes: Int = Int.max,
                            maxPixels: Int = RGBImage.maximumPixelCount) throws(ImageCodecError) -> RGBImage {
        let bytes = try FileIO.readFile(path, maxBytes: maxBytes)
        do { return try decode(bytes, background: background, maxPixels: maxPixels) } catch { throw error.at(path: path, .read) }
    }

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png_image.message` (a NUL-terminated char[64]) as a String.
    private static func messageText(_ png: inout png_image) -> String {
        let text = withUnsafeBytes(of: &png.message) { raw -> String in
            let end = raw.firstIndex(of: 0) ?? raw.count
            return String(decoding: raw[..<end], as: UTF8.self)
        }
        return text.isEmpty ? "unknown error" : text
    }
}
