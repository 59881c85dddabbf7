import CFreeType
import Raster
import CompactText

/// Which font a boot screen's text uses (`screen.font`).
public enum ScreenFont: Sendable, Equatable {
    /// The bitmap fonts only (what LED matrices and small canvases always use).
    case bitmap
    /// The first of `TextFace.defaultFonts` that FreeType opens.
    case automatic
    /// This font file (TrueType, OpenType, anything FreeType reads).
    case file(String)

    /// The setting's form: "" → bitmap, "auto" → automatic, else a path.
    public init(setting: String) {
        switch setting {
        case "": self = .bitmap
        case "auto": self = .automatic
        default: self = .file(setting)
        }
    }
}

/// Why no face was loaded: the library, or the font, named with the reason.
public struct TextFaceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

/// Anti-aliased proportional text for framebuffer screens: a font opened with FreeType (itself
/// opened with dlopen, see Sources/CFreeType) and its glyphs rasterised once into a `GlyphAtlas`.
///
/// When: only on screens (`BootScreenLayout.isScreen`, 320x200 and up), where the text is
/// `pixelSize` ≥ 14 pixels per em: from there, grey-level edges read as type rather than blur.
/// LED matrices and small panels keep the bitmap fonts, whose every pixel is lit or not. Without
/// libfreetype.so.6 or a font, screens keep the bitmap fonts too.
///
/// Cost: loading opens the library and the font and rasterises the repertoire (printable ASCII,
/// Latin-1 and the punctuation a message uses: about 200 glyphs), once per face; the daemon does it
/// after a scene's first frame and keeps the atlas, so start-up never pays for it.
public enum TextFace {
    /// The shared library opened.
    public static let library = "libfreetype.so.6"

    /// Fonts tried in order for `ScreenFont.automatic`: DejaVu Sans (Debian's fonts-dejavu-core, the
    /// font Plymouth's label plugin falls back to), where other distributions put it, then fonts
    /// common on systems without it.
    public static let defaultFonts = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
        "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf",
    ]

    /// The scalars rasterised, in this order (one table of ranges, read by one loop: for size).
    ///
    /// Printable ASCII and Latin-1. Then the alphabets, where the font has their letters: Latin
    /// Extended-A (Polish, Czech, Slovak, Hungarian, Turkish, Baltic, Croatian...), Romanian's
    /// comma-below letters, Greek and Cyrillic (with Ukrainian's Ґ). Right-to-left scripts are not:
    /// drawn left to right, unshaped, their words would be wrong, which is worse than the fallback.
    /// About 300 glyphs more: ~25-90 KB of coverage, rasterised once, after the first frame.
    /// Last the punctuation: dashes, quotes (with German and French ones), bullet, ellipsis, euro,
    /// arrow, check and cross marks, and U+FFFD (the fallback for everything else, when the font
    /// has it).
    static let scalarRanges: [ClosedRange<UInt32>] = [
        0x0020...0x007E, 0x00A0...0x00FF,
        0x0100...0x017F, 0x0218...0x021B, 0x0384...0x03CE, 0x0400...0x045F, 0x0490...0x0491,
        0x2013...0x2014, 0x2018...0x201A, 0x201C...0x201E, 0x2022...0x2022, 0x2026...0x2026,
        0x2039...0x203A, 0x20AC...0x20AC, 0x2192...0x2192, 0x2713...0x2714, 0x2717...0x2718, 0xFFFD...0xFFFD,
    ]

    /// Pixels per em of a screen's text: 2.6 % of the shorter side, at least 14 (14 at 800x480, 18
    /// at 1280x720, 28 at 1920x1080: a modern UI's body text on each).
    public static func pixelSize(canvasWidth width: Int, height: Int) -> Int {
        Swift.max(14, Swift.min(width, height) * 26 / 1000)
    }

    /// Opens `choice` at `pixelSize` with `library` and rasterises the repertoire.
    /// For size, one `throw` for the reasons found here.
    public static func load(_ choice: ScreenFont, pixelSize: Int, library: String = TextFace.library) throws(TextFaceError) -> GlyphAtlas {
        let problem: TextFaceError
        switch choice {
        case .bitmap:
            problem = TextFaceError(description: "screen.font is empty: the bitmap font is used")
        case .file(let path):
            return try load(path: path, pixelSize: pixelSize, library: library)
        case .automatic:
            var tried = 0, noLibrary: TextFaceError? = nil
            for path in defaultFonts {
                do throws(TextFaceError) {
                    return try load(path: path, pixelSize: pixelSize, library: library)
                } catch {
                    // Without the library, no other font will do better.
                    if error.description.hasPrefix(library) { noLibrary = error; break }
                    tried += 1
                }
            }
            problem = noLibrary ?? TextFaceError(description: filled("none of the {} usual fonts could be opened (install fonts-dejavu-core, or set screen.font)", String(tried)))
        }
        throw problem
    }

    /// For size, each way of failing only says why, and one `throw` at the end makes the error.
    static func load(path: String, pixelSize: Int, library: String) throws(TextFaceError) -> GlyphAtlas {
        var status: Int32 = 0, ftError: Int32 = 0
        let problem: String
        if let face = loaderd_ft_open(library, path, Int32(pixelSize), &status, &ftError) {
            defer { loaderd_ft_close(face) }
            var ascender: Int32 = 0, descender: Int32 = 0, lineHeight: Int32 = 0
            loaderd_ft_metrics(face, &ascender, &descender, &lineHeight)
            var builder = GlyphAtlas.Builder(pixelSize: pixelSize, ascender: Int(ascender), descender: Int(descender))
            func add(_ scalar: UInt32) {
                let index = loaderd_ft_glyph_index(face, scalar)
                guard index != 0 || scalar == 0xFFFD else { return }
                var g = loaderd_ft_glyph()
                guard loaderd_ft_render(face, index, &g) == 0 else { return }
                builder.add(scalar, left: Int(g.left), top: Int(g.top), width: Int(g.width), rows: Int(g.rows),
                            advance64: Int(g.advance64), buffer: g.buffer, pitch: Int(g.pitch))
            }
            var repertoire: [UInt32] = []
            repertoire.reserveCapacity(520)
            for range in scalarRanges { for s in range { repertoire.append(s) } }
            // The static build's helper rasterises them all in one exchange (where each glyph was two
            // round trips: ~500 glyphs cost 80 ms); the calls below then read its answer.
            _ = repertoire.withUnsafeBufferPointer { loaderd_ft_prefetch(face, $0.baseAddress, $0.count) }
            for s in repertoire { add(s) }
            if loaderd_ft_failed(face) != 0 {
                let why = loaderd_ft_library_problem().map { String(cString: $0) } ?? "FreeType stopped"
                problem = filled("{} stopped while rasterising {}: {}", library, path, why)
            } else if !(builder.contains(0x20) && builder.contains(0x41)) {
                problem = filled("font {} has no Latin letters", path)
            } else {
                return builder.build(fallback: builder.contains(0xFFFD) ? 0xFFFD : 0x3F)
            }
        } else {
            switch Int(status) {
            case Int(LOADERD_FT_NO_LIBRARY):
                if let helper = loaderd_ft_library_problem() {
                    problem = filled("{} could not be loaded: {}", library, String(cString: helper))
                } else {
                    problem = filled("{} could not be loaded (install libfreetype6)", library)
                }
            case Int(LOADERD_FT_NO_FONT):
                // FreeType's error 1 is "cannot open resource": the file is missing or unreadable.
                let reason = ftError == 1 ? "cannot be opened" : filled("is not a font FreeType reads (FreeType error {})", String(ftError))
                problem = filled("font {} {}", path, reason)
            case Int(LOADERD_FT_NO_SIZE):
                problem = filled("font {} has no {}-pixel size (FreeType error {})", path, String(pixelSize), String(ftError))
            default:
                problem = filled("FreeType could not start (error {}, status {})", String(ftError), String(status))
            }
        }
        throw TextFaceError(description: problem)
    }
}
