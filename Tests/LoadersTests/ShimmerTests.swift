import FixedPoint
import Loaders
import Raster
import Testing

// Tests of the text shimmer, written from the formulas of LOADERS.md (shimmer):
//   phase(t): cycle = duration + repeatDelay, c = t mod cycle, phase = c / duration while c < duration, else 0
//   full fill: strip 3·Wt wide at x = −2·Wt + phase·2·Wt (from the text's left edge), stops evenly spaced
//   overlay:   band [clear, white@0.35, clear], B = max(0.6·Wt, Bmin), at x = −B + phase·(Wt + B), plus-lighter

private func us(_ seconds: Double) -> Microseconds { Time.microseconds(seconds: seconds) }

private func makeShimmer(_ assignments: [(key: String, value: String)] = []) throws -> Shimmer {
    guard case .shimmer(let shimmer) = try Catalog.make("shimmer", assignments: assignments) else {
        Issue.record("the catalog's shimmer is not a Shimmer"); throw LoaderError.unknownLoader("shimmer")
    }
    return shimmer
}

/// Renders `loader` alone on a `width`×`height` scene at `t` seconds.
private func render(_ loader: Shimmer, _ width: Int, _ height: Int, at t: Double, message: String? = nil,
                    options: SceneOptions = SceneOptions()) -> Canvas {
    var scene = Scene(loader: .shimmer(loader), width: width, height: height, options: options)
    scene.render(FrameState(elapsed: us(t), message: message))
    return scene.canvas
}

/// The glyph mask of `text` centred in `rect` the way the renderer places it (independent check of coverage).
private func glyphMask(_ text: String, font: BitmapFont, scale: Int, rect: PixelRect, width: Int, height: Int) -> (Mask, x: Int, y: Int) {
    var mask = Mask(width: width, height: height)
    let o = font.origin(centering: text, in: rect, scale: scale)
    mask.add(text: text, font: font, x: o.x, y: o.y, scale: scale)
    return (mask, o.x, o.y)
}

/// The colour of an evenly spaced gradient of `colors` at fraction u (straight alpha, Double; test-side model).
private func gradientModel(_ colors: [Color], _ u: Double) -> (r: Double, g: Double, b: Double, a: Double) {
    let n = colors.count
    let uc = min(1, max(0, u))
    let pos = uc * Double(n - 1)
    let i = min(n - 2, Int(pos))
    let f = pos - Double(i)
    func pm(_ c: Color) -> (Double, Double, Double, Double) {
        let a = Double(c.a) / 255
        return (Double(c.r) * a, Double(c.g) * a, Double(c.b) * a, Double(c.a))
    }
    let p0 = pm(colors[i]), p1 = pm(colors[i + 1])
    return (p0.0 + (p1.0 - p0.0) * f, p0.1 + (p1.1 - p0.1) * f, p0.2 + (p1.2 - p0.2) * f, p0.3 + (p1.3 - p0.3) * f)
}

@Suite("shimmer")
struct ShimmerTests {
    // MARK: Timing

    @Test("phase follows c / duration, with no rest for grok")
    func phaseGrok() {
        let d = us(2.0)
        #expect(ShimmerText.phase(at: 0, duration: d, repeatDelay: 0) == .zero)
        #expect(ShimmerText.phase(at: us(0.5), duration: d, repeatDelay: 0) == Fixed(1, over: 4))
        #expect(ShimmerText.phase(at: us(1.0), duration: d, repeatDelay: 0) == Fixed(1, over: 2))
        #expect(ShimmerText.phase(at: us(1.5), duration: d, repeatDelay: 0) == Fixed(3, over: 4))
        #expect(ShimmerText.phase(at: us(2.0), duration: d, repeatDelay: 0) == .zero)
        #expect(ShimmerText.phase(at: us(2.5), duration: d, repeatDelay: 0) == Fixed(1, over: 4))
        // Long-running: 10 hours and a quarter sweep.
        #expect(ShimmerText.phase(at: 36_000 * Time.perSecond + us(0.5), duration: d, repeatDelay: 0) == Fixed(1, over: 4))
    }

    @Test("calm: 2.0 s sweep then 0.5 s at phase 0, cycle 2.5 s")
    func phaseCalm() throws {
        let calm = try makeShimmer([("preset", "calm")]).shimmer
        #expect(calm.period == us(2.5))
        #expect(calm.phase(at: 0) == .zero)
        #expect(calm.phase(at: us(1.0)) == Fixed(1, over: 2))
        #expect(calm.phase(at: us(1.9)) == Fixed(19, over: 20))
        #expect(calm.phase(at: us(2.0)) == .zero)     // rest starts
        #expect(calm.phase(at: us(2.25)) == .zero)
        #expect(calm.phase(at: us(2.49)) == .zero)
        #expect(calm.phase(at: us(2.5)) == .zero)     // next sweep starts
        #expect(calm.phase(at: us(3.0)) == Fixed(1, over: 4))
        #expect(calm.phase(at: us(3.5)) == Fixed(1, over: 2))
        #expect(calm.phase(at: us(4.5)) == .zero)
        #expect(calm.phase(at: us(5.0) + us(1.0)) == Fixed(1, over: 2))
    }

    @Test("a frame depends only on the time within the cycle")
    func derivedTime() throws {
        for preset in ["grok", "chatgpt", "calm"] {
            let loader = try makeShimmer([("preset", preset)])
            let cycle = Double(loader.period) / 1e6
            let a = render(loader, 64, 8, at: 0.7)
            let b = render(loader, 64, 8, at: 0.7 + 3 * cycle)
            #expect(a.pixels == b.pixels, "\(preset)")
            let c = render(loader, 64, 8, at: 1.3)
            #expect(a.pixels != c.pixels, "\(preset) should move")
        }
    }

    // MARK: Geometry against the formulas

    @Test("full fill: the gradient strip sits at −2·Wt + phase·2·Wt, 3·Wt wide", arguments: [0.0, 0.25, 0.5, 0.75, 0.95])
    func fullFillPosition(phase: Double) throws {
        let loader = try makeShimmer()   // grok
        let text = "---------"            // the small font's "-" lights row 2 across each glyph
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 8)
        var context = DrawContext(width: 64, height: 8)
        let t = us(2.0 * phase)
        loader.shimmer.draw(text, font: .small, scale: 1, in: rect, elapsed: t, into: &context)
        let (mask, x0, y0) = glyphMask(text, font: .small, scale: 1, rect: rect, width: 64, height: 8)
        let wt = Double(BitmapFont.small.width(of: text))
        let start = Double(x0) - 2 * wt + phase * 2 * wt
        let colors: [Color] = [.blue, .purple, .pink, .blue]
        var checked = 0
        for x in 0..<64 where mask[x, y0 + 2] == 255 {
            let u = (Double(x) + 0.5 - start) / (3 * wt)
            let expected = gradientModel(colors, u)
            let p = context.canvas[x, y0 + 2]
            #expect(abs(Double(p.r) - expected.r) <= 3 && abs(Double(p.g) - expected.g) <= 3 && abs(Double(p.b) - expected.b) <= 3,
                    "x=\(x) phase=\(phase): \(p) vs \(expected)")
            checked += 1
        }
        #expect(checked == 27)
    }

    @Test("chatgpt: gray and gray at 0.45 alternate along the strip")
    func chatgptFill() throws {
        let loader = try makeShimmer([("preset", "chatgpt")])
        let text = "---------"
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 8)
        var context = DrawContext(width: 64, height: 8)
        loader.shimmer.draw(text, font: .small, scale: 1, in: rect, elapsed: us(0.6), into: &context)
        let (mask, x0, y0) = glyphMask(text, font: .small, scale: 1, rect: rect, width: 64, height: 8)
        let wt = Double(BitmapFont.small.width(of: text))
        let start = Double(x0) - 2 * wt + 0.3 * 2 * wt
        let g = Color.gray, dim = Color.gray.opacity(Fixed(0.45))
        for x in 0..<64 where mask[x, y0 + 2] == 255 {
            let expected = gradientModel([g, dim, g, dim, g], (Double(x) + 0.5 - start) / (3 * wt))
            let p = context.canvas[x, y0 + 2]
            #expect(abs(Double(p.a) - expected.a) <= 3 && abs(Double(p.r) - expected.r) <= 3, "x=\(x): \(p) vs \(expected)")
        }
    }

    @Test("overlay: the band [clear, white@0.35, clear] sits at −B + phase·(Wt + B), added to the gray glyphs",
          arguments: [0.0, 0.2, 0.5, 0.8, 0.99])
    func overlayBandPosition(phase: Double) throws {
        let loader = try makeShimmer([("preset", "calm")])
        let text = "-------------"    // 51 px: B = 0.6·Wt = 30.6 (above the minimum)
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 8)
        var context = DrawContext(width: 64, height: 8)
        loader.shimmer.draw(text, font: .small, scale: 1, in: rect, elapsed: us(2.0 * phase), into: &context)
        let (mask, x0, y0) = glyphMask(text, font: .small, scale: 1, rect: rect, width: 64, height: 8)
        let wt = Double(BitmapFont.small.width(of: text))
        let b = max(0.6 * wt, 24.0 * 6 / 22)
        let start = Double(x0) - b + phase * (wt + b)
        let peak = 0.35 * 255
        var brightest = (x: -1, value: -1)
        for x in 0..<64 where mask[x, y0 + 2] == 255 {
            let u = (Double(x) + 0.5 - start) / b
            let tent = (u <= 0 || u >= 1) ? 0 : 1 - abs(2 * u - 1)
            let p = context.canvas[x, y0 + 2]
            #expect(p.a == 255)
            for (channel, base) in [(p.r, Color.gray.r), (p.g, Color.gray.g), (p.b, Color.gray.b)] {
                let expected = min(255, Double(base) + peak * tent)
                #expect(abs(Double(channel) - expected) <= 3, "x=\(x) phase=\(phase): \(channel) vs \(expected)")
            }
            if Int(p.r) > brightest.value { brightest = (x, Int(p.r)) }
        }
        // The brightest glyph pixel is the one nearest the band's centre, when the centre is over the text.
        let centre = start + b / 2
        if centre > Double(x0) + 1 && centre < Double(x0) + wt - 1 {
            #expect(abs(Double(brightest.x) + 0.5 - centre) <= 2.5, "brightest at \(brightest.x), centre \(centre)")
        } else if start + b <= Double(x0) || start >= Double(x0) + wt {
            #expect(brightest.value == Int(Color.gray.r), "band off the text at phase \(phase)")
        }
    }

    @Test("band width: 0.6·Wt, at least 24/22 of the font's line height")
    func bandWidth() {
        #expect(ShimmerText.bandWidth(textWidth: 100, font: .small, scale: 1) == Fixed(60))
        #expect(ShimmerText.bandWidth(textWidth: 7, font: .small, scale: 1) == Fixed(144, over: 22))
        #expect(ShimmerText.bandWidth(textWidth: 7, font: .large, scale: 2) == Fixed(480, over: 22))
    }

    @Test("background pixels are untouched; only glyph pixels change", arguments: ["grok", "chatgpt", "calm"])
    func backgroundUntouched(preset: String) throws {
        let loader = try makeShimmer([("preset", preset)])
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 8)
        var context = DrawContext(width: 64, height: 8)
        let background = Color(r: 12, g: 34, b: 56)
        context.canvas.clear(to: background)
        context.mask.add(Ellipse(center: Point(x: 5, y: 4), radius: 3))   // stale scratch must not leak through
        loader.shimmer.draw("Loading", font: .small, scale: 1, in: rect, elapsed: us(0.8), into: &context)
        let (mask, _, _) = glyphMask("Loading", font: .small, scale: 1, rect: rect, width: 64, height: 8)
        var glyphPixels = 0
        for y in 0..<8 {
            for x in 0..<64 {
                if mask[x, y] == 0 {
                    #expect(context.canvas[x, y] == background.premultiplied, "(\(x), \(y))")
                } else {
                    glyphPixels += 1
                    #expect(context.canvas[x, y] != background.premultiplied, "(\(x), \(y))")
                }
            }
        }
        #expect(glyphPixels > 30)
    }

    @Test("a text wider than the area keeps its whole words, then an ellipsis, centred")
    func longTextKeepsWholeWords() {
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 8)
        let p = ShimmerText.placement(of: "Starting services", font: .small, scale: 1, in: rect)
        #expect(p.count == 8 && p.ellipsis)          // "Starting" + "…"
        #expect(p.width == 9 * 4 - 1)
        #expect(p.x == (64 - p.width) / 2)
        var mask = Mask(width: 64, height: 8)
        ShimmerText.layOut("Starting services", font: .small, scale: 1, in: rect, mask: &mask)
        var expected = Mask(width: 64, height: 8)
        expected.add(text: "Starting\u{2026}", font: .small, x: p.x, y: 1)
        for y in 0..<8 { for x in 0..<64 { #expect((mask[x, y] != 0) == (expected[x, y] != 0), "(\(x), \(y))") } }
        // One word longer than the line: cut by letters, still with the ellipsis.
        let q = ShimmerText.placement(of: "Initialising", font: .small, scale: 1, in: PixelRect(x: 0, y: 0, width: 20, height: 8))
        #expect(q.count == 4 && q.ellipsis && q.width == 19)
        // Text that fits is drawn whole.
        let r = ShimmerText.placement(of: "Boot", font: .small, scale: 1, in: rect)
        #expect(r.count == 4 && !r.ellipsis)
    }

    @Test("marquee: the position is a function of the time only, holds, moves, and comes round")
    func marqueePosition() {
        let cycle = 100
        #expect(Marquee.offset(at: 0, cycle: cycle, scale: 1) == 0)
        #expect(Marquee.offset(at: Marquee.hold - 1, cycle: cycle, scale: 1) == 0)
        #expect(Marquee.offset(at: Marquee.hold + 1_000_000, cycle: cycle, scale: 1) == 16)
        #expect(Marquee.offset(at: Marquee.hold + 500_000, cycle: cycle, scale: 2) == 16)
        let period = Marquee.hold + Int64(cycle) * 1_000_000 / 16
        for t: Int64 in [0, 1_234_567, 3_000_000, 6_500_000] {
            #expect(Marquee.offset(at: t, cycle: cycle, scale: 1) == Marquee.offset(at: t + 3 * period, cycle: cycle, scale: 1))
            #expect((0..<cycle).contains(Marquee.offset(at: t, cycle: cycle, scale: 1)))
        }
        // On a 64x8 strip a long message scrolls: later frames show other glyphs.
        let rect = PixelRect(x: 0, y: 0, width: 64, height: 8)
        var a = Mask(width: 64, height: 8), b = Mask(width: 64, height: 8)
        ShimmerText.layOut("Starting services", font: .small, scale: 1, in: rect, mask: &a, overflow: .marquee(elapsed: 0))
        ShimmerText.layOut("Starting services", font: .small, scale: 1, in: rect, mask: &b, overflow: .marquee(elapsed: 2_000_000))
        #expect(a.coverage != b.coverage)
        var c = Mask(width: 64, height: 8)
        ShimmerText.layOut("Starting services", font: .small, scale: 1, in: rect, mask: &c, overflow: .marquee(elapsed: 2_000_000))
        #expect(b.coverage == c.coverage)
    }

    // MARK: Parameters

    @Test("grok is the default; presets apply; explicit keys override wherever they appear")
    func presets() throws {
        #expect(try makeShimmer().style == .grok)
        #expect(try makeShimmer([("preset", "grok")]).style == .grok)
        #expect(try makeShimmer([("preset", "chatgpt")]).style == .chatgpt)
        #expect(try makeShimmer([("preset", "CALM")]).style == .calm)
        #expect(ShimmerStyle.calm.isOverlay && !ShimmerStyle.grok.isOverlay && !ShimmerStyle.chatgpt.isOverlay)

        let before = try makeShimmer([("duration", "1.0"), ("preset", "calm")])
        #expect(before.style.duration == us(1.0))
        #expect(before.style.repeatDelay == us(0.5))
        #expect(before.style.textColor == .gray)
        let after = try makeShimmer([("preset", "chatgpt"), ("colors", "red,green"), ("textColor", "white")])
        #expect(after.style.colors == [.red, .green])
        #expect(after.style.textColor == .white)
        #expect(after.style.duration == us(2.0))
        #expect(try makeShimmer([("text", "Thinking"), ("font", "large")]).designSize == DesignSize(width: 49, height: 9))
    }

    @Test("unknown preset names the accepted ones")
    func unknownPreset() {
        #expect(throws: LoaderError.self) { try Catalog.make("shimmer", assignments: [("preset", "rainbow")]) }
        do {
            _ = try Catalog.make("shimmer", assignments: [("preset", "rainbow")])
        } catch {
            #expect(error.description == "shimmer: invalid preset=rainbow: expected one of grok, chatgpt, calm")
        }
    }

    @Test("the catalog lists every loader in LOADERS.md order")
    func catalog() {
        #expect(Catalog.names == ["linkedin", "pagedots", "quizup", "shimmer", "worm", "skeleton", "bar"])
    }

    // MARK: Layout and the message

    @Test("font: the 5x7 in eight rows on an 8 px strip, the 5x7 from 9 px, scaled from 18")
    func fontChoice() throws {
        let loader = try makeShimmer()
        func choice(_ l: Shimmer, _ h: Int) -> String { let f = l.font(forHeight: h); return "\(f.font.name) \(f.scale)" }
        #expect(choice(loader, 5) == "small 1" && choice(loader, 7) == "small 1")
        #expect(choice(loader, 8) == "large-8 1")
        #expect(choice(loader, 9) == "large 1" && choice(loader, 12) == "large 1" && choice(loader, 16) == "large 1")
        #expect(choice(loader, 18) == "large 2" && choice(loader, 24) == "large 2")
        let small = try makeShimmer([("font", "small")])
        #expect(choice(small, 8) == "small 1" && choice(small, 24) == "small 4")
        let large = try makeShimmer([("font", "large")])
        #expect(choice(large, 8) == "large-8 1" && choice(large, 9) == "large 1")
        // On a 64x8 strip the text is the eight-row 5x7 at scale 1, centred, every glyph pixel lit.
        let canvas = render(loader, 64, 8, at: 0.5)
        let (mask, _, _) = glyphMask("Loading", font: .large8, scale: 1, rect: PixelRect(x: 0, y: 0, width: 64, height: 8), width: 64, height: 8)
        for y in 0..<8 { for x in 0..<64 { #expect((canvas[x, y].a != 0) == (mask[x, y] != 0), "(\(x), \(y))") } }
        // A message too long for a 32x8 strip scrolls in it too, over the strip's whole height.
        let long = render(loader, 32, 8, at: 1.5, message: "Starting services")
        let rows = (0..<8).filter { y in (0..<32).contains { long[$0, y].a != 0 } }
        #expect(rows.count >= 6 && rows.first! <= 1, "rows lit: \(rows)")
    }

    @Test("the message replaces the text, and its proportions set the design size")
    func messageReplacesText() throws {
        let loader = try makeShimmer([("text", "Loading")])
        let withText = try makeShimmer([("text", "Almost done")])
        let a = render(loader, 128, 16, at: 0.4, message: "Almost done")
        let b = render(withText, 128, 16, at: 0.4)
        #expect(a.pixels == b.pixels)
        #expect(a.pixels != render(loader, 128, 16, at: 0.4).pixels)
        #expect(loader.designSize(for: FrameState(elapsed: 0, message: "Almost done")) == DesignSize(width: 45, height: 5))
        #expect(loader.designSize(for: FrameState(elapsed: 0, message: "")) == loader.designSize)
    }

    @Test("under shimmer the scene draws no message line: the message is drawn once, by the loader")
    func sceneLeavesMessageToShimmer() throws {
        let loader = try makeShimmer()
        let scene = Scene(loader: .shimmer(loader), width: 128, height: 32)
        let areas = scene.areas(message: "Starting services")
        #expect(areas.message == nil)
        #expect(areas.loader == PixelRect(x: 0, y: 0, width: 128, height: 32))
        // Exactly the glyphs of the message, once, in the loader's font (nothing below it).
        let canvas = render(loader, 128, 32, at: 0.3, message: "Starting services")
        // Design 69x5 fitted into 128x32: width-limited, 128 x 9 at y = 11 → large font, scale 1.
        let (mask, _, _) = glyphMask("Starting services", font: .large, scale: 1,
                                     rect: PixelRect(x: 0, y: 11, width: 128, height: 9), width: 128, height: 32)
        for y in 0..<32 { for x in 0..<128 { #expect((canvas[x, y].a != 0) == (mask[x, y] != 0), "(\(x), \(y))") } }

        let bar = try Catalog.make("bar")
        #expect(Scene(loader: bar, width: 128, height: 32).areas(message: "Starting services").message != nil)
    }

    // MARK: The message line

    @Test("message font: chosen by the canvas (LED or screen), then stepped down by the message's width")
    func messageFontChoice() {
        #expect(MessageLine.font(forCanvasWidth: 64, height: 8).font.name == "small")
        #expect(MessageLine.font(forCanvasWidth: 64, height: 31).font.name == "small")
        #expect(MessageLine.font(forCanvasWidth: 64, height: 32).font.name == "large")
        #expect(MessageLine.font(forCanvasWidth: 800, height: 480).scale == 1)
        #expect(MessageLine.font(forCanvasWidth: 1280, height: 720).scale == 2)
        #expect(MessageLine.font(forCanvasWidth: 1920, height: 1080).scale == 3)
        // A long message takes a smaller scale where it then fits whole.
        let long = String(repeating: "Mounting filesystems ", count: 3)
        let w = BitmapFont.large.width(of: long, scale: 2)
        #expect(MessageLine.scale(for: long, font: .large, preferred: 3, width: w) == 2)
        #expect(MessageLine.scale(for: long, font: .large, preferred: 3, width: w - 1) == 1)
        #expect(MessageLine.scale(for: "OK", font: .large, preferred: 3, width: 1000) == 3)
    }

    @Test("plain message line: the glyphs in the colour, centred, nothing else")
    func messageLinePlain() {
        var context = DrawContext(width: 64, height: 16)
        let area = PixelRect(x: 0, y: 10, width: 64, height: 5)
        MessageLine.draw("Hi there", style: .plain, color: .orange, into: &context, area: area, elapsed: 0)
        let (mask, x, y) = glyphMask("Hi there", font: .small, scale: 1, rect: area, width: 64, height: 16)
        #expect(x == 16 && y == 10)
        for yy in 0..<16 {
            for xx in 0..<64 {
                #expect(context.canvas[xx, yy] == (mask[xx, yy] != 0 ? Color.orange.premultiplied : .transparent), "(\(xx), \(yy))")
            }
        }
    }

    @Test("styled message line uses the shimmer preset")
    func messageLineStyled() {
        let area = PixelRect(x: 0, y: 0, width: 64, height: 8)
        for (style, shimmerStyle) in [(MessageStyle.grok, ShimmerStyle.grok), (.chatgpt, .chatgpt), (.calm, .calm)] {
            var a = DrawContext(width: 64, height: 8), b = DrawContext(width: 64, height: 8)
            MessageLine.draw("Loading", style: style, color: .white, into: &a, area: area, elapsed: us(0.7))
            ShimmerText(style: shimmerStyle).draw("Loading", font: .small, scale: 1, in: area, elapsed: us(0.7), into: &b)
            #expect(a.canvas.pixels == b.canvas.pixels, "\(style)")
        }
    }

    // MARK: Golden frames

    @Test("golden frames: presets at 64x8 (the eight-row 5x7) and 160x24 (the 5x7)",
          arguments: [("grok", 0.5), ("chatgpt", 0.5), ("calm", 1.0)])
    func golden(preset: String, t: Double) throws {
        let loader = try makeShimmer([("preset", preset)])
        GoldenFrames.check(render(loader, 64, 8, at: t), named: "shimmer-\(preset)-64x8")
        GoldenFrames.check(render(loader, 160, 24, at: t), named: "shimmer-\(preset)-160x24")
    }

    @Test("golden frames: bar at 0.5 with the message 'Starting services' at 128x32, plain and calm")
    func goldenSceneWithMessage() throws {
        let bar = try Catalog.make("bar")
        let state = FrameState(elapsed: us(1.0), progress: ProgressState(Fixed(1, over: 2)), message: "Starting services")
        var plain = Scene(loader: bar, width: 128, height: 32)
        plain.render(state)
        GoldenFrames.check(plain.canvas, named: "scene-bar-message-128x32")
        var options = SceneOptions()
        options.messageStyle = .calm
        var calm = Scene(loader: bar, width: 128, height: 32, options: options)
        calm.render(state)
        GoldenFrames.check(calm.canvas, named: "scene-bar-message-calm-128x32")
        // Under shimmer the message is the loader's own text, in the whole area.
        let shimmer = try makeShimmer([("preset", "calm")])
        var own = Scene(loader: .shimmer(shimmer), width: 128, height: 32)
        own.render(FrameState(elapsed: us(1.0), message: "Starting services"))
        GoldenFrames.check(own.canvas, named: "scene-shimmer-message-128x32")
        // An 8-pixel strip has no room for the line: the bar alone.
        var strip = Scene(loader: bar, width: 64, height: 8)
        strip.render(state)
        #expect(strip.areas(message: "Starting services").message == nil)
    }
}
