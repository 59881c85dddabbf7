/// What loaderctl prints of a daemon's words. A daemon's string (a message, an error, a loader
/// name) may hold escape sequences that a terminal would act on — recolour, retitle, rewrite the
/// screen — so every one is printed with its control characters written out as `\u{1B}`.
/// A loaderd of this version already refuses and escapes them; this guards against any other.
enum TerminalText {
    /// `text` with C0, DEL and C1 control characters (0x80–0x9F: CSI is 0x9B) as `\u{XX}`.
    static func escaped(_ text: String) -> String {
        func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F...0x9F).contains(s.value) }
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
