import FixedPoint
import Raster
import Testing

/// Strokes (the outcome marks' check and cross) against a supersampled reference at canvas sizes
/// from an 8x8 module to 4096 pixels: the squared length used to saturate Q16.16 above ~181 px,
/// and a cross on 800x480 drew as four dots.
@Suite struct LineSegmentScaleTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        mutating func unit() -> Double { Double(next() % 1_000_000) / 1_000_000 }
    }

    /// Area of pixel (px, py) within `halfWidth` of the segment, by 16x16 samples.
    static func reference(_ px: Int, _ py: Int, _ a: (Double, Double), _ b: (Double, Double), _ halfWidth: Double) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1, l2 = dx * dx + dy * dy
        var inside = 0
        for sy in 0..<16 {
            for sx in 0..<16 {
                let x = Double(px) + (Double(sx) + 0.5) / 16, y = Double(py) + (Double(sy) + 0.5) / 16
                let t = l2 == 0 ? 0 : max(0, min(1, ((x - a.0) * dx + (y - a.1) * dy) / l2))
                let ex = x - (a.0 + t * dx), ey = y - (a.1 + t * dy)
                if ex * ex + ey * ey <= halfWidth * halfWidth { inside += 1 }
            }
        }
        return Double(inside) / 256
    }

    @Test("strokes match the supersampled reference at 8 ... 4096 px", arguments: [8, 16, 64, 181, 200, 480, 1080, 2048, 4096])
    func strokesAtEverySize(side: Int) {
        var random = Generator(state: UInt64(side) &* 977)
        for _ in 0..<6 {
            // Endpoints anywhere on the canvas, widths from 1 px to a tenth of the side.
            let a = (random.unit() * Double(side), random.unit() * Double(side))
            let b = (random.unit() * Double(side), random.unit() * Double(side))
            let width = 1 + random.unit() * Double(max(1, side / 10))
            let segment = LineSegment(from: Point(x: Fixed(a.0), y: Fixed(a.1)), to: Point(x: Fixed(b.0), y: Fixed(b.1)), width: Fixed(width))
            // Pixels along the stroke (where it must be drawn) and around it (where it must not).
            var worst = 0.0, sum = 0.0, referenceSum = 0.0
            for _ in 0..<400 {
                let t = random.unit(), off = (random.unit() - 0.5) * (width + 4)
                let length = max(1e-9, ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot())
                let nx = -(b.1 - a.1) / length, ny = (b.0 - a.0) / length
                let px = Int((a.0 + t * (b.0 - a.0) + off * nx).rounded(.down)), py = Int((a.1 + t * (b.1 - a.1) + off * ny).rounded(.down))
                let got = Double(segment.coverage(x: Fixed(px) + .half, y: Fixed(py) + .half)) / 255
                let want = Self.reference(px, py, a, b, width / 2)
                worst = max(worst, abs(got - want))
                sum += got; referenceSum += want
            }
            // A distance-based edge is within ~0.1 of the true area on a slanted edge; caps and
            // very thin strokes a little more.
            #expect(worst <= 0.2, "side \(side), \(a) → \(b), width \(width): worst pixel off by \(worst)")
            #expect(abs(sum - referenceSum) <= 0.03 * referenceSum + 2, "side \(side): total \(sum) vs \(referenceSum)")
        }
    }
}
