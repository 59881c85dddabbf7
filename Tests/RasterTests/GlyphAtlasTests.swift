import Raster
import Testing

/// GlyphAtlas on made-up glyphs (no FreeType): measuring, fitting and copying coverage, clipped.
@Suite struct GlyphAtlasTests {
    /// "a": a 3x4 block of coverage 200, 1 px right of the pen, 4 above the baseline, advance 4.5 px;
    /// " ": advance 2 px; "…": 1x1 of 255, advance 3 px; "?": 2x2 of 100, advance 3 px (the fallback).
    static let atlas: GlyphAtlas = {
        var b = GlyphAtlas.Builder(pixelSize: 6, ascender: 5, descender: 2)
        let a = [UInt8](repeating: 200, count: 12), dot: [UInt8] = [255], q = [UInt8](repeating: 100, count: 4)
        a.withUnsafeBufferPointer { b.add(0x61, left: 1, top: 4, width: 3, rows: 4, advance64: 288, buffer: $0.baseAddress, pitch: 3) }
        b.add(0x20, left: 0, top: 0, width: 0, rows: 0, advance64: 128, buffer: nil, pitch: 0)
        dot.withUnsafeBufferPointer { b.add(0x2026, left: 1, top: 1, width: 1, rows: 1, advance64: 192, buffer: $0.baseAddress, pitch: 1) }
        q.withUnsafeBufferPointer { b.add(0x3F, left: 0, top: 2, width: 2, rows: 2, advance64: 192, buffer: $0.baseAddress, pitch: 2) }
        return b.build(fallback: 0x3F)
    }()

    @Test func widthsAddAdvancesAndRoundOnce() {
        let f = Self.atlas
        #expect(f.boxHeight == 7)
        #expect(f.width(of: "a") == 5)            // 4.5 rounds up
        #expect(f.width(of: "aa") == 9)           // 9.0, not 5 + 5
        #expect(f.width(of: "aa a") == 16)        // 4.5 + 4.5 + 2 + 4.5 = 15.5
        #expect(f.width(of: "aa", count: 1, ellipsis: true) == 8)  // 4.5 + 3 = 7.5
        #expect(f.width(of: "b") == 3, "unknown scalars take the fallback's advance")
        #expect(f.glyph(for: "\u{1F600}") == f.glyph(for: "?"))
    }

    @Test func fitKeepsWholeWordsThenLetters() {
        let f = Self.atlas
        #expect(f.fit("aa aa", width: 20) == (5, false))           // 20.0 px: fits
        #expect(f.fit("aa aa", width: 19) == (2, true))            // "aa…" = 12 px
        #expect(f.fit("aaaa", width: 12) == (2, true))             // one word: letters, 9 + 3 = 12
        #expect(f.fit("aaaa", width: 11) == (1, true))
        #expect(f.fit("aaaa", width: 2) == (0, true))
        // "a…" is 7.5 px, which rounds to 8: it fits in 8, not in 7.
        #expect(f.fit("aaaa", width: 8) == (1, true))
        #expect(f.fit("aaaa", width: 7) == (0, true))
    }

    @Test func coverageIsCopiedAtRoundedPenPositionsAndClipped() {
        let f = Self.atlas
        var mask = Mask(width: 12, height: 8)
        mask.add(text: "aa", atlas: f, x: 0, y: 0)
        // Baseline at y = 5; glyph rows 1..<5; first "a" at x 1..<4, second at round(4.5) + 1 = 6..<9.
        func row(_ y: Int) -> [UInt8] { Array(mask.coverage[(y * 12)..<(y * 12 + 12)]) }
        #expect(row(0) == [UInt8](repeating: 0, count: 12))
        #expect(row(1) == [0, 200, 200, 200, 0, 0, 200, 200, 200, 0, 0, 0])
        #expect(row(4) == row(1))
        #expect(row(5) == [UInt8](repeating: 0, count: 12))
        // Off the left, top and right edges: only what is on the mask, nothing wraps.
        // Baseline at 3: rows -1...2; the first a at columns -1...1, the second at 4...6.
        var clipped = Mask(width: 6, height: 4)
        clipped.add(text: "aa", atlas: f, x: -2, y: -2)
        let c = clipped.coverage
        for y in 0..<3 { #expect(Array(c[(y * 6)..<(y * 6 + 6)]) == [200, 200, 0, 0, 200, 200]) }
        #expect(Array(c[18..<24]) == [0, 0, 0, 0, 0, 0])
        // Drawn twice, coverage stays what one glyph gives (a union, not a sum).
        var twice = Mask(width: 6, height: 8)
        twice.add(text: "a", atlas: f, x: 0, y: 0)
        twice.add(text: "a", atlas: f, x: 0, y: 0)
        #expect(twice.coverage[1 * 6 + 1] == 200)
        // Within a window; the ellipsis after a count.
        var m = Mask(width: 12, height: 8)
        m.add(text: "a", atlas: f, x: 0, y: 0, within: PixelRect(x: 2, y: 0, width: 12, height: 8))
        #expect(m.coverage[1 * 12 + 1] == 0 && m.coverage[1 * 12 + 2] == 200)
        m.add(text: "aa", atlas: f, x: 0, y: 0, count: 1, ellipsis: true)
        #expect(m.coverage[4 * 12 + 6] == 255, "the ellipsis' dot, after the first a")
        #expect(m.coverage[1 * 12 + 1] == 200)
    }
}
