import FixedPoint
import Raster
import Testing

@testable import Loaders

/// The bolt's row spans (two triangles' spans merged) agree with its coverage, pixel by pixel.
@Suite struct BoltSpanTests {
    @Test(arguments: [(8, 8), (64, 32), (37, 23), (100, 100), (480, 64)])
    func spansAgreeWithCoverage(size: (Int, Int)) {
        let (w, h) = size
        let bolt = Bolt(layout: Layout.fit(design: DesignSize(width: 100, height: 100), into: PixelRect(x: 0, y: 0, width: w, height: h)))
        for y in 0..<h {
            let cy = Fixed(y) + .half
            let span = bolt.rowSpan(y: cy, columns: 0..<w)
            for x in 0..<w {
                let c = bolt.coverage(x: Fixed(x) + .half, y: cy)
                #expect(!((x < span.lo || x >= span.hi) && c != 0), "\(w)x\(h) row \(y) column \(x): \(c) outside the span")
                #expect(!(x >= span.innerLo && x < span.innerHi && c != 255), "\(w)x\(h) row \(y) column \(x): \(c) in the full run")
            }
        }
    }
}
