import Raster

/// Fixed-point colour helpers for LEDs, in the manner of FastLED's lib8tion (written anew).
public enum LED8 {
    /// `i × s / 256`, with `s = 255` leaving `i` unchanged: `(i × (1 + s)) >> 8`.
    @inlinable public static func scale8(_ i: UInt8, _ s: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(i) &* (1 &+ UInt16(s))) >> 8)
    }

    /// Like `scale8`, but a lit value never scales to 0 (dim pixels stay visible):
    /// `((i × s) >> 8) + (i ≠ 0 and s ≠ 0 ? 1 : 0)`.
    @inlinable public static func scale8Video(_ i: UInt8, _ s: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: ((UInt16(i) &* UInt16(s)) >> 8) &+ (i != 0 && s != 0 ? 1 : 0))
    }

    /// Saturating add and subtract.
    @inlinable public static func qadd8(_ a: UInt8, _ b: UInt8) -> UInt8 { let (s, o) = a.addingReportingOverflow(b); return o ? 255 : s }
    @inlinable public static func qsub8(_ a: UInt8, _ b: UInt8) -> UInt8 { a > b ? a - b : 0 }

    /// Perceived brightness of a premultiplied pixel over black (Rec. 709 weights / 256), the
    /// pixel read as one little-endian word (r, g, b, a from the low byte up), in
    /// 16-bit arithmetic (54 r + 183 g + 19 b + 128 is at most 65,408): so written, a loop over a
    /// frame's words vectorises (6.5 instructions a pixel on x86_64; over the pixel's bytes ~10,
    /// in 32-bit lanes ~9), as the MAX7219 encoder's pass does.
    @inlinable public static func luma(word p: UInt32) -> UInt8 {
        let r = UInt16(truncatingIfNeeded: p & 0xFF), g = UInt16(truncatingIfNeeded: (p >> 8) & 0xFF)
        let b = UInt16(truncatingIfNeeded: (p >> 16) & 0xFF)
        return UInt8(truncatingIfNeeded: (r &* 54 &+ g &* 183 &+ b &* 19 &+ 128) >> 8)
    }

    /// `round(255 × (i/255)^gamma)` for every byte; built once when a display opens (the only
    /// floating point, a human value entering).
    public static func gammaTable(_ gamma: Double) -> [UInt8] {
        (0..<256).map { i in
            if gamma == 1 || i == 0 { return UInt8(i) }
            let value = GammaMath.power(Double(i) / 255, gamma) * 255
            return UInt8(Swift.max(0, Swift.min(255, value.rounded())))
        }
    }

    /// 0...100 % to 0...`maximum`, rounded.
    public static func level(percent: Int, maximum: Int) -> Int { (percent * maximum + 50) / 100 }

    /// The 4x4 Bayer matrix (values 0...15) for ordered dithering.
    public static let bayer4: [UInt8] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
}

/// The order colour bytes go on the wire: `grb` (WS2812), `bgr` (APA102), any permutation.
public struct ColorOrder: Sendable, Equatable, CustomStringConvertible {
    /// For each wire position, the source channel: 0 red, 1 green, 2 blue.
    public let channels: (UInt8, UInt8, UInt8)
    public static let rgb = ColorOrder(0, 1, 2), grb = ColorOrder(1, 0, 2), bgr = ColorOrder(2, 1, 0)
    init(_ a: UInt8, _ b: UInt8, _ c: UInt8) { channels = (a, b, c) }
    public static func == (l: ColorOrder, r: ColorOrder) -> Bool { l.channels == r.channels }

    /// Written out rather than mapped from the names: a literal table is read-only data where the
    /// map was code run at first use (0.7 KB, for size).
    public static let all: [(String, ColorOrder)] = [
        ("rgb", ColorOrder(0, 1, 2)), ("rbg", ColorOrder(0, 2, 1)), ("grb", ColorOrder(1, 0, 2)),
        ("gbr", ColorOrder(1, 2, 0)), ("brg", ColorOrder(2, 0, 1)), ("bgr", ColorOrder(2, 1, 0)),
    ]

    public var description: String {
        let letters: [UInt8] = [UInt8(ascii: "r"), UInt8(ascii: "g"), UInt8(ascii: "b")]  // bytes, not Characters, for size
        return String(decoding: [letters[Int(channels.0)], letters[Int(channels.1)], letters[Int(channels.2)]], as: UTF8.self)
    }

    func pick(_ p: Pixel, _ channel: UInt8) -> UInt8 { channel == 0 ? p.r : channel == 1 ? p.g : p.b }
}
