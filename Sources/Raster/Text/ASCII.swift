/// ASCII-only text helpers for the words the daemon parses (names, keys, options, formats).
///
/// The Standard Library's `lowercased()` and `Character.isLetter` consult Unicode's tables, which
/// Embedded Swift links into the program (~60 KB of the board binary) for no benefit here: every
/// word compared this way is ASCII by definition, and anything else is rejected anyway.
extension StringProtocol {
    // Both kept out of line (one copy per String and Substring): inlined, each of the ~30 option
    // words folded carried its own copy of the array, the loop and the UTF-8 check.

    /// The string with A–Z mapped to a–z and every other byte unchanged.
    @inline(never) public func asciiLowercased() -> String {
        var bytes = Array(utf8)
        for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The string with a–z mapped to A–Z and every other byte unchanged.
    @inline(never) public func asciiUppercased() -> String {
        var bytes = Array(utf8)
        for i in bytes.indices where bytes[i] >= 0x61 && bytes[i] <= 0x7A { bytes[i] -= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The words a yes-or-no option takes, in any case: `true`, `yes`, `on`, `1` and `false`, `no`,
/// `off`, `0`; nil for anything else. One function for the LED displays' flags, `dry-run=`, the
/// framebuffer's `vsync=` and the loaders' yes-or-no parameters, which each compared the eight
/// words in place.
@inline(never) public func parseYesNo(_ text: String) -> Bool? {
    switch text.asciiLowercased() {
    case "true", "yes", "on", "1": return true
    case "false", "no", "off", "0": return false
    default: return nil
    }
}

extension Character {
    /// 0–9.
    public var isASCIIDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    /// A–Z or a–z.
    public var isASCIILetter: Bool { asciiValue.map { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A } ?? false }
}

extension Unicode.Scalar {
    /// Unicode's Cc (control) category: U+0000–U+001F and U+007F–U+009F.
    public var isControl: Bool { value < 0x20 || (value >= 0x7F && value <= 0x9F) }
    /// 0–9.
    public var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
    /// A–Z or a–z.
    public var isASCIILetter: Bool { (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A }
}
