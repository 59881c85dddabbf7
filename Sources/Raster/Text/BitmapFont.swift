import CompactText

/// A fixed-width bitmap font covering printable ASCII (U+0020 ... U+007E), one bit per pixel.
///
/// Geometry, at scale 1, for one glyph whose box has its top-left corner at (0, 0):
///
///     x: 0 ..< cellWidth                       (then `advance − cellWidth` columns of spacing)
///     y: 0 ..< cellHeight                      the cell: capitals, digits, x-height letters;
///                                              the baseline is under row cellHeight − 1
///     y: cellHeight ..< cellHeight + descent   descenders (g j p q y , ;), if the font has any
///
/// The *text box* of a string is `width(of:)` × `boxHeight`; drawing puts its top-left corner at
/// the given point. `lineHeight` is the distance from one line's top to the next's, for callers
/// that stack lines (text here is always one line: "\n" is a control character).
///
/// Latin-1 letters with diacritics fold to their ASCII base letter (`LatinFold`); on lowercase
/// letters, whose cell has free rows above the x-height, the accent is drawn there too. The
/// ellipsis U+2026 has a glyph of its own (text fitting ends a cut line with it). Any other
/// scalar (controls, "\n", the rest of Unicode) draws the font's fallback glyph, so a string
/// always occupies one advance per Unicode scalar.
///
/// The glyph bitmaps are parsed once, from the ASCII art in the font's own file, when the font's
/// `static let` is first touched; afterwards a glyph is one `UInt64` (bit `row × cellWidth + col`)
/// and nothing here allocates.
public struct BitmapFont: Sendable {
    public let name: String
    /// Width of a glyph's bitmap in pixels.
    public let cellWidth: Int
    /// Height of a glyph's cell (cap height; the baseline is below its last row).
    public let cellHeight: Int
    /// Rows below the baseline that descenders may use (0 for fonts without descenders).
    public let descent: Int
    /// Pen movement per character: `cellWidth` plus one column of spacing.
    public let advance: Int
    /// Suggested distance between the tops of consecutive lines.
    public let lineHeight: Int

    /// Bitmaps of U+0020 ... U+007E (indices 0 ... 94), then the fallback glyph (index 95) and
    /// the ellipsis (index 96).
    @usableFromInline let glyphs: [UInt64]
    /// Accent bitmaps (`LatinFold.Accent` order, none first) for the rows above lowercase letters.
    @usableFromInline let accents: [UInt64]

    /// The first and last scalars with their own glyph.
    public static let firstScalar: UInt32 = 0x20
    public static let lastScalar: UInt32 = 0x7E
    @usableFromInline static let glyphCount = 95
    @usableFromInline static let fallbackIndex = 95
    @usableFromInline static let ellipsisIndex = 96
    public static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// Rows of a glyph bitmap: the cell plus the descent.
    @inlinable public var boxHeight: Int { cellHeight + descent }

    /// Builds a font from ASCII art (see `GlyphArt.parse` for the format). Traps on malformed
    /// art: fonts are static tables, so an error is a programming mistake caught by the tests.
    @inline(never)  // one copy, not one in each font's static initialiser (for size)
    init(name: String, cellWidth: Int, cellHeight: Int, descent: Int, lineHeight: Int, art: String, accents: [UInt64]) {
        precondition(cellWidth >= 1 && cellHeight >= 1 && descent >= 0)
        precondition(cellWidth * (cellHeight + descent) <= 64, "a glyph must fit in 64 bits")
        self.name = name
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.descent = descent
        self.advance = cellWidth + 1
        self.lineHeight = lineHeight
        self.glyphs = GlyphArt.parse(art, fontName: name, width: cellWidth, rows: cellHeight + descent)
        self.accents = accents
    }

    /// `font` with one descender row fewer (see `large8`). Traps when a glyph reaching the last
    /// row has no body row equal to the one above it to give up: a static table's mistake.
    init(oneRowShorter font: BitmapFont, name: String) {
        precondition(font.descent >= 1)
        self.name = name
        cellWidth = font.cellWidth
        cellHeight = font.cellHeight
        descent = font.descent - 1
        advance = font.advance
        lineHeight = font.lineHeight - 1
        let width = UInt64(font.cellWidth), rows = font.boxHeight, rowMask: UInt64 = (1 << width) - 1
        func row(_ bits: UInt64, _ r: Int) -> UInt64 { bits >> (UInt64(r) * width) & rowMask }
        // Rows 0 ..< r kept, row r given up, the rows below it moved up one.
        func without(_ bits: UInt64, row r: Int) -> UInt64 {
            let below = UInt64(r) * width
            return bits & ((1 << below) - 1) | (bits >> (below + width)) << below
        }
        glyphs = font.glyphs.map { bits in
            if row(bits, rows - 1) == 0 { return bits }
            let repeated = (2..<font.cellHeight).first { row(bits, $0) == row(bits, $0 - 1) }
            guard let repeated else { preconditionFailure(filled("{}: a glyph reaching the last row has no row to give up", name)) }
            return without(bits, row: repeated)
        }
        // The cedilla (the only accent below the baseline) keeps its lower row.
        accents = font.accents.map { bits in
            row(bits, rows - 1) == 0 ? bits : without(bits, row: rows - 2)
        }
    }

    // MARK: Glyph lookup

    /// Index into `glyphs` for `scalar`: its own glyph if printable ASCII, its base letter's if a
    /// Latin-1 letter, else the fallback.
    @inlinable static func glyphIndex(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= firstScalar && v <= lastScalar { return Int(v - firstScalar) }
        if v == BitmapFont.ellipsis.value { return ellipsisIndex }
        let base = LatinFold.base(v)
        return base == 0 ? fallbackIndex : Int(UInt32(base) - firstScalar)
    }

    /// The packed bitmap drawn for `scalar` (bit `row × cellWidth + col`): for a folded lowercase
    /// letter, its base letter with the accent above.
    @inlinable public func bitmap(for scalar: Unicode.Scalar) -> UInt64 {
        let bits = glyphs[BitmapFont.glyphIndex(scalar)]
        let v = scalar.value
        if v < 0xC0 || v > 0xFF { return bits }
        let base = LatinFold.base(v)
        guard base >= 0x61 && base <= 0x7A, base != 0x69 else { return bits }  // lowercase, not i (its dot is in the way)
        return bits | accents[Int(LatinFold.accent(v).rawValue)]
    }

    /// The packed bitmap of the fallback glyph.
    @inlinable public var fallbackBitmap: UInt64 { glyphs[BitmapFont.fallbackIndex] }

    /// True when `scalar` has a glyph of its own (is not drawn as the fallback).
    @inlinable public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        BitmapFont.glyphIndex(scalar) != BitmapFont.fallbackIndex
    }

    /// Whether pixel (x, y) of `scalar`'s glyph is lit; (0, 0) is the glyph box's top-left.
    /// False outside `0 ..< cellWidth` × `0 ..< boxHeight`.
    @inlinable public func isLit(_ scalar: Unicode.Scalar, x: Int, y: Int) -> Bool {
        if x < 0 || x >= cellWidth || y < 0 || y >= boxHeight { return false }
        return bitmap(for: scalar) >> UInt64(y * cellWidth + x) & 1 != 0
    }

    // MARK: Metrics

    /// Width in pixels of `text` at scale 1: one advance per Unicode scalar, without the spacing
    /// after the last one. 0 for the empty string.
    public func width(of text: String) -> Int {
        var count = 0
        for _ in text.unicodeScalars { count += 1 }
        return count == 0 ? 0 : count * advance - (advance - cellWidth)
    }

    /// Width in pixels of `text` drawn at `scale` (saturating at `Int.max`; 0 for scale < 1).
    public func width(of text: String, scale: Int) -> Int {
        if scale < 1 { return 0 }
        let (w, overflow) = width(of: text).multipliedReportingOverflow(by: scale)
        return overflow ? .max : w
    }

    /// Height in pixels of the text box (cell plus descent) at `scale` (0 for scale < 1).
    public func height(scale: Int = 1) -> Int {
        if scale < 1 { return 0 }
        let (h, overflow) = boxHeight.multipliedReportingOverflow(by: scale)
        return overflow ? .max : h
    }

    /// Top-left corner that centres `text`'s box (`width(of:scale:)` × `height(scale:)`) in
    /// `rect`. Odd leftovers put the extra pixel right of / below the text; text larger than
    /// the rect overhangs it equally on both sides (then is clipped when drawn).
    public func origin(centering text: String, in rect: PixelRect, scale: Int = 1) -> (x: Int, y: Int) {
        let w = width(of: text, scale: scale), h = height(scale: scale)
        // Halve with an arithmetic shift (floor), in a wide type so nothing overflows.
        let dx = (Int64(clamping: rect.width) - Int64(clamping: w)) >> 1
        let dy = (Int64(clamping: rect.height) - Int64(clamping: h)) >> 1
        return (x: Int(clamping: Int64(clamping: rect.x) + dx), y: Int(clamping: Int64(clamping: rect.y) + dy))
    }

    // MARK: Iterating lit pixels

    /// Calls `body(x, y)` for every lit pixel of `scalar`'s glyph, row by row.
    @inlinable public func forEachLitPixel(of scalar: Unicode.Scalar, _ body: (_ x: Int, _ y: Int) -> Void) {
        var bits = bitmap(for: scalar)
        let w = cellWidth
        while bits != 0 {
            let i = bits.trailingZeroBitCount
            bits &= bits &- 1
            body(i % w, i / w)
        }
    }

    /// Calls `body(x, y)` for every lit pixel of `text` at scale 1, relative to the top-left of
    /// its text box. Allocates nothing.
    @inlinable public func forEachLitPixel(in text: String, _ body: (_ x: Int, _ y: Int) -> Void) {
        var pen = 0
        for scalar in text.unicodeScalars {
            forEachLitPixel(of: scalar) { x, y in body(pen + x, y) }
            pen += advance
        }
    }

    /// Calls `body` with each lit pixel of `text` drawn at (x, y) with `scale` as a `scale × scale`
    /// block, clipped to `limit`; blocks wholly outside it are skipped. Coordinates saturate
    /// instead of overflowing, so any x, y and scale are safe. Blocks never overlap.
    /// `count`: only the first `count` scalars; `ellipsis`: then the ellipsis glyph.
    func forEachBlock(in text: String, count: Int = .max, ellipsis: Bool = false, x: Int, y: Int, scale: Int, within limit: PixelRect,
                      _ body: (PixelRect) -> Void) {
        if scale < 1 || limit.isEmpty { return }
        let boxBottom = satAdd(y, satMul(boxHeight, scale))
        if boxBottom <= limit.y || y >= limit.maxY { return }
        let step = satMul(advance, scale)
        let glyphWidth = satMul(cellWidth, scale)
        let w = cellWidth, rowMask: UInt64 = (1 << UInt64(cellWidth)) - 1
        var pen = x
        var left = count
        var scalars = text.unicodeScalars.makeIterator()
        var ellipsisLeft = ellipsis
        while true {
            let scalar: Unicode.Scalar
            if left > 0, let next = scalars.next() { scalar = next; left -= 1 } else if ellipsisLeft { scalar = BitmapFont.ellipsis; ellipsisLeft = false } else { break }
            if pen >= limit.maxX { break }
            if satAdd(pen, glyphWidth) > limit.x {
                // Row by row (the bits are rows of `w`, the top one lowest): a row's vertical
                // extent once, then its lit columns, with no division per pixel.
                var rest = bitmap(for: scalar), by = y
                while rest != 0 {
                    var row = rest & rowMask
                    rest >>= UInt64(w)
                    let y0 = Swift.max(by, limit.y), y1 = Swift.min(satAdd(by, scale), limit.maxY)
                    while row != 0 && y0 < y1 {
                        let i = row.trailingZeroBitCount
                        row &= row &- 1
                        let bx = satAdd(pen, satMul(i, scale))
                        let x0 = Swift.max(bx, limit.x), x1 = Swift.min(satAdd(bx, scale), limit.maxX)
                        if x0 < x1 { body(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
                    }
                    by = satAdd(by, scale)
                }
            }
            pen = satAdd(pen, step)
        }
    }
}

@inline(__always) func satAdd(_ a: Int, _ b: Int) -> Int {
    let (r, o) = a.addingReportingOverflow(b)
    return o ? (b > 0 ? .max : .min) : r
}

@inline(__always) func satMul(_ a: Int, _ b: Int) -> Int {
    let (r, o) = a.multipliedReportingOverflow(by: b)
    return o ? ((a < 0) != (b < 0) ? .min : .max) : r
}

/// The ASCII-art format the font files are written in, and its one-time parser.
///
/// Glyphs are laid out in *strips*: a label line naming the glyphs, then one line per glyph row
/// (`rows` lines), each holding one token per glyph, `#` lit and `.` unlit, tokens separated by
/// spaces. Strips are separated by blank lines. A label is the character itself, or `SP` for the
/// space, `FALLBACK` for the glyph drawn for anything unprintable, or `ELLIPSIS` for U+2026. Every printable ASCII
/// character and the fallback must appear exactly once.
///
///     A     B
///     .###. ####.
///     #...# #...#
///     ...
enum GlyphArt {
    /// Works on the art's UTF-8 bytes: split into `Character`s and `Substring`s, the large font
    /// alone took 4.3 M instructions, 87 % of the daemon's whole start to its first frame (a font
    /// is parsed when first used, and the first frame asks which font its message would use).
    static func parse(_ art: String, fontName: String, width: Int, rows: Int) -> [UInt64] {
        var glyphs = [UInt64](repeating: 0, count: BitmapFont.glyphCount + 2)
        var defined = [Bool](repeating: false, count: BitmapFont.glyphCount + 2)
        let bytes = Array(art.utf8)
        let lines = tokenLines(bytes)
        func text(_ token: Range<Int>) -> String { String(decoding: bytes[token], as: UTF8.self) }
        func isWord(_ token: Range<Int>, _ word: StaticString) -> Bool {
            token.count == word.utf8CodeUnitCount
                && word.withUTF8Buffer { $0.elementsEqual(bytes[token]) }
        }
        var i = 0
        while i < lines.count {
            let labels = lines[i]
            if labels.isEmpty { i += 1; continue }
            let indices: [Int] = labels.map { label in
                if isWord(label, "SP") { return 0 }
                if isWord(label, "FALLBACK") { return BitmapFont.fallbackIndex }
                if isWord(label, "ELLIPSIS") { return BitmapFont.ellipsisIndex }
                precondition(label.count == 1 && bytes[label.lowerBound] < 0x80,
                             filled("{}: bad glyph label '{}' on art line {}", fontName, text(label), String(i + 1)))
                let index = BitmapFont.glyphIndex(Unicode.Scalar(bytes[label.lowerBound]))
                precondition(index != BitmapFont.fallbackIndex, filled("{}: '{}' is not printable ASCII", fontName, text(label)))
                return index
            }
            precondition(i + rows < lines.count, filled("{}: strip at art line {} has too few rows", fontName, String(i + 1)))
            for (column, index) in indices.enumerated() {
                precondition(!defined[index], filled("{}: glyph '{}' defined twice", fontName, text(labels[column])))
                defined[index] = true
                var bits: UInt64 = 0
                for row in 0..<rows {
                    let tokens = lines[i + 1 + row]
                    precondition(tokens.count == indices.count,
                                 filled("{}: art line {} has {} glyphs, expected {}", fontName, String(i + 2 + row), String(tokens.count), String(indices.count)))
                    let token = tokens[column]
                    precondition(token.count == width, filled("{}: '{}' row {} is not {} wide", fontName, text(labels[column]), String(row), String(width)))
                    for (col, c) in bytes[token].enumerated() {
                        switch c {
                        case UInt8(ascii: "#"): bits |= 1 << UInt64(row * width + col)
                        case UInt8(ascii: "."): break
                        default: preconditionFailure(filled("{}: '{}' row {} has a character other than # and .", fontName, text(labels[column]), String(row)))
                        }
                    }
                }
                glyphs[index] = bits
            }
            i += 1 + rows
        }
        if let missing = defined.firstIndex(of: false) {
            preconditionFailure(filled("{}: no glyph for index {} (scalar 0x{})", fontName, String(missing), String(missing + 0x20, radix: 16)))
        }
        return glyphs
    }

    /// The art's lines (split at every newline, so blank lines stay), each as the byte ranges of
    /// its space-separated tokens.
    static func tokenLines(_ bytes: [UInt8]) -> [[Range<Int>]] {
        var lines: [[Range<Int>]] = []
        lines.reserveCapacity(bytes.count / 40)
        var line: [Range<Int>] = []
        line.reserveCapacity(16)
        var tokenStart: Int?
        for (k, b) in bytes.enumerated() {
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: " ") {
                if let s = tokenStart { line.append(s..<k); tokenStart = nil }
                if b == UInt8(ascii: "\n") { lines.append(line); line.removeAll(keepingCapacity: true) }
            } else if tokenStart == nil {
                tokenStart = k
            }
        }
        if let s = tokenStart { line.append(s..<bytes.count) }
        lines.append(line)
        return lines
    }
}

extension BitmapFont: CustomStringConvertible {
    public var description: String { filled("BitmapFont.{} ({}x{}+{})", name, String(cellWidth), String(cellHeight), String(descent)) }
}
