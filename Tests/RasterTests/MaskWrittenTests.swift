import FixedPoint
import Raster
import Testing

/// A mask keeps the rectangle it was written in (`Mask.written`): every byte that is not 0 lies
/// in it, `clear()` zeroes only it and leaves the whole mask 0, and a fill through the mask
/// (which visits only that rectangle) lands what a fill through a fresh copy of it lands.
@Suite struct MaskWrittenTests {
    static func check(_ mask: Mask, _ label: String) {
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask[x, y] != 0 {
                let r = mask.written
                if x < r.x || x >= r.maxX || y < r.y || y >= r.maxY {
                    Issue.record("\(label): (\(x), \(y)) written outside \(r)")
                    return
                }
            }
        }
    }

    @Test func writtenHoldsEveryByteAndClearLeavesNone() {
        var mask = Mask(width: 90, height: 40)
        var random = RowSpanTests.Random(state: 5)
        for i in 0..<60 {
            // Bitmap text at scales and places (some partly off the mask), glyphs of the atlas,
            // a shape, and a clipping window now and then.
            let x = random.int(-30...80), y = random.int(-8...36)
            let window: PixelRect? = i % 4 == 3 ? PixelRect(x: 10, y: 5, width: 50, height: 20) : nil
            mask.add(text: i % 2 == 0 ? "Loading" : "Mounting /home", font: i % 3 == 0 ? .large : .small, x: x, y: y,
                     scale: 1 + i % 3, within: window)
            mask.add(text: "aa a", atlas: GlyphAtlasTests.atlas, x: x + 7, y: y + 3, within: window)
            if i % 5 == 0 { mask.add(Ellipse(center: Point(x: Fixed(x), y: Fixed(y)), radius: Fixed(4))) }
            Self.check(mask, "case \(i)")
            var canvas = Canvas(width: 90, height: 40), reference = Canvas(width: 90, height: 40)
            canvas.fill(mask, with: .solid(Color(r: 200, g: 100, b: 0)))
            for yy in 0..<40 { for xx in 0..<90 where mask[xx, yy] != 0 {
                reference.fill(Rectangle(FixedRect(x: Fixed(xx), y: Fixed(yy), width: .one, height: .one)),
                               with: .solid(Color(r: 200, g: 100, b: 0)), opacity: Fixed(Int(mask[xx, yy]), over: 255))
            } }
            if canvas.pixels != reference.pixels { Issue.record("case \(i): the fill through the mask differs"); return }
            if i % 3 == 2 {
                mask.clear()
                if mask.coverage.contains(where: { $0 != 0 }) || !mask.written.isEmpty { Issue.record("case \(i): clear left bytes"); return }
            }
        }
    }
}
