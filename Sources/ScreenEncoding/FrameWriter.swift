import CLinux
import Raster

/// Stores one encoded pixel value into framebuffer memory: the byte width is a type, so the
/// writer below is specialised per width and its inner loop has no format branch.
protocol PixelStore {
    static var bytes: Int { get }
    static func store(_ value: UInt32, at p: UnsafeMutableRawPointer)
}

enum Store16: PixelStore {
    static var bytes: Int { 2 }
    @inline(__always) static func store(_ value: UInt32, at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: UInt16(truncatingIfNeeded: value), as: UInt16.self)
    }
}

enum Store24: PixelStore {
    static var bytes: Int { 3 }
    /// Little-endian byte order, as fbdev lays out 24-bit pixels on these machines.
    @inline(__always) static func store(_ value: UInt32, at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        p.storeBytes(of: UInt8(truncatingIfNeeded: value >> 8), toByteOffset: 1, as: UInt8.self)
        p.storeBytes(of: UInt8(truncatingIfNeeded: value >> 16), toByteOffset: 2, as: UInt8.self)
    }
}

enum Store32: PixelStore {
    static var bytes: Int { 4 }
    @inline(__always) static func store(_ value: UInt32, at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: value, as: UInt32.self)
    }
}

/// The one encode path a framebuffer display uses, fixed at open: placement (scale, rotation,
/// position), the pixel encoder and the row layout. Writes a rectangle of the canvas: each
/// placed row is encoded once into a line buffer (each pixel repeated `scale` times), then copied
/// to the `scale` screen rows it covers.
public struct FrameWriter {
    public let placement: Placement
    public let encoder: PixelEncoder
    public let background: Color
    public let stride: Int
    /// A scaled row of the placed image, sized at open.
    private let line: UnsafeMutableRawPointer
    private let lineCapacity: Int
    /// The specialised rectangle writer for this format's byte width.
    private let writeRect: (FrameWriter, UnsafePointer<Pixel>, PixelRect, UnsafeMutableRawPointer) -> Int

    public init(placement: Placement, encoder: PixelEncoder, background: Color, stride: Int) {
        self.placement = placement
        self.encoder = encoder
        self.background = background
        self.stride = stride
        lineCapacity = placement.width * encoder.format.bytesPerPixel
        line = UnsafeMutableRawPointer.allocate(byteCount: max(lineCapacity, 4), alignment: 16)
        switch encoder.format.bytesPerPixel {
        case 2: writeRect = { $0.write(Store16.self, $1, $2, $3) }
        case 3: writeRect = { $0.write(Store24.self, $1, $2, $3) }
        default: writeRect = { $0.write(Store32.self, $1, $2, $3) }
        }
    }

    /// Frees the line buffer; called once by the display that made this writer.
    public func release() { line.deallocate() }

    /// Writes placed (rotated, unscaled) rectangle `rect` of `pixels` into the screen buffer at
    /// `buffer` (its first visible row). Returns the number of bytes written.
    public func write(_ pixels: UnsafePointer<Pixel>, placedRect rect: PixelRect, into buffer: UnsafeMutableRawPointer) -> Int {
        writeRect(self, pixels, rect, buffer)
    }

    @inline(__always)
    private func write<S: PixelStore>(_: S.Type, _ pixels: UnsafePointer<Pixel>, _ rect: PixelRect, _ buffer: UnsafeMutableRawPointer) -> Int {
        let (origin, du, dv) = placement.sourceWalk
        let scale = placement.scale
        let bpp = S.bytes
        let rowBytes = rect.width * scale * bpp
        let left = (placement.x + rect.x * scale) * bpp
        let backgroundValue = encoder.encode(background)
        // Pixels compared as 32-bit words: a Pixel is four bytes aligned to one, which the
        // compiler compares and copies a byte at a time (on ARM a call to an outlined copy a pixel).
        let words = UnsafeRawPointer(pixels)
        for v in rect.y..<rect.maxY {
            var source = origin + rect.x * du + v * dv
            var out = line
            // Runs of equal pixels are common: encode only when the pixel changes.
            var last: UInt32 = 0  // a transparent pixel, shown as the background
            var value = backgroundValue
            if scale == 1 {  // the common case, without the inner loop
                for _ in 0..<rect.width {
                    let w = words.loadUnaligned(fromByteOffset: source &* 4, as: UInt32.self)
                    if w != last { value = encoder.encode(pixels[source], over: background); last = w }
                    S.store(value, at: out); out += bpp
                    source += du
                }
            } else {
                for _ in 0..<rect.width {
                    let w = words.loadUnaligned(fromByteOffset: source &* 4, as: UInt32.self)
                    if w != last { value = encoder.encode(pixels[source], over: background); last = w }
                    for _ in 0..<scale { S.store(value, at: out); out += bpp }
                    source += du
                }
            }
            let top = placement.y + v * scale
            for k in 0..<scale {
                memcpy(buffer + (top + k) * stride + left, line, rowBytes)
            }
        }
        return rowBytes * rect.height * scale
    }

    /// Fills `rows` rows of the screen buffer (each `rowPixels` wide) with the background.
    public func fillBackground(_ buffer: UnsafeMutableRawPointer, rowPixels: Int, rows: Int) {
        let bpp = encoder.format.bytesPerPixel
        let value = encoder.encode(background)
        switch bpp {
        case 2: fill(Store16.self, buffer, value, rowPixels, rows)
        case 3: fill(Store24.self, buffer, value, rowPixels, rows)
        default: fill(Store32.self, buffer, value, rowPixels, rows)
        }
    }

    private func fill<S: PixelStore>(_: S.Type, _ buffer: UnsafeMutableRawPointer, _ value: UInt32, _ rowPixels: Int, _ rows: Int) {
        guard rows > 0 else { return }
        var p = buffer
        for _ in 0..<rowPixels { S.store(value, at: p); p += S.bytes }
        if rows > 1 {
            for y in 1..<rows { memcpy(buffer + y * stride, buffer, rowPixels * S.bytes) }
        }
    }
}
