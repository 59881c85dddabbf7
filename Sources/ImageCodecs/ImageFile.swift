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
}
