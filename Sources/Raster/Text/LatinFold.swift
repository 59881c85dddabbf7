/// Latin-1 (U+00A0 ... U+00FF) and a few common typographic scalars, folded onto printable
/// ASCII for the bitmap fonts: "Démarrage" reads as "Demarrage" with the accent drawn over the
/// e, where it used to be "D?marrage" with a box.
public enum LatinFold {
    /// The accent drawn above a folded lowercase letter.
    public enum Accent: UInt8, Sendable { case none, grave, acute, circumflex, tilde, diaeresis, ring, cedilla }

    /// The ASCII scalar `v` folds to, or 0 when it has none.
    @inlinable public static func base(_ v: UInt32) -> UInt8 {
        switch v {
        case 0xA0: return 0x20                         // no-break space
        case 0xA1: return 0x21                         // ¡
        case 0xAB: return 0x3C                         // «
        case 0xBB: return 0x3E                         // »
        case 0xAD: return 0x2D                         // soft hyphen
        case 0xB7: return 0x2E                         // middle dot
        case 0xBF: return 0x3F                         // ¿
        case 0xD7: return 0x78                         // ×
        case 0xF7: return 0x2F                         // ÷
        case 0x2018, 0x2019, 0x201A: return 0x27       // ‘ ’ ‚
        case 0x201C, 0x201D, 0x201E: return 0x22       // “ ” „
        case 0x2010...0x2015, 0x2212: return 0x2D      // hyphens, dashes, minus
        case 0xC0...0xFF: return letters[Int(v - 0xC0)]
        default: return 0
        }
    }

    /// The accent of Latin-1 letter `v` (U+00C0 ... U+00FF), `.none` for the rest.
    @inlinable public static func accent(_ v: UInt32) -> Accent {
        guard v >= 0xC0 && v <= 0xFF else { return .none }
        return Accent(rawValue: accents[Int(v - 0xC0)]) ?? .none
    }

    /// U+00C0 ... U+00FF: ÀÁÂÃÄÅÆÇ ÈÉÊË ÌÍÎÏ ÐÑ ÒÓÔÕÖ × Ø ÙÚÛÜ Ý Þ ß, then the lowercase row.
    @usableFromInline static let letters: [UInt8] = [
        0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x43, 0x45, 0x45, 0x45, 0x45, 0x49, 0x49, 0x49, 0x49,
        0x44, 0x4E, 0x4F, 0x4F, 0x4F, 0x4F, 0x4F, 0x78, 0x4F, 0x55, 0x55, 0x55, 0x55, 0x59, 0x50, 0x73,
        0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x63, 0x65, 0x65, 0x65, 0x65, 0x69, 0x69, 0x69, 0x69,
        0x64, 0x6E, 0x6F, 0x6F, 0x6F, 0x6F, 0x6F, 0x2F, 0x6F, 0x75, 0x75, 0x75, 0x75, 0x79, 0x70, 0x79,
    ]

    // 0 none, 1 grave, 2 acute, 3 circumflex, 4 tilde, 5 diaeresis, 6 ring, 7 cedilla.
    @usableFromInline static let accents: [UInt8] = [
        1, 2, 3, 4, 5, 6, 0, 7, 1, 2, 3, 5, 1, 2, 3, 5,
        0, 4, 1, 2, 3, 4, 5, 0, 0, 1, 2, 3, 5, 2, 0, 0,
        1, 2, 3, 4, 5, 6, 0, 7, 1, 2, 3, 5, 1, 2, 3, 5,
        0, 4, 1, 2, 3, 4, 5, 0, 0, 1, 2, 3, 5, 2, 0, 5,
    ]
}
