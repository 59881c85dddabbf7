import Raster
import CompactText

/// An opaque 8-bit RGB image: `width × height` pixels, rows top to bottom, packed `R G B` bytes
/// with no row padding. What every codec here reads and writes.
public struct RGBImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width × height × 3` bytes, row-major.
    public var bytes: [UInt8]

    /// Largest pixel count the decoders accept (guards allocations driven by file headers).
    public static let maximumPixelCount = 1 << 26

    /// An image from packed RGB bytes; `bytes.count` must be `width × height × 3`.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width > 0 && height > 0, filled("image size {}x{} must be positive", String(width), String(height)))
        precondition(bytes.count == width * height * 3, filled("expected {} RGB bytes, got {}", String(width * height * 3), String(bytes.count)))
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// An image filled with `color` (its alpha is ignored).
    public init(width: Int, height: Int, fill color: Color) {
        precondition(width > 0 && height > 0, filled("image size {}x{} must be positive", String(width), String(height)))
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var i = 0
        while i < bytes.count {
            bytes[i] = color.r; bytes[i + 1] = color.g; bytes[i + 2] = color.b
            i += 3
        }
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The canvas composited over `background`, which is treated as opaque (its alpha is
    /// ignored): each premultiplied pixel `p` becomes `p.over(background)`.
    public init(canvas: Canvas, background: Color) {
        var bytes = [UInt8](repeating: 0, count: canvas.width * canvas.height * 3)
        RGBImage.composite(canvas, over: background, into: &bytes)
        self.width = canvas.width
        self.height = canvas.height
        self.bytes = bytes
    }

    /// `init(canvas:background:)` without the allocation: writes the composited RGB bytes into
    /// `bytes`, which must hold `canvas.width × canvas.height × 3`. The image display calls this
    /// every frame with a buffer it keeps, so both share one conversion.
    public static func composite(_ canvas: Canvas, over background: Color, into bytes: inout [UInt8]) {
        precondition(bytes.count == canvas.pixels.count * 3, filled("expected {} RGB bytes, got {}", String(canvas.pixels.count * 3), String(bytes.count)))
        bytes.withUnsafeMutableBufferPointer { out in
            canvas.pixels.withUnsafeBufferPointer { pixels in
                var o = 0
                // Over black (the usual background) a premultiplied pixel is its own colour: a third
                // of the per-pixel work, which the image display does for every frame it writes.
                if background.r == 0 && background.g == 0 && background.b == 0 {
                    for p in pixels {
                        out[o] = p.r; out[o + 1] = p.g; out[o + 2] = p.b
                        o += 3
                    }
                    return
                }
                for p in pixels {
                    let c = p.over(background)
                    out[o] = c.r; out[o + 1] = c.g; out[o + 2] = c.b
                    o += 3
                }
            }
        }
    }

    /// The pixel at (x, y), opaque.
    @inlinable public subscript(x: Int, y: Int) -> Color {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, filled("pixel ({}, {}) outside {}x{}", String(x), String(y), String(width), String(height)))
            let i = (y * width + x) * 3
            return Color(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, filled("pixel ({}, {}) outside {}x{}", String(x), String(y), String(width), String(height)))
            let i = (y * width + x) * 3
            bytes[i] = newValue.r; bytes[i + 1] = newValue.g; bytes[i + 2] = newValue.b
        }
    }

    /// Checks a size read from a file header before anything is allocated for it.
    static func checkedByteCount(width: Int, height: Int, format: ImageFormat) throws(ImageCodecError) -> Int {
        guard width > 0, height > 0 else {
            throw ImageCodecError(.decode, format: format, reason: filled("invalid image size {}x{}", String(width), String(height)))
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixelCount else {
            throw ImageCodecError(.decode, format: format,
                                  reason: filled("image size {}x{} exceeds {} pixels", String(width), String(height), String(maximumPixelCount)))
        }
        return pixels * 3
    }
}

extension RGBImage {
    /// Each pixel enlarged to a `factor × factor` block (nearest neighbour): for looking at
    /// LED-sized frames on a screen, where an 8x8 image would be a speck.
    public func zoomed(by factor: Int) -> RGBImage {
        precondition(factor >= 1, "zoom factor must be at least 1")
        if factor == 1 { return self }
        let w = width * factor, h = height * factor
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let sy = y / factor
            for x in 0..<w {
                let s = (sy * width + x / factor) * 3, d = (y * w + x) * 3
                out[d] = bytes[s]; out[d + 1] = bytes[s + 1]; out[d + 2] = bytes[s + 2]
            }
        }
        return RGBImage(width: w, height: h, bytes: out)
    }
}
