import FixedPoint
import Foundation
@testable import Loaders
import Raster
import Testing

/// A screen's text in a real font through the real FreeType (Debian's libfreetype6 and
/// fonts-dejavu-core: `scripts/install-build-deps --tests`), and the fallback to the bitmap fonts.
@Suite("anti-aliased text with FreeType")
struct TextFaceTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func face(_ pixelSize: Int) throws -> GlyphAtlas {
        try TextFace.load(.file(dejaVu), pixelSize: pixelSize)
    }

    /// The rows of `mask` and the columns with any coverage, and the coverage values used.
    static func inked(_ mask: Mask) -> (rows: ClosedRange<Int>?, columns: ClosedRange<Int>?, levels: Set<UInt8>) {
        var rows: ClosedRange<Int>? = nil, columns: ClosedRange<Int>? = nil
        var levels = Set<UInt8>()
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let c = mask.coverage[y * mask.width + x]
                guard c > 0 else { continue }
                levels.insert(c)
                rows = rows.map { Swift.min($0.lowerBound, y)...Swift.max($0.upperBound, y) } ?? y...y
                columns = columns.map { Swift.min($0.lowerBound, x)...Swift.max($0.upperBound, x) } ?? x...x
            }
        }
        return (rows, columns, levels)
    }

    @Test("glyphs are anti-aliased and as tall as the pixel size asks", arguments: [14, 19, 28, 40])
    func glyphsHaveTheRequestedHeight(pixelSize: Int) throws {
        let face = try Self.face(pixelSize)
        #expect(face.pixelSize == pixelSize)
        // DejaVu Sans: capitals 0.729 em, the line box (ascender + descender) 1.164 em.
        let h = face.glyph(for: "H")
        let cap = Double(pixelSize) * 0.729
        #expect(abs(Double(h.rows) - cap) <= 1.5, "H is \(h.rows) rows at \(pixelSize) px")
        #expect(h.top == h.rows, "H stands on the baseline")
        #expect(abs(Double(face.boxHeight) - Double(pixelSize) * 1.164) <= 2.0, "box \(face.boxHeight)")
        var mask = Mask(width: 200, height: 80)
        mask.add(text: "Og", atlas: face, x: 4, y: 4)
        let ink = Self.inked(mask)
        // Grey levels at the curves' edges: many, not just on and off.
        #expect(ink.levels.count >= 8, "\(ink.levels.count) coverage levels")
        #expect(ink.levels.contains(255))
        // The descender of g reaches below the baseline, inside the box.
        let rows = try #require(ink.rows)
        #expect(rows.upperBound > 4 + face.ascender && rows.upperBound < 4 + face.boxHeight + 1)
    }

    @Test func advancesAreProportional() throws {
        let face = try Self.face(28)
        let iii = face.width(of: "iii"), www = face.width(of: "WWW")
        #expect(iii * 3 < www, "iii \(iii) px, WWW \(www) px")
        // A string is as wide as its advances, rounded once (no drift per glyph).
        let i = Int(face.glyph(for: "i").advance64)
        #expect(face.width(of: String(repeating: "i", count: 50)) == (50 * i + 32) >> 6)
        // The drawn ink matches the measured width within the side bearings.
        var mask = Mask(width: 300, height: 60)
        mask.add(text: "WWW", atlas: face, x: 10, y: 10)
        let columns = try #require(Self.inked(mask).columns)
        #expect(abs((columns.upperBound - columns.lowerBound + 1) - www) <= 3)
    }

    @Test func fittingCutsAfterWholeWordsWithTheFaceMetrics() throws {
        let face = try Self.face(20)
        let text = "Starting network services"
        let exact = face.width(of: "Starting network…")
        #expect(face.fit(text, width: face.width(of: text)) == (25, false))
        #expect(face.fit(text, width: exact) == (16, true))
        #expect(face.fit(text, width: exact - 2) == (8, true), "one word less")
        // A first word longer than the line: as many letters as fit, then the ellipsis.
        let cut = face.fit("Internationalisation", width: face.width(of: "Inter…"))
        #expect(cut == (5, true))
        #expect(face.width(of: "Internationalisation", count: cut.count, ellipsis: true) <= face.width(of: "Inter…"))
        // Laid out in a rectangle: the cut line is centred and no wider than it.
        var mask = Mask(width: 400, height: 60)
        let p = try #require(ShimmerText.layOut(text, atlas: face, in: PixelRect(x: 0, y: 0, width: exact, height: 30), mask: &mask))
        #expect(p.width == exact && p.x == 0)
    }

    @Test func outsideTheRepertoireDrawsTheFallback() throws {
        let face = try Self.face(20)
        #expect(face.glyph(for: "\u{4E2D}") == face.glyph(for: "\u{FFFD}"))
        #expect(face.glyph(for: "é") != face.glyph(for: "e"), "Latin-1 has its own glyphs")
        #expect(face.glyph(for: "…").advance64 > 0)
    }

    /// Polish, Czech, Turkish, Romanian, Greek, Cyrillic and the check marks have their own
    /// glyphs (they were the fallback); right-to-left scripts stay the fallback (unshaped, left
    /// to right, their words would be wrong).
    @Test func europeanAlphabetsHaveTheirGlyphs() throws {
        let face = try Self.face(20)
        let fallback = face.glyph(for: "\u{FFFD}")
        for scalar in "łŁšěžřőşıİțșΕκίώЗапускслужбҐґ✓✗„‹".unicodeScalars {
            #expect(face.glyph(for: scalar) != fallback, "U+\(String(scalar.value, radix: 16, uppercase: true)) draws the fallback")
        }
        #expect(face.glyph(for: "\u{05D0}") == fallback, "Hebrew is not drawn unshaped")
        #expect(face.glyph(for: "\u{0627}") == fallback, "Arabic is not drawn unshaped")
    }

    /// A message longer than a screen's line is broken after whole words onto up to three lines
    /// (one line cut its last words, where a boot's error says what failed); a word longer than
    /// a line is broken where the line ends; shimmer styles keep one line.
    @Test func aLongMessageTakesUpToThreeLines() throws {
        let face = try Self.face(14)
        let text = "Starting the network: NetworkManager is waiting for the DHCP server on eth0 to answer, and the wireless interface wlan0 could not associate; error 17"
        let two = MessageWrap.lines(text, atlas: face, width: 700)
        #expect(two.count == 2 && two.joined(separator: " ") == text, "\(two)")
        #expect(two.allSatisfy { face.width(of: $0) <= 700 })
        let three = MessageWrap.lines(text, atlas: face, width: 200)
        #expect(three.count == 3 && text.hasPrefix(three[0] + " " + three[1] + " ") && text.hasSuffix(three[2]), "\(three)")
        let path = String(repeating: "/usr/lib/systemd", count: 8)
        let broken = MessageWrap.lines(path, atlas: face, width: 300)
        #expect(broken.count >= 2 && broken.joined() == path, "\(broken)")
        #expect(MessageWrap.lines("Mounting /home", atlas: face, width: 700) == ["Mounting /home"])

        // In a scene at 800x480: the plain line takes two rows of text; a shimmer style one.
        func inkRows(_ style: MessageStyle) throws -> Int {
            var options = SceneOptions()
            options.messageStyle = style
            options.font = .automatic
            var scene = Scene(loader: try Catalog.make("linkedin"), width: 800, height: 480, options: options)
            scene.useFace(face)
            scene.render(FrameState(elapsed: 600_000, message: text))
            let area = try #require(scene.areas(message: text).message)
            var rows = 0
            for y in area.y..<scene.canvas.height where (0..<800).contains(where: { scene.canvas[$0, y].a > 0 }) { rows += 1 }
            return rows
        }
        #expect(try inkRows(.plain) > face.boxHeight + 4, "the long message stayed on one line")
        #expect(try inkRows(.calm) <= face.boxHeight + 2, "a shimmer style wrapped")
    }

    @Test func withoutTheLibraryOrTheFontTheErrorSaysWhich() {
        #expect(throws: TextFaceError(description: "libloaderd-no-freetype.so.6 could not be loaded (install libfreetype6)")) {
            try TextFace.load(.automatic, pixelSize: 20, library: "libloaderd-no-freetype.so.6")
        }
        #expect(throws: TextFaceError(description: "font /nonexistent/font.ttf cannot be opened")) {
            try TextFace.load(.file("/nonexistent/font.ttf"), pixelSize: 20)
        }
        let notAFont = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-not-a-font-\(getpid()).ttf").path
        FileManager.default.createFile(atPath: notAFont, contents: Data("hello".utf8))
        defer { try? FileManager.default.removeItem(atPath: notAFont) }
        do {
            _ = try TextFace.load(.file(notAFont), pixelSize: 20)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("font \(notAFont) is not a font FreeType reads (FreeType error "))
        }
    }

    static func bootScene(font: ScreenFont, size: (Int, Int) = (800, 480)) -> Scene {
        var options = SceneOptions()
        options.font = font
        return Scene(loader: Support.loader("bar"), width: size.0, height: size.1, options: options)
    }

    static let frame = FrameState(elapsed: 0, progress: ProgressState(Fixed(45, over: 100)), message: "Mounting /home")

    /// A scene whose face cannot be had draws exactly what a bitmap-font scene draws.
    @Test func aMissingFontFallsBackToTheBitmapFont() {
        var bitmap = Self.bootScene(font: .bitmap)
        bitmap.render(Self.frame)
        var missing = Self.bootScene(font: .file("/nonexistent/font.ttf"))
        #expect(missing.loadFace() == TextFaceError(description: "font /nonexistent/font.ttf cannot be opened"))
        #expect(missing.faceState == .unavailable)
        missing.render(Self.frame)
        #expect(missing.canvas.pixels == bitmap.canvas.pixels)
    }

    /// loaderd's order: the first frame draws no text and asks for the face; given it, the text
    /// is anti-aliased, in the message colour, under the loader; frames are pure functions of time.
    @Test func aScreenWaitsForItsFaceThenDrawsAntialiasedText() throws {
        var scene = Self.bootScene(font: .file(Self.dejaVu))
        scene.render(Self.frame)
        let request = try #require(scene.faceRequest)
        #expect(request.pixelSize == 14 && request.font == .file(Self.dejaVu))
        let area = try #require(scene.layout(message: "Mounting /home").message)
        func messagePixels(_ canvas: Canvas) -> [Pixel] {
            (area.y..<area.maxY).flatMap { y in (area.x..<area.maxX).map { canvas[$0, y] } }
        }
        #expect(messagePixels(scene.canvas).allSatisfy { $0.a == 0 }, "no text before the face")
        scene.useFace(try TextFace.load(request.font, pixelSize: request.pixelSize))
        #expect(scene.faceRequest == nil)
        scene.render(Self.frame)
        let after = scene.layout(message: "Mounting /home").message
        let drawn = messagePixels(scene.canvas).filter { $0.a > 0 }
        #expect(!drawn.isEmpty)
        #expect(Set(drawn.map { $0.a }).count >= 8, "grey edges")
        // The message colour (#8E8E93) at some coverage: premultiplied, r = g ≤ b ≤ a.
        #expect(drawn.allSatisfy { $0.r == $0.g && $0.g <= $0.b && $0.b <= $0.a })
        #expect(drawn.contains { $0 == Pixel(r: 0x8E, g: 0x8E, b: 0x93, a: 255) }, "full coverage is the colour itself")
        #expect(after?.height == scene.context.face?.boxHeight)
        let first = scene.canvas.pixels
        scene.render(Self.frame)
        #expect(scene.canvas.pixels == first)
    }

    /// LED-sized canvases never use a face, whatever the setting.
    @Test func ledCanvasesKeepTheBitmapFonts() {
        var scene = Self.bootScene(font: .file(Self.dejaVu), size: (64, 32))
        #expect(!scene.drawsFaceText)
        #expect(scene.loadFace() == nil && scene.faceState == .notTried)
        scene.render(Self.frame)
        #expect(scene.faceRequest == nil)
        #expect(scene.context.face == nil)
    }

    @Test func pixelSizeFollowsTheShorterSide() {
        #expect(TextFace.pixelSize(canvasWidth: 800, height: 480) == 14)
        #expect(TextFace.pixelSize(canvasWidth: 1280, height: 720) == 18)
        #expect(TextFace.pixelSize(canvasWidth: 1920, height: 1080) == 28)
        #expect(TextFace.pixelSize(canvasWidth: 320, height: 200) == 14)
    }
}
