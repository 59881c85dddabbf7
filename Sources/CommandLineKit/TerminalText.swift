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
    /// Read as UTF-8 bytes (for size: no scalar decoding and re-encoding, no string appends): a
    /// C0 control or DEL is one byte, a C1 control the two bytes C2 80 to C2 9F.
    @inline(never)
    public static func escaped(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var changed = false
        var i = 0
        while i < bytes.count {
            var value = bytes[i]
            let c1 = value == 0xC2 && i + 1 < bytes.count && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F
            if c1 { i += 1; value = bytes[i] }
            if c1 || value < 0x20 || value == 0x7F {
                changed = true
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "{")])
                if value >= 0x10 { out.append(hexDigit(value >> 4)) }
                out.append(hexDigit(value & 0xF))
                out.append(UInt8(ascii: "}"))
            } else {
                out.append(value)
            }
            i += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
