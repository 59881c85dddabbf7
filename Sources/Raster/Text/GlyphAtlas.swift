import CompactText

/// Anti-aliased glyphs of one proportional face at one pixel size, rasterised once (by FreeType,
/// see Loaders' `TextFace`) into 8-bit coverage bitmaps with their advances: what a boot screen
/// draws its text with. Drawing (`Mask.add(text:atlas:…)`) only copies coverage; nothing here
/// allocates after `GlyphAtlas.Builder.build`.
///
/// Geometry: the *text box* of a line is `width(of:)` × `boxHeight`, its top `ascender` pixels
/// above the baseline. Pen positions are kept in 1/64 pixel (FreeType's 26.6) and each glyph is
/// placed at its pen position rounded to the pixel, so advances stay proportional and a string's
/// width does not drift with its length.
///
/// Scalars outside the rasterised repertoire (Latin-1, Latin Extended-A, Greek, Cyrillic and some
/// punctuation, chosen by Loaders' `TextFace`) draw the fallback glyph, so, as with the bitmap fonts, every scalar takes one advance.
public struct GlyphAtlas: Sendable {
    /// One glyph: its coverage bitmap (`width × rows`, at `offset` in `coverage`) is drawn with its
    /// top-left `left` pixels right of the pen and `top` pixels above the baseline.
    public struct Glyph: Sendable, Equatable {
        public var left: Int32, top: Int32, width: Int32, rows: Int32
        /// The pen's movement in 1/64 pixel.
        public var advance64: Int32
        var offset: Int32
    }

    /// The pixels per em the face was rasterised at.
    public let pixelSize: Int
    /// Whole pixels above and below the baseline that the face's glyphs reach.
    public let ascender: Int
    public let descender: Int
    let glyphs: [Glyph]
    let coverage: [UInt8]
    /// Glyph index of each scalar below U+0100 (−1: not rasterised).
    let latin: [Int16]
    /// The other rasterised scalars, ascending, and their glyph indices.
    let otherScalars: [UInt32]
    let otherIndices: [Int16]
    let fallbackIndex: Int
    let ellipsisIndex: Int

    public static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// Height of the text box: ascender plus descender.
    public var boxHeight: Int { ascender + descender }

    /// The glyph drawn for `scalar`.
    public func glyph(for scalar: Unicode.Scalar) -> Glyph { glyphs[index(of: scalar.value)] }

    func index(of value: UInt32) -> Int {
        if value < 0x100 {
            let i = Int(latin[Int(value)])
            return i >= 0 ? i : fallbackIndex
        }
        var low = 0, high = otherScalars.count
        while low < high {
            let mid = (low + high) / 2
            if otherScalars[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < otherScalars.count && otherScalars[low] == value ? Int(otherIndices[low]) : fallbackIndex
    }

    /// Width in pixels of the first `count` scalars of `text`, plus the ellipsis if asked.
    public func width(of text: String, count: Int = .max, ellipsis: Bool = false) -> Int {
        var pen = 0, n = 0
        for scalar in text.unicodeScalars {
            if n == count { break }
            pen += Int(glyphs[index(of: scalar.value)].advance64)
            n += 1
        }
        if ellipsis { pen += Int(glyphs[ellipsisIndex].advance64) }
        return (pen + 32) >> 6
    }

    /// How much of `text` to draw in `width` pixels: everything if it fits; else the most whole
    /// words that fit with an ellipsis after them; else (a first word longer than the line) as many
    /// letters as fit, then the ellipsis. The same rule as `BitmapFont.fit`, with proportional
    /// advances. Allocates nothing.
    public func fit(_ text: String, width: Int) -> (count: Int, ellipsis: Bool) {
        var total = 0
        for _ in text.unicodeScalars { total += 1 }
        if self.width(of: text) <= width { return (total, false) }
        let limit = width << 6, dots = Int(glyphs[ellipsisIndex].advance64)
        var pen = 0, best = 0, letters = 0, index = 0
        var previousWasSpace = true
        for scalar in text.unicodeScalars {
            // Nothing from here on fits with the ellipsis after it (widths round to the nearest
            // pixel: w fits when w < limit + ½ pixel).
            if pen + dots >= limit + 32 { break }
            let isSpace = scalar == " " || scalar == "\u{A0}"
            // A word ends before this space: cutting here keeps it whole.
            if isSpace && !previousWasSpace { best = index }
            pen += Int(glyphs[self.index(of: scalar.value)].advance64)
            if pen + dots < limit + 32 { letters = index + 1 }
            previousWasSpace = isSpace
            index += 1
        }
        return (best > 0 ? best : letters, true)
    }

    /// Collects rasterised glyphs, then freezes them into an atlas.
    public struct Builder {
        let pixelSize: Int, ascender: Int, descender: Int
        var glyphs: [Glyph] = []
        var coverage: [UInt8] = []
        var scalars: [(value: UInt32, index: Int16)] = []

        public init(pixelSize: Int, ascender: Int, descender: Int) {
            self.pixelSize = pixelSize; self.ascender = ascender; self.descender = descender
        }

        /// Adds the glyph of `scalar`: `rows` rows of `width` coverage bytes, row r at
        /// `buffer + r·pitch`.
        public mutating func add(_ scalar: UInt32, left: Int, top: Int, width: Int, rows: Int, advance64: Int,
                                 buffer: UnsafePointer<UInt8>?, pitch: Int) {
            let w = Swift.max(0, width), h = buffer == nil ? 0 : Swift.max(0, rows)
            glyphs.append(Glyph(left: Int32(left), top: Int32(top), width: Int32(w), rows: Int32(h),
                                advance64: Int32(clamping: advance64), offset: Int32(coverage.count)))
            if let buffer {
                for r in 0..<h {
                    for c in 0..<w { coverage.append(buffer[r * pitch + c]) }
                }
            }
            scalars.append((scalar, Int16(glyphs.count - 1)))
        }

        /// Whether `scalar` was added.
        public func contains(_ scalar: UInt32) -> Bool { scalars.contains { $0.value == scalar } }

        /// The atlas; `fallback` is drawn for scalars without a glyph (it must have been added), and
        /// the ellipsis glyph is U+2026 when added, else the fallback's.
        public func build(fallback: UInt32) -> GlyphAtlas {
            var latin = [Int16](repeating: -1, count: 0x100)
            var others: [(value: UInt32, index: Int16)] = []
            for s in scalars {
                if s.value < 0x100 { latin[Int(s.value)] = s.index } else { others.append(s) }
            }
            // By insertion: the repertoire arrives in ascending order, so this is one pass, and the
            // board binaries carry no standard-library sort for it.
            for i in others.indices.dropFirst() {
                let item = others[i]
                var j = i
                while j > 0 && others[j - 1].value > item.value { others[j] = others[j - 1]; j -= 1 }
                others[j] = item
            }
            func find(_ v: UInt32) -> Int? { scalars.first { $0.value == v }.map { Int($0.index) } }
            let fallbackIndex = find(fallback) ?? 0
            return GlyphAtlas(pixelSize: pixelSize, ascender: ascender, descender: descender, glyphs: glyphs,
                              coverage: coverage, latin: latin, otherScalars: others.map { $0.value },
                              otherIndices: others.map { $0.index }, fallbackIndex: fallbackIndex,
                              ellipsisIndex: find(GlyphAtlas.ellipsis.value) ?? fallbackIndex)
        }
    }
}

extension Mask {
    /// Adds `text` in `atlas` with its text box's top-left corner at (x, y): each pixel takes the
    /// larger of its coverage and the glyph's (overlapping glyphs make a union, not a double
    /// stroke). `count` and `ellipsis` as for bitmap text; clipped to the mask and to `within`.
    /// Allocates nothing.
    public mutating func add(text: String, atlas: GlyphAtlas, x: Int, y: Int, count: Int = .max,
                             ellipsis: Bool = false, within window: PixelRect? = nil) {
        var limit = PixelRect(x: 0, y: 0, width: width, height: height)
        if let window { limit = limit.intersection(window) }
        if limit.isEmpty { return }
        let w = width, baseline = y + atlas.ascender
        var pen = 0, n = 0
        var touched = written
        defer { written = touched }
        coverage.withUnsafeMutableBufferPointer { cov in
            atlas.coverage.withUnsafeBufferPointer { src in
                func put(_ g: GlyphAtlas.Glyph) {
                    let gx = x + ((pen + 32) >> 6) + Int(g.left), gy = baseline - Int(g.top)
                    let gw = Int(g.width), gh = Int(g.rows), base = Int(g.offset)
                    let x0 = Swift.max(gx, limit.x), x1 = Swift.min(gx + gw, limit.maxX)
                    let y0 = Swift.max(gy, limit.y), y1 = Swift.min(gy + gh, limit.maxY)
                    if x0 < x1 && y0 < y1 {
                        touched = touched.union(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
                        for row in y0..<y1 {
                            let s = base + (row - gy) * gw - gx, d = row * w
                            for col in x0..<x1 where src[s + col] > cov[d + col] { cov[d + col] = src[s + col] }
                        }
                    }
                    pen += Int(g.advance64)
                }
                for scalar in text.unicodeScalars {
                    if n == count { break }
                    put(atlas.glyphs[atlas.index(of: scalar.value)])
                    n += 1
                }
                if ellipsis { put(atlas.glyphs[atlas.ellipsisIndex]) }
            }
        }
    }
}
