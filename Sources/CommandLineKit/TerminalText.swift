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
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
