/// Text on its way to a terminal. A word can hold escape sequences that a terminal would act on
/// (recolour, retitle, rewrite the screen, move the cursor): an argument repeated in an error
/// message, a daemon's reply. Every such text is written with its control characters spelled
/// out as `\u{1B}`, as loaderd escapes them in its replies.
public enum TerminalText {
    /// Unicode's control characters (category Cc): C0, DEL and C1 (0x80–0x9F: CSI is 0x9B).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// `text` with each control character as `\u{XX}`; the text itself when it has none.
    /// Read on the UTF-8 bytes, for size (the scalars' decoding and appending were ~1 KB): C0 and
    /// DEL are one byte each, C1 is 0xC2 then 0x80–0x9F.
    public static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        var escapes = false
        var afterC2 = false
        for byte in text.utf8 {
            var control = byte < 0x20 || byte == 0x7F
            if afterC2 {
                afterC2 = false
                control = byte <= 0x9F
                if !control { out.append(0xC2) }
            } else if byte == 0xC2 {
                afterC2 = true
                continue
            }
            guard control else { out.append(byte); continue }
            escapes = true
            out.append(UInt8(ascii: "\\"))
            out.append(UInt8(ascii: "u"))
            out.append(UInt8(ascii: "{"))
            if byte >= 0x10 { out.append(hexDigit(byte >> 4)) }
            out.append(hexDigit(byte & 0xF))
            out.append(UInt8(ascii: "}"))
        }
        return escapes ? String(decoding: out, as: UTF8.self) : text
    }

    /// `0`–`9`, `A`–`F`.
    static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x37 + value }
}
