import FixedPoint
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import Raster

private let fonts: [BitmapFont] = [.small, .large, .large8]
private let printable: [Unicode.Scalar] = (0x20...0x7E).map { Unicode.Scalar(UInt8($0)) }

/// The canvas as ASCII art: '#' where anything was drawn, '.' elsewhere, rows joined by "\n".
private func art(_ canvas: Canvas) -> String {
    var rows: [String] = []
    for y in 0..<canvas.height {
        var row = ""
        for x in 0..<canvas.width { row += canvas[x, y].a > 0 ? "#" : "." }
        rows.append(row)
    }
    return rows.joined(separator: "\n")
}

private func art(_ mask: Mask) -> String {
    var rows: [String] = []
    for y in 0..<mask.height {
        var row = ""
        for x in 0..<mask.width { row += mask[x, y] == 255 ? "#" : (mask[x, y] == 0 ? "." : "?") }
        rows.append(row)
    }
    return rows.joined(separator: "\n")
}

/// `text` drawn in white on a canvas exactly the size of its text box (plus `margin` all round).
private func rendered(_ text: String, _ font: BitmapFont, scale: Int = 1, margin: Int = 0) -> Canvas {
    var canvas = Canvas(width: font.width(of: text, scale: scale) + 2 * margin,
                        height: font.height(scale: scale) + 2 * margin)
    canvas.draw(text: text, font: font, x: margin, y: margin, scale: scale, paint: .solid(.white))
    return canvas
}

@Suite struct BitmapFontTests {
    @Test(arguments: fonts) func metrics(font: BitmapFont) {
        #expect(font.advance == font.cellWidth + 1)
        #expect(font.lineHeight > font.boxHeight)
        #expect(font.cellWidth * font.boxHeight <= 64)
    }

    @Test func documentedMetrics() {
        let s = BitmapFont.small, l = BitmapFont.large
        #expect((s.cellWidth, s.cellHeight, s.descent, s.advance, s.lineHeight) == (3, 5, 0, 4, 6))
        #expect((l.cellWidth, l.cellHeight, l.descent, l.advance, l.lineHeight) == (5, 7, 2, 6, 10))
        #expect(s.height() == 5 && l.height() == 9 && l.height(scale: 3) == 27)
        let e = BitmapFont.large8
        #expect((e.cellWidth, e.cellHeight, e.descent, e.advance, e.lineHeight) == (5, 7, 1, 6, 9))
    }

    @Test func eightRowLarge() {
        // Capitals and the x-height as the large font; a descender gives up a repeated body row
        // and keeps its tail in the eighth row.
        let expected = """
            ####...............#.............................................
            #...#..............#.............................................
            #...#..###...###..####.........####.#...#.####...####.#...#..##..
            ####..#...#.#...#..#..........#...#.#...#.#...#.#.....#...#......
            #...#.#...#.#...#..#..........#...#.#...#.#...#..###..#...#..##..
            #...#.#...#.#...#..#..#........####..####.####......#..####..##..
            ####...###...###....##............#.....#.#.....####......#...#..
            ...............................###...###..#............###...#...
            """
        #expect(art(rendered("Boot gypsy;", .large8)) == expected)
        for scalar in ["g", "j", "p", "q", "y", ",", ";", "_"] as [Unicode.Scalar] {
            let nine = BitmapFont.large, eight = BitmapFont.large8
            // The tail, the lowest lit row of the nine, is the lowest of the eight.
            func lowest(_ font: BitmapFont) -> (row: Int, pixels: [Bool]) {
                let row = (0..<font.boxHeight).last { y in (0..<5).contains { font.isLit(scalar, x: $0, y: y) } }!
                return (row, (0..<5).map { font.isLit(scalar, x: $0, y: row) })
            }
            #expect(lowest(eight).pixels == lowest(nine).pixels && lowest(eight).row == 7, "'\(scalar)' lost its tail")
        }
    }

    @Test(arguments: fonts) func everyGlyphIsDrawnAndDistinct(font: BitmapFont) {
        var seen: [UInt64: Unicode.Scalar] = [:]
        for scalar in printable {
            let bits = font.bitmap(for: scalar)
            #expect(font.hasGlyph(for: scalar))
            if scalar == " " {
                #expect(bits == 0, "space must be blank")
                continue
            }
            #expect(bits != 0, "\(font.name): '\(scalar)' is empty")
            #expect(bits >> UInt64(font.cellWidth * font.boxHeight) == 0, "stray bits outside the box")
            if let other = seen[bits] {
                Issue.record("\(font.name): '\(scalar)' and '\(other)' share a bitmap")
            }
            seen[bits] = scalar
        }
        #expect(seen[font.fallbackBitmap] == nil, "\(font.name): fallback looks like a printable glyph")
        #expect(font.fallbackBitmap != 0)
    }

    @Test(arguments: fonts) func descendersOnlyWhereTheFontHasThem(font: BitmapFont) {
        // Glyphs that may reach below the baseline; everything else stays in the cell.
        let descending: Set<Unicode.Scalar> = ["g", "j", "p", "q", "y", ",", ";", "_"]
        for scalar in printable where !descending.contains(scalar) {
            for y in font.cellHeight..<font.boxHeight {
                for x in 0..<font.cellWidth { #expect(!font.isLit(scalar, x: x, y: y), "'\(scalar)' below baseline") }
            }
        }
        if font.descent > 0 {
            for scalar in ["g", "j", "p", "q", "y"] as [Unicode.Scalar] {
                let below = (0..<font.cellWidth).contains { font.isLit(scalar, x: $0, y: font.cellHeight) }
                #expect(below, "'\(scalar)' should descend")
            }
        }
    }

    @Test func unprintableScalarsDrawTheFallback() {
        for font in fonts {
            for scalar in ["\n", "\t", "\u{7F}", "→", "\u{1F600}", "\0"] as [Unicode.Scalar] {
                #expect(!font.hasGlyph(for: scalar))
                #expect(font.bitmap(for: scalar) == font.fallbackBitmap)
            }
        }
    }

    @Test func isLitBounds() {
        let f = BitmapFont.small
        // small "T" is ### / .#. / .#. / .#. / .#.
        #expect(f.isLit("T", x: 0, y: 0) && f.isLit("T", x: 2, y: 0) && f.isLit("T", x: 1, y: 4))
        #expect(!f.isLit("T", x: 0, y: 1) && !f.isLit("T", x: 2, y: 4))
        for (x, y) in [(-1, 0), (0, -1), (3, 0), (0, 5), (Int.min, Int.max)] { #expect(!f.isLit("#", x: x, y: y)) }
    }

    @Test func widths() {
        #expect(BitmapFont.small.width(of: "") == 0)
        #expect(BitmapFont.small.width(of: "A") == 3)
        #expect(BitmapFont.small.width(of: "Hi 42%") == 23)
        #expect(BitmapFont.large.width(of: "Boot") == 23)
        #expect(BitmapFont.large.width(of: "Boot", scale: 2) == 46)
        #expect(BitmapFont.small.width(of: "é\n") == 7, "one advance per scalar, fallback included")
        #expect(BitmapFont.small.width(of: "e\u{301}") == 7, "a combining mark is its own scalar")
        #expect(BitmapFont.small.width(of: "AB", scale: 0) == 0)
        #expect(BitmapFont.small.width(of: "AB", scale: Int.max) == Int.max)
    }

    @Test func forEachLitPixelMatchesIsLit() {
        let font = BitmapFont.large
        var count = 0
        font.forEachLitPixel(in: "Ab") { x, y in
            let scalar: Unicode.Scalar = x < font.advance ? "A" : "b"
            #expect(font.isLit(scalar, x: x % font.advance, y: y))
            count += 1
        }
        let expected = (font.bitmap(for: "A").nonzeroBitCount + font.bitmap(for: "b").nonzeroBitCount)
        #expect(count == expected)
    }

    @Test func centring() {
        let font = BitmapFont.small
        // 8-pixel LED strip, 32 wide: "OK" is 7×5 → (12, 1) (odd leftovers go right / below).
        let o = font.origin(centering: "OK", in: PixelRect(x: 0, y: 0, width: 32, height: 8), scale: 1)
        #expect(o.x == 12 && o.y == 1)
        let o2 = font.origin(centering: "OK", in: PixelRect(x: 10, y: 20, width: 14, height: 10), scale: 2)
        #expect(o2.x == 10 && o2.y == 20)
        // Wider than the rect: overhangs both sides.
        let o3 = font.origin(centering: "WIDE TEXT", in: PixelRect(x: 0, y: 0, width: 8, height: 8), scale: 1)
        #expect(o3.x == (8 - 35) >> 1 && o3.y == 1)
    }
}

@Suite struct TextDrawingTests {
    @Test func goldenSmall() {
        let expected = """
            #.#..#......#.#.###.#.#
            #.#.........#.#...#...#
            ###..#......###.###..#.
            #.#..#........#.#...#..
            #.#..#........#.###.#.#
            """
        #expect(art(rendered("Hi 42%", .small)) == expected)
    }

    @Test func goldenLarge() {
        // Rows 7 and 8 are the descender rows: nothing in "Boot" reaches them.
        let expected = """
            ####...............#...
            #...#..............#...
            #...#..###...###..####.
            ####..#...#.#...#..#...
            #...#.#...#.#...#..#...
            #...#.#...#.#...#..#..#
            ####...###...###....##.
            .......................
            .......................
            """
        #expect(art(rendered("Boot", .large)) == expected)
    }

    @Test func scaleTwo() {
        let one = rendered("a1", .small)
        let two = rendered("a1", .small, scale: 2)
        #expect(two.width == one.width * 2 && two.height == one.height * 2)
        for y in 0..<two.height {
            for x in 0..<two.width { #expect(two[x, y] == one[x / 2, y / 2]) }
        }
    }

    @Test func paintOpacityAndBlend() {
        var canvas = Canvas(width: 3, height: 5)
        canvas.clear(to: .black)
        canvas.draw(text: "T", font: .small, x: 0, y: 0, paint: .solid(.white), opacity: .half)
        #expect(canvas[0, 0] == Pixel(r: 128, g: 128, b: 128, a: 255))
        #expect(canvas[0, 1] == Pixel(r: 0, g: 0, b: 0, a: 255))
        canvas.draw(text: "T", font: .small, x: 0, y: 0, paint: .solid(.white), blend: .plusLighter)
        #expect(canvas[1, 1] == Pixel(r: 255, g: 255, b: 255, a: 255))
        var faint = Canvas(width: 3, height: 5)
        faint.draw(text: "T", font: .small, x: 0, y: 0, paint: .solid(.white), opacity: .zero)
        #expect(faint.pixels.allSatisfy { $0 == .transparent })
    }

    @Test func gradientPaint() {
        var canvas = Canvas(width: 11, height: 5)
        let g = LinearGradient(colors: [.red, .blue], startX: .zero, endX: Fixed(11))
        canvas.draw(text: "III", font: .small, x: 0, y: 0, paint: .linearGradient(g))
        #expect(canvas[0, 0].r > canvas[10, 0].r && canvas[0, 0].b < canvas[10, 0].b)
        #expect(canvas[3, 0] == .transparent, "spacing column stays empty")
    }

    @Test func respectsClips() {
        var canvas = Canvas(width: 23, height: 5)
        canvas.withClip(.rect(FixedRect(x: .zero, y: .zero, width: Fixed(4), height: Fixed(5)))) { c in
            c.draw(text: "Hi 42%", font: .small, x: 0, y: 0, paint: .solid(.white))
        }
        let full = rendered("Hi 42%", .small)
        for y in 0..<5 {
            for x in 0..<23 { #expect(canvas[x, y] == (x < 4 ? full[x, y] : .transparent)) }
        }
        // A half-pixel clip edge halves the coverage of the pixel it crosses.
        var soft = Canvas(width: 3, height: 5)
        soft.withClip(.rect(FixedRect(x: .zero, y: .zero, width: Fixed(5, over: 2), height: Fixed(5)))) { c in
            c.draw(text: "T", font: .small, x: 0, y: 0, paint: .solid(.white))
        }
        #expect(soft[1, 0].a == 255 && soft[2, 0].a == 128)
    }

    @Test func offCanvasTextIsClipped() {
        let full = rendered("Hi 42%", .small, margin: 0)
        for (dx, dy) in [(-5, 0), (0, -2), (-22, -4), (10, 3), (20, 4)] {
            var canvas = Canvas(width: 23, height: 5)
            canvas.draw(text: "Hi 42%", font: .small, x: dx, y: dy, paint: .solid(.white))
            for y in 0..<5 {
                for x in 0..<23 {
                    let sx = x - dx, sy = y - dy
                    let want = (0..<23).contains(sx) && (0..<5).contains(sy) ? full[sx, sy] : .transparent
                    #expect(canvas[x, y] == want, "offset (\(dx), \(dy)) pixel (\(x), \(y))")
                }
            }
        }
        // Wholly off canvas, at extreme coordinates and scales: draws nothing, never traps.
        var canvas = Canvas(width: 8, height: 8)
        for (x, y, s) in [(-100, 0, 1), (8, 0, 1), (0, 8, 1), (0, -5, 1), (Int.max, 0, 1), (Int.min, Int.min, 3),
                          (Int.max - 1, Int.max - 1, Int.max), (0, 0, 0), (0, 0, -4)] {
            canvas.draw(text: "Hi 42%", font: .small, x: x, y: y, scale: s, paint: .solid(.white))
        }
        #expect(canvas.pixels.allSatisfy { $0 == .transparent })
        // A huge scale from far off-canvas still lands the right block on the canvas.
        canvas.draw(text: "I", font: .small, x: -1 << 40, y: -1 << 40, scale: 1 << 40, paint: .solid(.white))
        // small "I" row 1 is .#. : the block at column 1 row 1 covers (0 ..< 2^40) → whole canvas.
        #expect(canvas.pixels.allSatisfy { $0.a == 255 })
        var mask = Mask(width: 4, height: 4)
        mask.add(text: "Hi", font: .large, x: Int.min, y: Int.max, scale: Int.max)
        mask.add(text: "Hi", font: .large, x: -3, y: -3, scale: 2)
        #expect(mask.coverage.contains(255))
    }

    @Test func maskText() {
        var mask = Mask(width: 25, height: 7)
        mask.add(text: "Hi 42%", font: .small, x: 1, y: 1)
        let canvas = rendered("Hi 42%", .small, margin: 1)
        for y in 0..<7 {
            for x in 0..<25 { #expect((mask[x, y] == 255) == (canvas[x, y].a == 255) && (mask[x, y] == 0 || mask[x, y] == 255)) }
        }
        // Filled through a gradient, the mask gives the same shape.
        var painted = Canvas(width: 25, height: 7)
        painted.fill(mask, with: .linearGradient(LinearGradient(colors: [.pink, .purple], endX: Fixed(25))))
        #expect(art(painted) == art(canvas))
        // Scale 2 into a mask matches scale 2 on a canvas, and clear() empties it.
        var big = Mask(width: 12, height: 18)
        big.add(text: "Bo", font: .large, x: 0, y: 0, scale: 2)
        #expect(art(big) == art(rendered("Bo", .large, scale: 2)).split(separator: "\n").map { String($0.prefix(12)) }.joined(separator: "\n"))
        big.clear()
        #expect(!big.coverage.contains(255))
    }

    /// Writes every glyph of both fonts, at scale 4, to the PPM file named by $LOADERD_FONT_SHEET
    /// (for eyeballing; does nothing when it is unset).
    @Test func fontSheet() throws {
        guard let path = getenv("LOADERD_FONT_SHEET") else { return }
        let perRow = 16, scale = 4, pad = 2
        var rowsOfText: [(BitmapFont, String)] = []
        for font in fonts {
            var i = 0
            while i < printable.count {
                var s = ""
                for scalar in printable[i..<min(i + perRow, printable.count)] { s.unicodeScalars.append(scalar) }
                rowsOfText.append((font, s))
                i += perRow
            }
            rowsOfText.append((font, "\u{7F}"))
        }
        let width = perRow * BitmapFont.large.advance * scale + 2 * pad
        let height = rowsOfText.reduce(pad) { $0 + $1.0.lineHeight * scale }
        var canvas = Canvas(width: width, height: height)
        canvas.clear(to: Color(rgb: 0x202020))
        var y = pad
        for (font, text) in rowsOfText {
            // Light bands behind each glyph cell so the spacing and baseline show.
            var pen = pad
            for _ in text.unicodeScalars {
                canvas.fill(Rectangle(FixedRect(x: Fixed(pen), y: Fixed(y), width: Fixed(font.cellWidth * scale), height: Fixed(font.cellHeight * scale))),
                            with: .solid(Color(rgb: 0x303848)))
                if font.descent > 0 {
                    canvas.fill(Rectangle(FixedRect(x: Fixed(pen), y: Fixed(y + font.cellHeight * scale), width: Fixed(font.cellWidth * scale), height: Fixed(font.descent * scale))),
                                with: .solid(Color(rgb: 0x483030)))
                }
                pen += font.advance * scale
            }
            canvas.draw(text: text, font: font, x: pad, y: y, scale: scale, paint: .solid(.white))
            y += font.lineHeight * scale
        }
        var bytes: [UInt8] = Array("P6\n\(width) \(height)\n255\n".utf8)
        for p in canvas.pixels { bytes += [p.r, p.g, p.b] }
        let file = try #require(fopen(path, "wb"))
        defer { fclose(file) }
        #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
    }
}
