import FixedPoint
import Raster
import Testing

@Suite("colours, premultiplication and blend modes")
struct ColorAndBlendTests {
    @Test func parsesHexNamesAndOpacity() throws {
        #expect(try Color(parsing: "#007AFF") == Color(r: 0, g: 0x7A, b: 0xFF))
        #expect(try Color(parsing: "#007aff80") == Color(r: 0, g: 0x7A, b: 0xFF, a: 0x80))
        #expect(try Color(parsing: "blue") == Color(rgb: 0x007AFF))
        #expect(try Color(parsing: "Pink") == Color(rgb: 0xFF2D55))
        #expect(try Color(parsing: "gray@0.5") == Color(r: 0x8E, g: 0x8E, b: 0x93, a: 128))
        #expect(try Color(parsing: "white@0") == Color(r: 255, g: 255, b: 255, a: 0))
        #expect(try Color(parsing: "clear") == .clear)
    }

    @Test(arguments: ["", "#12345", "#1234567", "#GGGGGG", "bleu", "gray@", "gray@1.5", "gray@-0.1", "#FFFFFF@x"])
    func refusesWithAMessageNamingInputAndForms(text: String) {
        do {
            _ = try Color(parsing: text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.description.contains("'\(text)'"))
            #expect(error.description.contains("#RRGGBB"))
            #expect(error.description.contains("blue"))
        }
    }

    @Test func hexRoundTrip() throws {
        for c in [Color(rgb: 0x123456), Color(r: 1, g: 2, b: 3, a: 4)] {
            #expect(try Color(parsing: c.hexString) == c)
        }
    }

    @Test func premultiplicationMatchesTheDefinition() {
        for a in stride(from: 0, through: 255, by: 15) {
            for v in stride(from: 0, through: 255, by: 17) {
                let p = Color(r: UInt8(v), g: 0, b: 255, a: UInt8(a)).premultiplied
                let expected = (Double(v) * Double(a) / 255).rounded()
                #expect(abs(Double(p.r) - expected) <= 0.5001)
                #expect(p.a == UInt8(a))
            }
        }
    }

    @Test func div255IsExactRounding() {
        for x in 0...(255 * 255) {
            #expect(div255(UInt32(x)) == UInt32((Double(x) / 255).rounded(.toNearestOrAwayFromZero)), "x = \(x)")
        }
    }

    /// Each mode against its Double formula on premultiplied values in 0...1, within one step.
    @Test(arguments: BlendMode.allCases)
    func blendModesMatchTheirFormulas(mode: BlendMode) {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let sa = UInt8.random(in: 0...255, using: &rng), da = UInt8.random(in: 0...255, using: &rng)
            let s = Pixel(r: UInt8.random(in: 0...sa, using: &rng), g: 0, b: sa, a: sa)
            let d = Pixel(r: UInt8.random(in: 0...da, using: &rng), g: da, b: 0, a: da)
            let out = mode.blend(s, onto: d)
            func f(_ x: UInt8, _ y: UInt8, _ sAlpha: UInt8) -> Double {
                let x = Double(x) / 255, y = Double(y) / 255, a = Double(sAlpha) / 255
                switch mode {
                case .normal: return x + y * (1 - a)
                case .screen: return x + y - x * y
                case .plusLighter: return min(1, x + y)
                }
            }
            for (o, x, y) in [(out.r, s.r, d.r), (out.g, s.g, d.g), (out.b, s.b, d.b), (out.a, s.a, d.a)] {
                #expect(abs(Double(o) - f(x, y, s.a) * 255) <= 1.0, "\(mode) s=\(s) d=\(d) → \(out)")
            }
        }
    }

    @Test func screenNeverDarkensAndPlusLighterSaturates() {
        let gray = Color(rgb: 0x808080).premultiplied
        #expect(BlendMode.screen.blend(Pixel.transparent, onto: gray) == gray)
        #expect(BlendMode.screen.blend(Color.white.premultiplied, onto: gray) == Color.white.premultiplied)
        #expect(BlendMode.plusLighter.blend(gray, onto: gray) == Pixel(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func overABackgroundIsWhatAScreenShows() {
        let half = Color.white.opacity(Fixed.half).premultiplied
        let c = half.over(.black)
        #expect(c.r == 128 && c.g == 128 && c.b == 128 && c.a == 255)
    }
}
