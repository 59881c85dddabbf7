import CompactText

/// Binary PPM (P6): header `P6\n<width> <height>\n255\n` then packed RGB bytes.
public enum PPM {
    /// The P6 encoding of `image` (maxval 255).
    public static func encode(_ image: RGBImage) -> [UInt8] {
        var out = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        out.reserveCapacity(out.count + image.bytes.count)
        out.append(contentsOf: image.bytes)
        return out
    }

    /// Decodes the first image of a P6 stream. Accepts comments (`#` to end of line) and any
    /// whitespace between header fields, maxval 1...255 (values are rescaled to 0...255);
    /// bytes after the first image are ignored. 16-bit PPM (maxval > 255) is refused.
    public static func decode(_ bytes: [UInt8]) throws(ImageCodecError) -> RGBImage {
        func fail(_ reason: String) -> ImageCodecError { ImageCodecError(.decode, format: .ppm, reason: reason) }
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
            throw fail("not a binary PPM (P6) file")
        }
        var i = 2
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }
        func number(_ field: String) throws(ImageCodecError) -> Int {
            // Skip whitespace and comments.
            while i < bytes.count {
                if isSpace(bytes[i]) { i += 1 }
                else if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count && bytes[i] != 0x0A && bytes[i] != 0x0D { i += 1 }
                } else { break }
            }
            var value = 0
            var digits = 0
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                digits += 1
                guard value <= 1 << 24 else { throw fail(filled("{} too large", field)) }
                i += 1
            }
            guard digits > 0 else { throw fail(i < bytes.count ? filled("invalid {}", field) : filled("truncated header (missing {})", field)) }
            return value
        }
        let width = try number("width")
        let height = try number("height")
        let maxval = try number("maxval")
        guard maxval >= 1 else { throw fail("invalid maxval 0") }
        guard maxval <= 255 else { throw fail(filled("16-bit PPM (maxval {}) is not supported", String(maxval))) }
        guard i < bytes.count, isSpace(bytes[i]) else { throw fail("truncated header (no whitespace after maxval)") }
        i += 1
        let count = try RGBImage.checkedByteCount(width: width, height: height, format: .ppm)
        guard bytes.count - i >= count else {
            throw fail(filled("truncated pixel data (expected {} bytes, found {})", String(count), String(bytes.count - i)))
        }
        var pixels = Array(bytes[i ..< i + count])
        if maxval != 255 {
            for k in pixels.indices {
                guard Int(pixels[k]) <= maxval else { throw fail(filled("sample {} exceeds maxval {}", String(pixels[k]), String(maxval))) }
                pixels[k] = UInt8((Int(pixels[k]) * 255 + maxval / 2) / maxval)
            }
        }
        return RGBImage(width: width, height: height, bytes: pixels)
    }

    /// Writes `image` to `path` as P6.
    public static func write(_ image: RGBImage, to path: String) throws(ImageCodecError) {
        try FileIO.writeFile(encode(image), to: path)
    }

    /// Reads the P6 file at `path`.
    public static func read(path: String) throws(ImageCodecError) -> RGBImage {
        let bytes = try FileIO.readFile(path)
        do { return try decode(bytes) } catch { throw error.at(path: path, .read) }
    }
}
