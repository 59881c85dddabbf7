import FixedPoint
import Raster
import Testing

/// Coverage of a pixel by a shape given as an inside-test in Double, by 16x16 supersampling:
/// the reference the analytic anti-aliasing is checked against.
private func supersampled(_ x: Int, _ y: Int, _ inside: (Double, Double) -> Bool) -> Double {
    var n = 0
    for sy in 0..<16 {
        for sx in 0..<16 where inside(Double(x) + (Double(sx) + 0.5) / 16, Double(y) + (Double(sy) + 0.5) / 16) { n += 1 }
    }
    return Double(n) / 256
}

/// Largest difference (0...1) between a shape's analytic coverage and the supersampled reference.
private func maxCoverageError<S: Shape>(_ shape: S, width: Int, height: Int, _ inside: (Double, Double) -> Bool) -> Double {
    var worst = 0.0
    for y in 0..<height {
        for x in 0..<width {
            let analytic = Double(shape.coverage(x: Fixed(x) + .half, y: Fixed(y) + .half)) / 255
            worst = max(worst, abs(analytic - supersampled(x, y, inside)))
        }
    }
    return worst
}

private func f(_ d: Double) -> Fixed { Fixed(d) }

/// Canvas as ASCII art: coverage of a white fill over transparent, in ten steps.
private func art(_ canvas: Canvas) -> String {
    let ramp = Array(" .:-=+*#%@")
    return (0..<canvas.height).map { y in
        String((0..<canvas.width).map { x in ramp[min(9, Int(canvas[x, y].a) * 10 / 256)] })
    }.joined(separator: "\n")
}

@Suite("shapes: analytic anti-aliasing at subpixel positions")
struct ShapeTests {
    @Test func rectangleCoverageIsTheExactArea() {
        let r = FixedRect(x: f(1.25), y: f(0.5), width: f(5.5), height: f(2.75))
        let err = maxCoverageError(Rectangle(r), width: 9, height: 5) { x, y in x >= 1.25 && x < 6.75 && y >= 0.5 && y < 3.25 }
        #expect(err <= 0.02)
    }

    @Test(arguments: [(10.3, 7.7, 5.2), (8.0, 8.0, 0.8), (4.5, 4.25, 3.0), (16.1, 9.6, 9.4)])
    func circleMatchesSupersampling(cx: Double, cy: Double, r: Double) {
        let shape = Ellipse(center: Point(x: f(cx), y: f(cy)), radius: f(r))
        let err = maxCoverageError(shape, width: 26, height: 20) { x, y in (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r }
        // The signed-distance approximation of a pixel's area is within 0.1 for radii ≥ ~1 px.
        #expect(err <= (r < 1 ? 0.2 : 0.1), "error \(err)")
    }

    @Test func ellipseMatchesSupersampling() {
        let (cx, cy, rx, ry) = (12.4, 6.3, 10.6, 4.2)
        let shape = Ellipse(center: Point(x: f(cx), y: f(cy)), radiusX: f(rx), radiusY: f(ry))
        let err = maxCoverageError(shape, width: 26, height: 13) { x, y in
            let u = (x - cx) / rx, v = (y - cy) / ry
            return u * u + v * v <= 1
        }
        #expect(err <= 0.15, "error \(err)")
    }

    @Test(arguments: [0.0, 1.5, 3.0, 10.0])
    func roundedRectangleMatchesSupersampling(radius: Double) {
        let (x0, y0, w, h) = (1.3, 0.6, 20.2, 7.1)
        let shape = RoundedRectangle(FixedRect(x: f(x0), y: f(y0), width: f(w), height: f(h)), cornerRadius: f(radius))
        let r = min(radius, min(w, h) / 2)
        let err = maxCoverageError(shape, width: 23, height: 9) { x, y in
            guard x >= x0, x <= x0 + w, y >= y0, y <= y0 + h else { return false }
            let qx = max(0, abs(x - (x0 + w / 2)) - (w / 2 - r)), qy = max(0, abs(y - (y0 + h / 2)) - (h / 2 - r))
            return qx * qx + qy * qy <= r * r
        }
        #expect(err <= 0.1, "error \(err)")
    }

    @Test func triangleAndPolygonMatchSupersampling() {
        let a = (2.2, 1.1), b = (17.6, 4.3), c = (6.4, 11.8)
        func inside(_ x: Double, _ y: Double) -> Bool {
            func side(_ p: (Double, Double), _ q: (Double, Double)) -> Double { (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0) }
            let s0 = side(a, b), s1 = side(b, c), s2 = side(c, a)
            return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)
        }
        let pa = Point(x: f(a.0), y: f(a.1)), pb = Point(x: f(b.0), y: f(b.1)), pc = Point(x: f(c.0), y: f(c.1))
        // Signed distance to the nearest edge is exact along edges; at the sharp vertices a pixel
        // is over-covered, so allow more there.
        #expect(maxCoverageError(Triangle(pa, pb, pc), width: 20, height: 14, inside) <= 0.35)
        #expect(maxCoverageError(Triangle(pc, pb, pa), width: 20, height: 14, inside) <= 0.35, "winding must not matter")
        #expect(maxCoverageError(ConvexPolygon([pa, pb, pc]), width: 20, height: 14, inside) <= 0.35)
        // Away from the vertices, edge pixels are within 0.1.
        var worst = 0.0
        for y in 0..<14 {
            for x in 0..<20 {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let nearVertex = [a, b, c].contains { abs($0.0 - px) < 2.5 && abs($0.1 - py) < 2.5 }
                if nearVertex { continue }
                let analytic = Double(Triangle(pa, pb, pc).coverage(x: Fixed(x) + .half, y: Fixed(y) + .half)) / 255
                worst = max(worst, abs(analytic - supersampled(x, y, inside)))
            }
        }
        #expect(worst <= 0.1, "edge error \(worst)")
    }

    @Test func lineSegmentIsAStrokeWithRoundCaps() {
        let seg = LineSegment(from: Point(x: f(3), y: f(3)), to: Point(x: f(15), y: f(9)), width: f(2))
        let err = maxCoverageError(seg, width: 19, height: 13) { x, y in
            let dx = 12.0, dy = 6.0
            let t = max(0, min(1, ((x - 3) * dx + (y - 3) * dy) / (dx * dx + dy * dy)))
            let ex = x - (3 + dx * t), ey = y - (3 + dy * t)
            return ex * ex + ey * ey <= 1
        }
        #expect(err <= 0.12, "error \(err)")
    }

    /// Issue 2: a shape moving by 1/4 pixel per frame must visibly move (coverage changes every
    /// frame), not jump a whole pixel every fourth frame.
    @Test(arguments: ["circle", "capsule", "rect", "triangle"])
    func quarterPixelStepsChangeCoverageEveryFrame(kind: String) {
        var previous: [Pixel]? = nil
        var previousCentroid: Double? = nil
        for step in 0..<12 {
            let dx = Fixed(step, over: 4)
            var canvas = Canvas(width: 16, height: 6)
            switch kind {
            case "circle": canvas.fill(Ellipse(center: Point(x: 4 + dx, y: 3), radius: f(2.3)), with: .solid(.white))
            case "capsule": canvas.fill(RoundedRectangle.capsule(FixedRect(x: 1 + dx, y: 1, width: 7, height: 4)), with: .solid(.white))
            case "rect": canvas.fill(Rectangle(FixedRect(x: 1 + dx, y: 1, width: 5, height: 4)), with: .solid(.white))
            default: canvas.fill(Triangle(Point(x: 1 + dx, y: 5), Point(x: 4 + dx, y: 1), Point(x: 7 + dx, y: 5)), with: .solid(.white))
            }
            if let previous { #expect(canvas.pixels != previous, "\(kind): frame \(step) did not change") }
            // The coverage-weighted centre moves by 1/4 pixel, ± a little.
            var sum = 0.0, weight = 0.0
            for y in 0..<6 { for x in 0..<16 { let a = Double(canvas[x, y].a); sum += a * (Double(x) + 0.5); weight += a } }
            let centroid = sum / weight
            if let previousCentroid { #expect(abs(centroid - previousCentroid - 0.25) < 0.06, "\(kind): moved \(centroid - previousCentroid)") }
            previous = canvas.pixels
            previousCentroid = centroid
        }
    }

    @Test func goldenSmallShapes() {
        var canvas = Canvas(width: 16, height: 7)
        canvas.fill(RoundedRectangle.capsule(FixedRect(x: f(0.5), y: f(0.5), width: f(9), height: f(6))), with: .solid(.white))
        canvas.fill(Ellipse(center: Point(x: f(13), y: f(3.5)), radius: f(2.5)), with: .solid(.white))
        // Capsule 9x6 at (0.5, 0.5): half-covered top and bottom rows; circle r 2.5 at (13, 3.5).
        let expected = [
            "  -++++-        ",
            " *@@@@@@*  +@@+ ",
            "-@@@@@@@@--@@@@-",
            "+@@@@@@@@++@@@@+",
            "-@@@@@@@@--@@@@-",
            " *@@@@@@*  +@@+ ",
            "  -++++-        ",
        ]
        #expect(art(canvas) == expected.joined(separator: "\n"))
    }
}

@Suite("canvas: clips, gradients, masks, sizes")
struct CanvasTests {
    @Test func nestedClipsMultiplyAndRestore() {
        var canvas = Canvas(width: 20, height: 10)
        canvas.withClip(.rect(FixedRect(x: 2, y: 2, width: 16, height: 6))) { c in
            c.withClip(.roundedRect(FixedRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 3)) { c in
                c.fill(Rectangle(FixedRect(x: 0, y: 0, width: 20, height: 10)), with: .solid(.white))
            }
        }
        // Inside both clips: full; outside either: untouched.
        #expect(canvas[5, 5].a == 255)
        #expect(canvas[12, 5].a == 0, "outside the inner clip")
        #expect(canvas[5, 1].a == 0, "outside the outer clip")
        #expect(canvas[1, 5].a == 0)
        // After the clips are popped, drawing reaches everywhere again.
        canvas.fill(Rectangle(FixedRect(x: 19, y: 9, width: 1, height: 1)), with: .solid(.white))
        #expect(canvas[19, 9].a == 255)
    }

    @Test func roundedClipKeepsAntiAliasedCorners() {
        var canvas = Canvas(width: 10, height: 10)
        canvas.withClip(.roundedRect(FixedRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 5)) { c in
            c.fill(Rectangle(FixedRect(x: 0, y: 0, width: 10, height: 10)), with: .solid(.white))
        }
        #expect(canvas[0, 0].a == 0)
        let edge = canvas[1, 1].a
        #expect(edge > 0 && edge < 255, "a corner pixel is partly covered")
        #expect(canvas[5, 5].a == 255)
    }

    @Test func gradientStopsAreHitAtTheirPositions() {
        var canvas = Canvas(width: 101, height: 1)
        let g = LinearGradient(colors: [.black, .white, .black], startX: f(0.5), endX: f(100.5))
        canvas.fill(Rectangle(FixedRect(x: 0, y: 0, width: 101, height: 1)), with: .linearGradient(g))
        #expect(canvas[0, 0] == Color.black.premultiplied)
        #expect(canvas[50, 0] == Color.white.premultiplied)
        #expect(canvas[100, 0] == Color.black.premultiplied)
        #expect(abs(Int(canvas[25, 0].r) - 128) <= 1)
        // Beyond the ends the end colours extend flat.
        var wide = Canvas(width: 10, height: 1)
        wide.fill(Rectangle(FixedRect(x: 0, y: 0, width: 10, height: 1)), with: .linearGradient(LinearGradient(colors: [.white, .black], startX: 3, endX: 5)))
        #expect(wide[0, 0] == Color.white.premultiplied && wide[9, 0] == Color.black.premultiplied)
    }

    @Test func gradientFadingToClearDoesNotDarken() {
        let g = LinearGradient(colors: [.clear, .white, .clear], startX: 0, endX: 10)
        for x in 0..<10 {
            let p = g.pixel(atX: Fixed(x) + .half)
            #expect(p.r == p.a, "premultiplied white stays white at every opacity")
        }
    }

    @Test func maskRestrictsAFillToTheMaskedPixels() {
        var mask = Mask(width: 8, height: 4)
        mask.add(Rectangle(FixedRect(x: 2, y: 1, width: 3, height: 2)))
        var canvas = Canvas(width: 8, height: 4)
        canvas.fill(mask, with: .solid(.pink))
        for y in 0..<4 {
            for x in 0..<8 {
                let inside = (2..<5).contains(x) && (1..<3).contains(y)
                #expect(canvas[x, y] == (inside ? Color.pink.premultiplied : .transparent))
            }
        }
    }

    @Test func sizesFromOneToTheLimit() {
        var tiny = Canvas(width: 1, height: 1)
        tiny.fill(Ellipse(center: Point(x: .half, y: .half), radius: .half), with: .solid(.white))
        #expect(tiny[0, 0].a > 0)
        var big = Canvas(width: Canvas.maximumSide, height: 2)
        big.fill(Rectangle(FixedRect(x: Fixed(4095), y: 0, width: 1, height: 1)), with: .solid(.white))
        #expect(big[4095, 0].a == 255)
        let tall = Canvas(width: 2, height: Canvas.maximumSide)
        #expect(tall.pixels.count == 2 * 4096)
    }

    @Test func shapesFarOffCanvasDrawNothingAndNeverTrap() {
        var canvas = Canvas(width: 8, height: 8)
        canvas.fill(Ellipse(center: Point(x: Fixed(30000), y: Fixed(-30000)), radius: Fixed(5)), with: .solid(.white))
        canvas.fill(Rectangle(FixedRect(x: .min, y: .min, width: .max, height: .max)), with: .solid(.white))
        canvas.fill(RoundedRectangle.capsule(FixedRect(x: Fixed(-100), y: 2, width: 150, height: 4)), with: .solid(.white))
        #expect(canvas[0, 3].a == 255)
    }
}
