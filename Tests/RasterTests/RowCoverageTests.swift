import FixedPoint
import Testing

@testable import Raster

/// The row-wise coverage (`Shape.row(y:)`), the root-free circle edge (`circleEdgeCoverage`) and
/// the one-pixel SWAR blend are shortcuts that must never change a pixel: each is compared with
/// the routine it replaces, on random and on boundary inputs.
@Suite struct RowCoverageTests {
    typealias Random = RowSpanTests.Random

    /// What shapes computed before: the exact root, then ½ − (hypot − r), saturating.
    static func referenceEdge(_ n: UInt64, _ r: Int64) -> UInt8 {
        edgeCoverage(signedDistance: Fixed(saturatingRaw: Int64(isqrt(n))) - Fixed(raw: Int32(r)))
    }

    /// The smallest v (raw) with (v × 255 + 2¹⁵) >> 16 ≥ b: where the byte steps, so where a wrong
    /// root would show first.
    static func lowestRawForByte(_ b: Int64) -> Int64 { (b << 16 - 0x8000 + 254) / 255 }

    @Test func circleEdgeMatchesTheExactRootAtEveryByteBoundary() {
        var random = Random(state: 11)
        var radii: [Int64] = [0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x10000, 3 << 15, 1 << 29]
        for _ in 0..<300 { radii.append(Int64(random.next() % (1 << UInt64(random.int(1...29))))) }
        for r in radii {
            // Around the square of every byte's bound, and of the bounds of 0 and 255 coverage.
            for b in Int64(1)...255 {
                let k = r + 0x8000 - Self.lowestRawForByte(b)
                if k < 0 { continue }
                let s = UInt64(k + 1) * UInt64(k + 1)
                for n in [s - 1, s, s + 1, UInt64(k) * UInt64(k), s &+ 2 * UInt64(k)] {
                    #expect(circleEdgeCoverage(squaredDistance: n, radius: r) == Self.referenceEdge(n, r), "n \(n) r \(r)")
                }
            }
            for n in [0, 1, UInt64(r) * UInt64(r), UInt64(r + 0x8000) * UInt64(r + 0x8000), 1 << 62, 1 << 63, UInt64.max] {
                #expect(circleEdgeCoverage(squaredDistance: n, radius: r) == Self.referenceEdge(n, r), "n \(n) r \(r)")
            }
        }
    }

    @Test func circleEdgeMatchesTheExactRootOnRandomInputs() {
        var random = Random(state: 12)
        for _ in 0..<200_000 {
            let r = Int64(random.next() % (1 << UInt64(random.int(0...29))))
            // Mostly near the outline (distances within a pixel or two of r), some anywhere.
            let n: UInt64
            if random.next() % 4 == 0 {
                n = random.next() >> UInt64(random.int(0...63))
            } else {
                let d = UInt64(Swift.max(0, r + Int64(random.next() % 0x30000) - 0x18000))
                n = d * d + random.next() % (2 * d + 1)
            }
            let fast = circleEdgeCoverage(squaredDistance: n, radius: r), slow = Self.referenceEdge(n, r)
            if fast != slow { Issue.record("n \(n) r \(r): \(fast), expected \(slow)"); return }
        }
    }

    @Test func approximateRootIsClose() {
        var random = Random(state: 13)
        for _ in 0..<100_000 {
            let n = random.next() >> UInt64(random.int(0...63))
            let exact = isqrt(n), rough = approximateSquareRoot(n)
            let error = rough > exact ? rough - exact : exact - rough
            #expect(error <= exact >> 12 + 1, "approximateSquareRoot(\(n)) = \(rough), isqrt \(exact)")
        }
    }

    /// Every row of every test shape, column by column (and far off the canvas), against coverage.
    @Test func rowsAgreeWithCoverage() {
        var random = Random(state: 14)
        var shapes = RowSpanTests.shapes(&random)
        // Radii that break the fast paths' preconditions: negative (a public var), huge.
        var negative = RoundedRectangle(FixedRect(x: 2, y: 3, width: 20, height: 9), cornerRadius: 4)
        negative.cornerRadius = -3
        shapes.append(negative)
        var huge = RoundedRectangle(FixedRect(x: -20000, y: -20000, width: 30000, height: 30000), cornerRadius: 0)
        huge.cornerRadius = Fixed(15000)
        shapes.append(huge)
        shapes.append(Ellipse(center: Point(x: 10, y: 10), radius: Fixed(9000)))
        shapes.append(Ellipse(center: Point(x: 10, y: 10), radius: .zero))
        var checked = 0
        for shape in shapes { checked += Self.checkRows(shape) }
        #expect(checked > 100_000)
    }

    static func checkRows<S: Shape>(_ shape: S) -> Int {
        var checked = 0
        let columns = Array(-3..<(RowSpanTests.width + 3)) + [-40_000, 40_000, Int.min / 2, Int.max / 2]
        for y in [Fixed.min, .max] + (-3..<(RowSpanTests.height + 3)).map({ Fixed($0) + .half }) {
            let row = shape.row(y: y)
            for x in columns {
                let fast = row.coverage(column: x), slow = shape.coverage(x: Fixed(x) + .half, y: y)
                if fast != slow {
                    Issue.record("\(shape) row \(y) column \(x): \(fast), expected \(slow)")
                    return checked
                }
                checked += 1
            }
        }
        return checked
    }

    @Test func onePixelBlendMatchesScaleThenBlend() {
        var random = Random(state: 15)
        for _ in 0..<200_000 {
            let w = random.next()
            // Any bytes, premultiplied or not: the truncating arithmetic must agree on all of them.
            let paint = Pixel(r: UInt8(truncatingIfNeeded: w), g: UInt8(truncatingIfNeeded: w >> 8),
                              b: UInt8(truncatingIfNeeded: w >> 16), a: random.next() % 4 == 0 ? 255 : UInt8(truncatingIfNeeded: w >> 24))
            let under = Pixel(r: UInt8(truncatingIfNeeded: w >> 32), g: UInt8(truncatingIfNeeded: w >> 40),
                              b: UInt8(truncatingIfNeeded: w >> 48), a: UInt8(truncatingIfNeeded: w >> 56))
            let coverage = random.next() % 4 == 0 ? 255 : UInt8(truncatingIfNeeded: random.next())
            var fast = under
            blendNormalPixel(&fast, paint: paint, coverage: coverage)
            let slow = NormalBlend.blend(paint.scaled(by: coverage), onto: under)
            if fast != slow { Issue.record("\(paint) × \(coverage) onto \(under): \(fast), expected \(slow)"); return }
        }
    }
}
