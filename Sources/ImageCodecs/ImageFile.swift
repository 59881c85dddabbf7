import Raster
import CompactText

/// Format-by-extension reads and writes (`ImageFormat(path:)` picks the codec).
public enum ImageFile {
    /// Writes one image to `path` in the format its extension names (a GIF gets a single
    /// frame).
    public static func write(_ image: RGBImage, to path: String) throws(ImageCodecError) {
        switch try ImageFormat(path: path) {
        case .ppm: try PPM.write(image, to: path)
        case .png: try PNG.write(image, to: path)
        case .gif: try GIF.write([GIFFrame(image, delay: 0)], to: path)
        }
    }

    /// Reads the image at `path` (a GIF's first frame) in the format its extension names.
    public static func read(path: String) throws(ImageCodecError) -> RGBImage {
        switch try ImageFormat(path: path) {
        case .ppm: return try PPM.read(path: path)
        case .png: return try PNG.read(path: path)
        case .gif:
            let frames = try GIF.read(path: path)
            return frames[0].image
        }
    }

    /// A still image, PNG or binary PPM (P6), told apart by its first bytes rather than by its
    /// name: a PNG's transparency composited over `background`; a file over `maxBytes` or an
    /// image over `maxPixels` refused. For a boot screen's logo, where a PPM needs no libpng (nor
    /// the static builds' helper, loaderd-media, which reads PNGs for them).
    public static func readStill(path: String, background: Color = .black, maxBytes: Int = Int.max,
                                 maxPixels: Int = RGBImage.maximumPixelCount) throws(ImageCodecError) -> RGBImage {
        let bytes = try FileIO.readFile(path, maxBytes: maxBytes)
        do throws(ImageCodecError) {
            if bytes.count >= 2 && bytes[0] == UInt8(ascii: "P") && bytes[1] == UInt8(ascii: "6") {
                let image = try PPM.decode(bytes)
                guard image.width * image.height <= maxPixels else {
                    throw ImageCodecError(.decode, format: .ppm, reason: filled("{}x{} is more than {} pixels", String(image.width), String(image.height), String(maxPixels)))
                }
                return image
            }
            guard bytes.count >= 8, bytes[0..<8].elementsEqual(PNG.signature) else {
                throw ImageCodecError(.decode, format: .png, reason: "neither a PNG nor a binary PPM (P6) file (it starts with neither's signature)")
            }
            return try PNG.decode(bytes, background: background, maxPixels: maxPixels)
        } catch { throw error.at(path: path, .read) }
    }
}
