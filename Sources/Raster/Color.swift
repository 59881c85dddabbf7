import FixedPoint
import CompactText

/// An sRGB colour with straight (not premultiplied) 8-bit alpha: the form people write and
/// configs hold. Convert to `Pixel` (premultiplied) before compositing.
public struct Color: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// `0xRRGGBB`, opaque.
    @inlinable public init(rgb: UInt32) {
        self.init(r: UInt8(truncatingIfNeeded: rgb >> 16), g: UInt8(truncatingIfNeeded: rgb >> 8), b: UInt8(truncatingIfNeeded: rgb))
    }

    // The reference palette of LOADERS.md (the platform's standard colours, sRGB).
    public static let blue = Color(rgb: 0x007AFF)
    public static let purple = Color(rgb: 0xAF52DE)
    public static let pink = Color(rgb: 0xFF2D55)
    public static let gray = Color(rgb: 0x8E8E93)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let black = Color(rgb: 0x000000)
    public static let red = Color(rgb: 0xFF3B30)
    public static let green = Color(rgb: 0x34C759)
    public static let orange = Color(rgb: 0xFF9500)
    public static let yellow = Color(rgb: 0xFFCC00)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// Names accepted by `Color(parsing:)`, in the order `loaderctl list` shows them.
    public static let named: [(name: String, color: Color)] = [
        ("blue", .blue), ("purple", .purple), ("pink", .pink), ("gray", .gray), ("grey", .gray),
        ("white", .white), ("black", .black), ("red", .red), ("green", .green),
        ("orange", .orange), ("yellow", .yellow), ("clear", .clear),
    ]

    /// This colour with its alpha multiplied by `opacity` (0...1).
    @inlinable public func opacity(_ opacity: Fixed) -> Color {
        var c = self
        c.a = UInt8(truncatingIfNeeded: (Int(a) * Int(opacity.unitByte) + 127) / 255)
        return c
    }

    /// Premultiplied form, for compositing.
    @inlinable public var premultiplied: Pixel {
        // div255(c × 255) = c: an opaque colour is its own (most fills).
        if self.a == 255 { return Pixel(r: r, g: g, b: b, a: 255) }
        let a = UInt32(self.a)
        return Pixel(r: UInt8(truncatingIfNeeded: div255(UInt32(r) * a)),
                     g: UInt8(truncatingIfNeeded: div255(UInt32(g) * a)),
                     b: UInt8(truncatingIfNeeded: div255(UInt32(b) * a)),
                     a: self.a)
    }
}

/// Why a colour string was refused; the description names the input and what is accepted.
public struct ColorParseError: Error, Sendable, CustomStringConvertible {
    public let input: String
    public var description: String {
        filled("invalid colour '{}': expected #RRGGBB, #RRGGBBAA, or one of {} (optionally followed by @OPACITY, e.g. gray@0.5)", input, Color.named.map { $0.name }.joined(separator: ", "))
    }
}

extension Color {
    /// Parses `#RRGGBB`, `#RRGGBBAA`, a name from `Color.named`, each optionally followed by
    /// `@opacity` with opacity in 0...1 (e.g. `gray@0.5`). Input boundary: not for per-frame use.
    public init(parsing text: String) throws(ColorParseError) {
        var body = Substring(text)
        var opacity: Double? = nil
        if let at = body.firstIndex(of: "@") {
            guard let value = Double(body[body.utf8.index(after: at)...]), value >= 0, value <= 1 else {
                throw ColorParseError(input: text)
            }
            opacity = value
            body = body[..<at]
        }
        var color: Color
        if body.hasPrefix("#") {
            // Bytes, not Characters, for size: only hex digits (single bytes) parse.
            let hex = body[body.utf8.index(after: body.startIndex)...], digits = hex.utf8.count
            guard digits == 6 || digits == 8, let value = UInt32(hex, radix: 16) else {
                throw ColorParseError(input: text)
            }
            if digits == 6 {
                color = Color(rgb: value)
            } else {
                color = Color(r: UInt8(value >> 24), g: UInt8((value >> 16) & 0xFF), b: UInt8((value >> 8) & 0xFF), a: UInt8(value & 0xFF))
            }
        } else {
            let name = body.asciiLowercased()  // once, not once per name compared
            guard let match = Color.named.first(where: { $0.name == name }) else { throw ColorParseError(input: text) }
            color = match.color
        }
        if let opacity { color = color.opacity(Fixed(opacity)) }
        self = color
    }

    /// `#RRGGBB` or, when not opaque, `#RRGGBBAA`.
    public var hexString: String {
        func hex(_ v: UInt8) -> String { let s = String(v, radix: 16, uppercase: true); return s.utf8.count == 1 ? "0" + s : s }
        return filled("#{}{}{}{}", hex(r), hex(g), hex(b), a == 255 ? "" : hex(a))
    }
}

/// x / 255 rounded to nearest, exact for x in 0 ... 255 × 255, without a division. Wrapping
/// arithmetic: within that range nothing can overflow, and the checks cost per pixel. Always
/// inlined: left to the optimiser it became a call per channel in skeleton's loops (round 7).
@inlinable @inline(__always) public func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}
