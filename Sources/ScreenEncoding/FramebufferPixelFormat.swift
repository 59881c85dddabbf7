import Raster
import CompactText

/// How a framebuffer packs one pixel: bits per pixel and where red, green, blue and alpha sit
/// (the `fb_bitfield`s of `fb_var_screeninfo`, offsets counted from the least significant bit of
/// the pixel read as a native-endian integer).
public struct FramebufferPixelFormat: Sendable, Hashable, CustomStringConvertible {
    public struct Field: Sendable, Hashable {
        public var offset: Int
        public var length: Int
        public init(offset: Int, length: Int) { self.offset = offset; self.length = length }
    }

    public var bitsPerPixel: Int
    public var red: Field
    public var green: Field
    public var blue: Field
    /// Alpha (`transp`); length 0 when the format has none (the bits are then left at 0).
    public var alpha: Field

    public init(bitsPerPixel: Int, red: Field, green: Field, blue: Field, alpha: Field = Field(offset: 0, length: 0)) {
        self.bitsPerPixel = bitsPerPixel; self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    // The formats seen on real boards (PROTOCOLS.md). Names follow DRM's fourcc convention: the
    // first channel named sits in the most significant bits.
    public static let rgb565 = Self(bitsPerPixel: 16, red: .init(offset: 11, length: 5), green: .init(offset: 5, length: 6), blue: .init(offset: 0, length: 5))
    public static let bgr565 = Self(bitsPerPixel: 16, red: .init(offset: 0, length: 5), green: .init(offset: 5, length: 6), blue: .init(offset: 11, length: 5))
    public static let rgb888 = Self(bitsPerPixel: 24, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))
    public static let bgr888 = Self(bitsPerPixel: 24, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 16, length: 8))
    public static let xrgb8888 = Self(bitsPerPixel: 32, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))
    public static let argb8888 = Self(bitsPerPixel: 32, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8), alpha: .init(offset: 24, length: 8))
    public static let xbgr8888 = Self(bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 16, length: 8))
    public static let abgr8888 = Self(bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 16, length: 8), alpha: .init(offset: 24, length: 8))

    /// Every supported format with its name (the `format=` values of a file-backed framebuffer).
    public static let supported: [(name: String, format: FramebufferPixelFormat)] = [
        ("rgb565", .rgb565), ("bgr565", .bgr565), ("rgb888", .rgb888), ("bgr888", .bgr888),
        ("xrgb8888", .xrgb8888), ("argb8888", .argb8888), ("xbgr8888", .xbgr8888), ("abgr8888", .abgr8888),
    ]

    /// The name of this format if it is one of `supported`.
    public var name: String? { Self.supported.first { $0.format == self }?.name }

    /// `16 bpp, red 11:5 green 5:6 blue 0:5 transp 0:0` — offset:length, as a person compares
    /// with `fbset -i`.
    public var description: String {
        filled("{} bpp, red {} green {} {}", String(bitsPerPixel), filled("{}:{}", String(red.offset), String(red.length)),
               filled("{}:{}", String(green.offset), String(green.length)),
               filled("blue {}:{} transp {}:{}", String(blue.offset), String(blue.length), String(alpha.offset), String(alpha.length)))
    }

    /// The supported format matching a driver's bitfields. `transp` bits are ignored when their
    /// length is 0 (drivers leave the offset at anything); any other layout, a right-aligned most
    /// significant bit or a non-truecolor visual is refused with the layout named.
    public static func matching(bitsPerPixel: Int, red: Field, green: Field, blue: Field, alpha: Field,
                                msbRight: Bool = false) -> FramebufferPixelFormat? {
        if msbRight { return nil }
        let normalizedAlpha = alpha.length == 0 ? Field(offset: 0, length: 0) : alpha
        let candidate = FramebufferPixelFormat(bitsPerPixel: bitsPerPixel, red: red, green: green, blue: blue, alpha: normalizedAlpha)
        return supported.first { $0.format == candidate }?.format
    }

    public static var supportedNames: String { supported.map { $0.name }.joined(separator: ", ") }
}

/// A pixel format resolved into lookup tables once, when a display opens: an 8-bit channel value
/// indexes straight to its bits already rounded to the channel's length and shifted into place,
/// so encoding a colour is three loads and three ORs for every format, with no format check.
public struct PixelEncoder: Sendable {
    public let format: FramebufferPixelFormat
    /// 3 × 256 entries: red, then green, then blue.
    private let table: [UInt32]
    /// Alpha bits set to opaque (0 when the format has no alpha).
    public let opaqueBits: UInt32

    public init(_ format: FramebufferPixelFormat) {
        self.format = format
        var table = [UInt32](repeating: 0, count: 768)
        for (i, field) in [format.red, format.green, format.blue].enumerated() {
            let maximum = UInt32(1) << UInt32(field.length) - 1
            for v in 0..<256 {
                // Round to nearest: v × max / 255.
                let q = (UInt32(v) * maximum + 127) / 255
                table[i * 256 + v] = q << UInt32(field.offset)
            }
        }
        self.table = table
        self.opaqueBits = format.alpha.length == 0 ? 0 : (UInt32(1) << UInt32(format.alpha.length) - 1) << UInt32(format.alpha.offset)
    }

    /// The pixel value of an opaque colour.
    @inline(__always) public func encode(_ c: Color) -> UInt32 {
        table.withUnsafeBufferPointer { t in t[Int(c.r)] | t[256 + Int(c.g)] | t[512 + Int(c.b)] } | opaqueBits
    }

    /// The pixel value of a premultiplied canvas pixel shown over `background`.
    @inline(__always) public func encode(_ p: Pixel, over background: Color) -> UInt32 {
        if p.a == 255 { return encode(Color(r: p.r, g: p.g, b: p.b)) }
        if p.a == 0 { return encode(background) }
        return encode(p.over(background))
    }

    /// The 8-bit colour a pixel value shows (channels expanded by bit replication): what a
    /// screen displays, used by tests and `decode` of file-backed framebuffers.
    public func decode(_ value: UInt32) -> Color {
        func channel(_ f: FramebufferPixelFormat.Field) -> UInt8 {
            let q = (value >> UInt32(f.offset)) & (UInt32(1) << UInt32(f.length) - 1)
            return UInt8((q * 255 + (UInt32(1) << UInt32(f.length) - 1) / 2) / (UInt32(1) << UInt32(f.length) - 1))
        }
        return Color(r: channel(format.red), g: channel(format.green), b: channel(format.blue))
    }
}
