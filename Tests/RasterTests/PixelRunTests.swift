import Testing

@testable import Raster

/// The whole-word runs must give exactly what the per-pixel blends give, for every source
/// (valid premultiplied or not: the truncation to 8 bits must match too) and every length.
@Suite struct PixelRunTests {
    @Test func normalRunMatchesPerPixelBlend() {
        var random = RowSpanTests.Random(state: 7)
        func pixel() -> Pixel {
            let v = random.next()
            return Pixel(r: UInt8(truncatingIfNeeded: v), g: UInt8(truncatingIfNeeded: v >> 8),
                         b: UInt8(truncatingIfNeeded: v >> 16), a: UInt8(truncatingIfNeeded: v >> 24))
        }
        for count in 0..<9 {
            for _ in 0..<3000 {
                var source = pixel()
                if random.next() % 4 == 0 { source.a = [0, 1, 254, 255][Int(random.next() % 4)] }
                let before = (0..<count).map { _ in pixel() }
                var run = before
                run.withUnsafeMutableBufferPointer { blendNormalRun($0.baseAddress!, count: count, source: source) }
                #expect(run == before.map { NormalBlend.blend(source, onto: $0) }, "source \(source)")
            }
        }
    }

    @Test func fillRunStoresEveryPixel() {
        var pixels = [Pixel](repeating: .transparent, count: 7)
        let p = Pixel(r: 1, g: 2, b: 3, a: 4)
        pixels.withUnsafeMutableBufferPointer { fillRun($0.baseAddress! + 1, count: 5, with: p) }
        #expect(pixels == [.transparent, p, p, p, p, p, .transparent])
    }

    @Test func storeScaledPixelMatchesScaled() {
        var random = RowSpanTests.Random(state: 11)
        for _ in 0..<20000 {
            let v = random.next()
            let paint = Pixel(r: UInt8(truncatingIfNeeded: v), g: UInt8(truncatingIfNeeded: v >> 8),
                              b: UInt8(truncatingIfNeeded: v >> 16), a: UInt8(truncatingIfNeeded: v >> 24))
            let coverage = UInt8(truncatingIfNeeded: random.next())
            var out = Pixel(r: 9, g: 9, b: 9, a: 9)
            storeScaledPixel(&out, paint: paint, coverage: coverage)
            #expect(out == paint.scaled(by: coverage))
        }
    }

    /// A pixel written directly (not by a fill) must not be taken for clear by the next fill.
    @Test func directWritesAreNotTakenForClear() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.clear()
        canvas[1, 0] = Pixel(r: 0, g: 0, b: 200, a: 200)
        canvas.fill(Rectangle(FixedRect(x: .zero, y: .zero, width: 4, height: 1)), with: .solid(Color(r: 255, g: 0, b: 0, a: 128)))
        #expect(canvas[1, 0] == NormalBlend.blend(Color(r: 255, g: 0, b: 0, a: 128).premultiplied, onto: Pixel(r: 0, g: 0, b: 200, a: 200)))
        canvas.clear()
        canvas.pixels[2] = Pixel(r: 0, g: 0, b: 200, a: 200)
        canvas.fill(Rectangle(FixedRect(x: .zero, y: .zero, width: 4, height: 1)), with: .solid(Color(r: 255, g: 0, b: 0, a: 128)))
        #expect(canvas[2, 0] == NormalBlend.blend(Color(r: 255, g: 0, b: 0, a: 128).premultiplied, onto: Pixel(r: 0, g: 0, b: 200, a: 200)))
    }
}
