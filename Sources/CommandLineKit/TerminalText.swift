/// Text on its way to a terminal. A word can hold escape sequences that a terminal would act on
/// (recolour, retitle, rewrite the screen, move the cursor): an argument repeated in an error
/// message, a daemon's reply. Every such text is written with its control characters spelled
/// out as `\u{1B}`, as loaderd escapes them in its replies.
public enum TerminalText {
    /// Unicode's control characters (category Cc): C0, DEL and C1 (0x80–0x9F: CSI is 0x9B).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// `text` with each control character as `\u{XX}`. Written on the UTF-8 bytes into a string's
    /// own storage, for size (decoding and appending scalars was ~1 KB): C0 and DEL are one byte
    /// each, C1 is 0xC2 then 0x80–0x9F, and none takes more than 6 bytes escaped.
    public static func escaped(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in String(unsafeUninitializedCapacity: bytes.count * 6) { out in
            var count = 0
            func put(_ byte: UInt8) {
                out[count] = byte
                count += 1
            }
            var afterC2 = false
            for byte in bytes {
                var control = byte < 0x20 || byte == 0x7F
                if afterC2 {
                    afterC2 = false
                    control = byte <= 0x9F
                    if !control { put(0xC2) }
                } else if byte == 0xC2 {
                    afterC2 = true
                    continue
                }
                guard control else { put(byte); continue }
                put(UInt8(ascii: "\\"))
                put(UInt8(ascii: "u"))
                put(UInt8(ascii: "{"))
                if byte >= 0x10 { put(hexDigit(byte >> 4)) }
                put(hexDigit(byte & 0xF))
                put(UInt8(ascii: "}"))
            }
            return count
        } }
    }

    /// `0`–`9`, `A`–`F`.
    static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x37 + value }
}
