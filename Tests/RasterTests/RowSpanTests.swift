import FixedPoint
import Testing

@testable import Raster

/// Row spans are a shortcut that must never change a pixel: every shape's span is checked against
/// its own `coverage(x:y:)` column by column, and whole fills against a plain per-pixel loop (the
/// renderer as it was before spans), byte for byte, over many random shapes, paints and clips.
@Suite struct RowSpanTests {
    /// splitmix64: deterministic, so a failure reproduces.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        /// A coordinate in lo...hi pixels, on the pixel grid, on a half or anywhere in between.
        mutating func fixed(_ lo: Int, _ hi: Int) -> Fixed {
            let whole = int(lo...hi)
            switch next() % 4 {
            case 0: return Fixed(whole)
            case 1: return Fixed(whole) + .half
            default: return Fixed(raw: Int32(whole) << 16 + Int32(next() & 0xFFFF))
            }
        }
        mutating func point(_ w: Int, _ h: Int) -> Point { Point(x: fixed(-8, w + 8), y: fixed(-8, h + 8)) }
    }

    static let width = 40, height = 24

    /// Shapes of every kind, mostly on or near the canvas, some degenerate or far out.
    static func shapes(_ random: inout Random) -> [any Shape] {
        let w = width, h = height
        func rect() -> FixedRect {
            switch random.next() % 8 {
            case 0: return FixedRect(x: random.fixed(-8, w), y: random.fixed(-8, h), width: random.fixed(-2, 2), height: random.fixed(-2, 2))
            case 1: return FixedRect(x: random.fixed(-20000, -9000), y: random.fixed(-8, h), width: random.fixed(9000, 25000), height: random.fixed(0, h))
            default: return FixedRect(x: random.fixed(-8, w), y: random.fixed(-8, h), width: random.fixed(0, w + 8), height: random.fixed(0, h + 8))
            }
        }
        var shapes: [any Shape] = []
        for _ in 0..<40 {
            let r = rect()
            shapes.append(Rectangle(r))
            shapes.append(RoundedRectangle(r, cornerRadius: random.fixed(0, 12)))
            shapes.append(RoundedRectangle.capsule(r))
            shapes.append(Ellipse(center: random.point(w, h), radius: random.fixed(0, 20)))
            shapes.append(Ellipse(center: random.point(w, h), radiusX: random.fixed(0, 20), radiusY: random.fixed(0, 20)))
            shapes.append(Triangle(random.point(w, h), random.point(w, h), random.point(w, h)))
            let c = random.point(w, h)
            shapes.append(ConvexPolygon([Point(x: c.x - 5, y: c.y), Point(x: c.x, y: c.y - random.fixed(1, 9)),
                                         Point(x: c.x + random.fixed(1, 9), y: c.y), Point(x: c.x + 2, y: c.y + 4)]))
        }
        // Edge cases: zero sizes, a degenerate triangle, far-off and huge shapes.
        shapes.append(Ellipse(center: Point(x: 10, y: 10), radius: .zero))
        shapes.append(Triangle(Point(x: 3, y: 3), Point(x: 3, y: 3), Point(x: 9, y: 12)))
        shapes.append(Ellipse(center: Point(x: -30000, y: 10), radius: Fixed(30010)))
        shapes.append(RoundedRectangle(FixedRect(x: Fixed(-30000), y: 2, width: Fixed(30020), height: 9), cornerRadius: 4))
        shapes.append(Triangle(Point(x: -32000, y: 0), Point(x: 32000, y: 1), Point(x: 5, y: 30)))
        return shapes
    }

    @Test func spansAgreeWithCoverage() {
        var random = Random(state: 1)
        var uniform = 0, zero = 0
        for shape in Self.shapes(&random) { Self.checkSpans(shape, uniform: &uniform, zero: &zero) }
        // Not vacuous: the spans do skip most of the work.
        #expect(uniform > 20_000 && zero > 100_000, "\(uniform) uniform, \(zero) zero pixels")
    }

    static func checkSpans<S: Shape>(_ shape: S, uniform: inout Int, zero: inout Int) {
        for columns in [0..<width, 3..<17] {
            for y in -2..<(height + 2) {
                let cy = Fixed(y) + .half
                let span = shape.rowSpan(y: cy, columns: columns)
                uniform += span.innerHi - span.innerLo
                zero += columns.count - (span.hi - span.lo)
                guard columns.lowerBound <= span.lo, span.lo <= span.innerLo, span.innerLo <= span.innerHi,
                      span.innerHi <= span.hi, span.hi <= columns.upperBound else {
                    Issue.record("\(shape) row \(y): span \(span) breaks its invariant in \(columns)")
                    return
                }
                for x in columns {
                    let c = shape.coverage(x: Fixed(x) + .half, y: cy)
                    if (x < span.lo || x >= span.hi) && c != 0 {
                        Issue.record("\(shape) row \(y) column \(x): coverage \(c) outside \(span.lo)..<\(span.hi)")
                        return
                    }
                    if x >= span.innerLo && x < span.innerHi && c != span.innerCoverage {
                        Issue.record("\(shape) row \(y) column \(x): coverage \(c), span says \(span.innerCoverage)")
                        return
                    }
                }
            }
        }
    }

    @Test func clipSpansAgreeWithCoverage() {
        var random = Random(state: 2)
        for _ in 0..<200 {
            let r = FixedRect(x: random.fixed(-8, 40), y: random.fixed(-8, 24), width: random.fixed(0, 48), height: random.fixed(0, 32))
            for clip in [Clip.rect(r), .roundedRect(r, cornerRadius: random.fixed(0, 12))] {
                for y in -2..<26 {
                    let cy = Fixed(y) + .half
                    let span = clip.rowSpan(y: cy, columns: 0..<40)
                    for x in 0..<40 {
                        let c = clip.coverage(x: Fixed(x) + .half, y: cy)
                        #expect(!((x < span.lo || x >= span.hi) && c != 0), "\(clip) row \(y) column \(x)")
                        #expect(!(x >= span.innerLo && x < span.innerHi && c != span.innerCoverage), "\(clip) row \(y) column \(x)")
                    }
                }
            }
        }
    }

    /// The renderer before row spans: every pixel of the area through coverage, clips, paint, blend.
    static func referenceFill<S: Shape>(_ canvas: inout Canvas, _ shape: S, paint: Paint, opacity: Fixed, blend: BlendMode) {
        let area = canvas.drawableArea(for: shape.bounds)
        let alpha = UInt32(opacity.unitByte)
        if area.isEmpty || alpha == 0 { return }
        for y in area.y..<area.maxY {
            let cy = Fixed(y) + .half
            for x in area.x..<area.maxX {
                let cx = Fixed(x) + .half
                var c = UInt32(shape.coverage(x: cx, y: cy))
                if c == 0 { continue }
                // Shape and clips combine by the smallest coverage (a shared edge is one edge).
                if !canvas.clips.isEmpty { c = Swift.min(c, Canvas.clipCoverage(canvas.clips, x: cx, y: cy)) }
                c = div255(c * alpha)
                if c == 0 { continue }
                let source: Pixel
                switch paint {
                case .solid(let color): source = color.premultiplied
                case .linearGradient(let g): source = g.pixel(atX: cx)
                }
                canvas[x, y] = blend.blend(source.scaled(by: UInt8(c)), onto: canvas[x, y])
            }
        }
    }

    @Test func fillsMatchThePerPixelLoop() {
        var random = Random(state: 3)
        let colors: [Color] = [.blue, .white, .gray.opacity(Fixed(1, over: 2)), .pink, .clear, Color(r: 10, g: 200, b: 30, a: 77)]
        let shapes = Self.shapes(&random)
        for (i, shape) in shapes.enumerated() {
            var fast = Canvas(width: Self.width, height: Self.height)
            var slow = fast
            // A background to blend onto, then the shape under 0, 1 or 2 clips.
            let background = Color(r: UInt8(i * 37 % 256), g: 90, b: 200, a: UInt8(128 + i % 128))
            fast.clear(to: background); slow.clear(to: background)
            let paint: Paint = random.next() % 3 == 0
                ? .linearGradient(LinearGradient(colors: [.blue, .clear, .pink], startX: random.fixed(-5, 20), endX: random.fixed(10, 45)))
                : .solid(colors[Int(random.next() % UInt64(colors.count))])
            let opacity = random.next() % 2 == 0 ? Fixed.one : random.fixed(0, 1)
            let blend = BlendMode.allCases[Int(random.next() % 3)]
            for _ in 0..<Int(random.next() % 3) {
                let r = FixedRect(x: random.fixed(-4, 20), y: random.fixed(-4, 12), width: random.fixed(4, 40), height: random.fixed(4, 24))
                let clip: Clip = random.next() % 2 == 0 ? .rect(r) : .roundedRect(r, cornerRadius: random.fixed(0, 10))
                fast.pushClip(clip); slow.pushClip(clip)
            }
            Self.fill(&fast, shape, paint: paint, opacity: opacity, blend: blend)
            Self.referenceFill(&slow, shape, paint: paint, opacity: opacity, blend: blend)
            if fast.pixels != slow.pixels {
                let bad = fast.pixels.indices.first { fast.pixels[$0] != slow.pixels[$0] }!
                Issue.record("\(shape) \(paint) \(blend) opacity \(opacity): pixel (\(bad % Self.width), \(bad / Self.width)) is \(fast.pixels[bad]), expected \(slow.pixels[bad])")
            }
        }
    }

    /// Opens the existential so that `Canvas.fill` runs specialized, as it does in loaders.
    static func fill<S: Shape>(_ canvas: inout Canvas, _ shape: S, paint: Paint, opacity: Fixed, blend: BlendMode) {
        canvas.fill(shape, with: paint, opacity: opacity, blend: blend)
    }
}
