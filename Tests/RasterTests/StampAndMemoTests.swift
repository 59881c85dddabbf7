import FixedPoint
import Testing

@testable import Raster

/// A circle from its stamp (`CircleStamps`) and a shape from the memo (`fill(_:with:memo:)`) must
/// land exactly the pixels the direct fill lands: a fresh canvas's first fill of a shape is the
/// direct one (a stamp is made the second time a radius and phase come, a memo recorded on the
/// first fill and used from the second).
@Suite struct StampAndMemoTests {
    typealias Random = RowSpanTests.Random

    /// The canvas as each case starts: clear, or painted (then nothing is known to be clear).
    static func start(_ background: Color?, clip: Clip? = nil) -> Canvas {
        var c = Canvas(width: 40, height: 30)
        if let background { c.clear(to: background) }
        if let clip { c.pushClip(clip) }
        return c
    }

    @Test func stampedCirclesEqualDirectOnes() {
        var random = Random(state: 17)
        var stamped = 0
        for i in 0..<400 {
            let radius = Fixed(raw: Int32(0x4000 + random.int(0...(16 << 16))))
            // Phases and whole parts apart: the first circle makes the key known, the second
            // (another whole-pixel position, the same phases) comes from the stamp.
            let fx = Int32(random.int(0...0xFFFF)), fy = Int32(random.int(0...0xFFFF))
            func centre() -> Point {
                Point(x: Fixed(raw: Int32(random.int(-6...45)) << 16 | fx), y: Fixed(raw: Int32(random.int(-6...35)) << 16 | fy))
            }
            let first = Ellipse(center: centre(), radius: radius), second = Ellipse(center: centre(), radius: radius)
            let background: Color? = i % 3 == 0 ? nil : (i % 3 == 1 ? Color(r: 20, g: 90, b: 200) : Color(r: 200, g: 10, b: 60, a: 128))
            let paint = i % 2 == 0 ? Color(r: 255, g: 255, b: 255, a: 51) : Color(r: 10, g: 200, b: 90)
            let opacity = i % 4 == 0 ? Fixed(3, over: 5) : Fixed.one
            let blend: BlendMode = i % 5 == 0 ? .screen : .normal
            // A rectangle clip holding the whole canvas (one that changes nothing) now and then.
            let clip: Clip? = i % 7 == 0 ? .rect(FixedRect(x: Fixed(-10), y: Fixed(-10), width: Fixed(60), height: Fixed(50))) : nil

            var reference = StampAndMemoTests.start(background, clip: clip)
            reference.fill(second, with: .solid(paint), opacity: opacity, blend: blend)

            var viaStamp = StampAndMemoTests.start(background, clip: clip)
            viaStamp.fill(first, with: .solid(paint), opacity: opacity, blend: blend)
            viaStamp.clear(to: background ?? .clear)
            if let clip { viaStamp.popClip(); viaStamp.pushClip(clip) }
            viaStamp.fill(second, with: .solid(paint), opacity: opacity, blend: blend)
            if viaStamp.stamps.slots.contains(where: { $0.made }) { stamped += 1 }
            if viaStamp.pixels != reference.pixels {
                Issue.record("case \(i): radius \(radius.raw), centre \(second.center.x.raw), \(second.center.y.raw) differs from the direct fill")
                return
            }
        }
        // Most cases must have gone through a stamp, or this checks only the direct path.
        #expect(stamped > 300)
    }

    @Test func memoizedShapesEqualDirectOnes() {
        var random = Random(state: 5)
        func point() -> Point { Point(x: Fixed(raw: Int32(random.int(-(4 << 16)...(44 << 16)))), y: Fixed(raw: Int32(random.int(-(4 << 16)...(34 << 16))))) }
        for i in 0..<200 {
            let shape = Triangle(point(), point(), point())
            let key = ShapeMemoKey(kind: 7, a: UInt64(i), b: 0, c: 0)
            let background: Color? = i % 2 == 0 ? nil : Color(r: 30, g: 60, b: 90)
            let clip: Clip? = i % 3 == 0 ? .roundedRect(FixedRect(x: Fixed(3), y: Fixed(2), width: Fixed(30), height: Fixed(20)), cornerRadius: Fixed(6)) : nil
            var reference = StampAndMemoTests.start(background, clip: clip)
            reference.fill(shape, with: .solid(.white), opacity: Fixed(4, over: 5))
            // The first fill records the memo, the second is drawn from it.
            var memoized = StampAndMemoTests.start(background, clip: clip)
            memoized.fill(shape, with: .solid(.white), opacity: Fixed(4, over: 5), memo: key)
            let once = memoized.pixels
            memoized.clear(to: background ?? .clear)
            memoized.fill(shape, with: .solid(.white), opacity: Fixed(4, over: 5), memo: key)
            #expect(once == reference.pixels, "case \(i), recorded")
            #expect(memoized.pixels == reference.pixels, "case \(i), from the memo")
            #expect(memoized.shapeMemo.valid, "case \(i): the memo was not used")
        }
    }

    /// A rounded rectangle filled onto clear rows a third time stores the words its second fill
    /// left: the same pixels as the direct fill, and on a painted canvas the direct fill itself.
    @Test func rectanglesFromTheirWordsEqualDirectOnes() {
        var random = Random(state: 9)
        var fromWords = 0
        for i in 0..<300 {
            let x = Fixed(raw: Int32(random.int(-(4 << 16)...(36 << 16)))), y = Fixed(raw: Int32(random.int(-(4 << 16)...(26 << 16))))
            let w = Fixed(raw: Int32(random.int(0...(30 << 16)))), h = Fixed(raw: Int32(random.int(0...(20 << 16))))
            let shape = RoundedRectangle(FixedRect(x: x, y: y, width: w, height: h), cornerRadius: Fixed(raw: Int32(random.int(0...(8 << 16)))))
            let paint = i % 2 == 0 ? Color(r: 255, g: 255, b: 255, a: 51) : Color(r: 10, g: 200, b: 90)
            let opacity = i % 3 == 0 ? Fixed(3, over: 5) : Fixed.one
            let blend: BlendMode = i % 5 == 0 ? .screen : .normal
            let background: Color? = i % 4 == 3 ? Color(r: 40, g: 40, b: 40) : nil
            var reference = StampAndMemoTests.start(background)
            reference.fill(shape, with: .solid(paint), opacity: opacity, blend: blend)
            var stamped = StampAndMemoTests.start(background)
            for _ in 0..<3 {
                stamped.clear(to: background ?? .clear)
                stamped.fill(shape, with: .solid(paint), opacity: opacity, blend: blend)
            }
            if stamped.rectStamps.slots.contains(where: { $0?.made == true }) { fromWords += 1 }
            if stamped.pixels != reference.pixels { Issue.record("case \(i): \(shape) differs from the direct fill"); return }
        }
        #expect(fromWords > 150)
    }

    /// A rounded rectangle in a rounded clip of the same rows and radius (a bar's fill in its
    /// track) is drawn as the part inside, unclipped: the same pixels as through the clip, which
    /// a second clip holding the whole canvas (changing nothing) keeps it going through.
    @Test func fillsInTheirTrackEqualClippedOnes() {
        var random = Random(state: 23)
        var inside = 0
        let everything = Clip.rect(FixedRect(x: Fixed(-10), y: Fixed(-10), width: Fixed(60), height: Fixed(50)))
        for i in 0..<4000 {
            let y = Fixed(raw: Int32(random.int(-(2 << 16)...(24 << 16)))), h = Fixed(raw: Int32(random.int((1 << 16)...(16 << 16))))
            let tx = Fixed(raw: Int32(random.int(-(4 << 16)...(20 << 16)))), tw = Fixed(raw: Int32(random.int((2 << 16)...(36 << 16))))
            let fx = tx + Fixed(raw: Int32(random.int(-(12 << 16)...(30 << 16)))), fw = Fixed(raw: Int32(random.int((1 << 16)...(24 << 16))))
            // Radii from square corners to capsules, clamped alike in both (or the case is not one).
            let radius = i % 5 == 0 ? h / 2 : Fixed(raw: Int32(random.int(0...(8 << 16))))
            let track = RoundedRectangle(FixedRect(x: tx, y: y, width: tw, height: h), cornerRadius: radius)
            let fill = RoundedRectangle(FixedRect(x: fx, y: y, width: fw, height: h), cornerRadius: radius)
            let clip = Clip.roundedRect(track.rect, cornerRadius: radius)
            if fill.intersection(withSameRows: track) != nil { inside += 1 }
            let background: Color? = i % 4 == 3 ? Color(r: 40, g: 40, b: 40) : nil
            let paint = i % 2 == 0 ? Color(r: 10, g: 102, b: 194) : Color(r: 255, g: 255, b: 255, a: 51)
            let opacity = i % 3 == 0 ? Fixed(3, over: 5) : Fixed.one
            let blend: BlendMode = i % 5 == 1 ? .screen : .normal
            func draw(_ clips: [Clip]) -> [Pixel] {
                var canvas = StampAndMemoTests.start(background)
                if i % 2 == 1 { canvas.fill(track, with: .solid(Color(r: 128, g: 128, b: 128, a: 128))) }
                for clip in clips { canvas.pushClip(clip) }
                canvas.fill(fill, with: .solid(paint), opacity: opacity, blend: blend)
                return canvas.pixels
            }
            if draw([clip]) != draw([everything, clip]) {
                Issue.record("case \(i): \(fill) in \(track) differs from the clipped fill")
                return
            }
        }
        // Most cases must have gone the new way, or this checks only the clipped one.
        #expect(inside > 600)
    }

    /// A fill in its track that moved sideways since the last frame reuses that frame's rows apart
    /// from x (`RoundedRowHeights`): the same pixels as on a fresh canvas.
    @Test func fillsMovedSidewaysEqualFreshOnes() {
        var random = Random(state: 37)
        var reused = 0
        for i in 0..<2000 {
            let y = Fixed(raw: Int32(random.int(-(2 << 16)...(24 << 16)))), h = Fixed(raw: Int32(random.int((1 << 16)...(16 << 16))))
            let tx = Fixed(raw: Int32(random.int(-(4 << 16)...(8 << 16)))), tw = Fixed(raw: Int32(random.int((16 << 16)...(40 << 16))))
            let radius = i % 3 == 0 ? h / 2 : Fixed(raw: Int32(random.int(0...(8 << 16))))
            let track = RoundedRectangle(FixedRect(x: tx, y: y, width: tw, height: h), cornerRadius: radius)
            let fw = Fixed(raw: Int32(random.int((2 << 16)...(16 << 16))))
            func fill() -> RoundedRectangle {
                RoundedRectangle(FixedRect(x: tx + Fixed(raw: Int32(random.int(-(8 << 16)...(24 << 16)))), y: y, width: fw, height: h), cornerRadius: radius)
            }
            var before = fill(), earlierTrack = track
            let now = fill()
            // Now and then the last frame's bar a raw unit lower: its rows are not these.
            if i % 5 == 4 { before.rect.y = y + Fixed(raw: 1); earlierTrack.rect.y = y + Fixed(raw: 1) }
            let background: Color? = i % 4 == 3 ? Color(r: 40, g: 40, b: 40) : nil
            func frame(_ canvas: inout Canvas, _ track: RoundedRectangle, _ f: RoundedRectangle) {
                canvas.clear(to: background ?? .clear)
                canvas.fill(track, with: .solid(Color(r: 128, g: 128, b: 128, a: 128)))
                canvas.withClip(.roundedRect(track.rect, cornerRadius: radius)) { $0.fill(f, with: .solid(Color(r: 10, g: 102, b: 194))) }
            }
            var warm = StampAndMemoTests.start(background)
            frame(&warm, earlierTrack, before)
            let key = warm.roundedRows.key
            frame(&warm, track, now)
            if key.rows > 0 && warm.roundedRows.key == key { reused += 1 }
            var fresh = StampAndMemoTests.start(background)
            frame(&fresh, track, now)
            if warm.pixels != fresh.pixels { Issue.record("case \(i): \(now) in \(track) after \(before) differs from a fresh canvas"); return }
        }
        #expect(reused > 500)
    }

    /// A fill whose rows repeat (mirrored about its middle, or straight between its corners) is
    /// worked out once per kind of row and laid on each (`RoundedRowHeights.make`): the same
    /// pixels as the clipped fill, over a cleared, a painted and a tracked canvas.
    @Test func fillsWithRowsAlikeEqualClippedOnes() {
        var random = Random(state: 41)
        var alike = 0
        let everything = Clip.rect(FixedRect(x: Fixed(-10), y: Fixed(-10), width: Fixed(60), height: Fixed(50)))
        for i in 0..<2000 {
            // 2 × top + height a whole number of pixels: each row's centre mirrors onto another's.
            let h = Fixed(raw: Int32(random.int((1 << 16)...(20 << 16))))
            let twiceMiddle = Int64(random.int(2...52)) << 16 + (i % 7 == 6 ? 1 : 0)
            let y = Fixed(raw: Int32((twiceMiddle - Int64(h.raw)) / 2)), height = Fixed(raw: Int32(twiceMiddle - 2 * ((twiceMiddle - Int64(h.raw)) / 2)))
            let tx = Fixed(raw: Int32(random.int(-(4 << 16)...(8 << 16)))), tw = Fixed(raw: Int32(random.int((16 << 16)...(40 << 16))))
            let radius = i % 3 == 0 ? height / 2 : Fixed(raw: Int32(random.int(0...(6 << 16))))
            let track = RoundedRectangle(FixedRect(x: tx, y: y, width: tw, height: height), cornerRadius: radius)
            let fill = RoundedRectangle(FixedRect(x: tx + Fixed(raw: Int32(random.int(-(8 << 16)...(24 << 16)))), y: y,
                                                  width: Fixed(raw: Int32(random.int((2 << 16)...(16 << 16)))), height: height), cornerRadius: radius)
            let background: Color? = i % 4 == 3 ? Color(r: 40, g: 40, b: 40) : nil
            let paint = i % 2 == 0 ? Color(r: 10, g: 102, b: 194) : Color(r: 255, g: 255, b: 255, a: 51)
            let opacity = i % 5 == 2 ? Fixed(3, over: 5) : Fixed.one
            let clip = Clip.roundedRect(track.rect, cornerRadius: radius)
            func draw(_ clips: [Clip]) -> Canvas {
                var canvas = StampAndMemoTests.start(background)
                if i % 2 == 1 { canvas.fill(track, with: .solid(Color(r: 128, g: 128, b: 128, a: 128))) }
                for clip in clips { canvas.pushClip(clip) }
                canvas.fill(fill, with: .solid(paint), opacity: opacity)
                return canvas
            }
            let lean = draw([clip])
            if lean.roundedRows.key.rows > 0 && lean.roundedRows.rows.prefix(lean.roundedRows.key.rows).contains(where: \.follows) { alike += 1 }
            if lean.pixels != draw([everything, clip]).pixels {
                Issue.record("case \(i): \(fill) in \(track) differs from the clipped fill")
                return
            }
        }
        // Most cases must have had rows alike, or this checks only rows worked out one by one.
        #expect(alike > 600)
        // Fills taller than `RoundedRowHeights.capacity` rows: each row worked out as it is laid.
        for i in 0..<40 {
            let height = Fixed(raw: Int32(random.int((65 << 16)...(80 << 16)))), y = Fixed(raw: Int32(random.int(0...(8 << 16))))
            let radius = i % 2 == 0 ? height / 2 : Fixed(raw: Int32(random.int(0...(20 << 16))))
            let track = RoundedRectangle(FixedRect(x: Fixed(2), y: y, width: Fixed(150), height: height), cornerRadius: radius)
            let fill = RoundedRectangle(FixedRect(x: Fixed(raw: Int32(random.int(0...(80 << 16)))), y: y, width: Fixed(60), height: height), cornerRadius: radius)
            func draw(_ clips: [Clip]) -> [Pixel] {
                var canvas = Canvas(width: 160, height: 90)
                canvas.fill(track, with: .solid(Color(r: 128, g: 128, b: 128, a: 128)))
                for clip in clips { canvas.pushClip(clip) }
                canvas.fill(fill, with: .solid(Color(r: 10, g: 102, b: 194)))
                return canvas.pixels
            }
            let clip = Clip.roundedRect(track.rect, cornerRadius: radius)
            if draw([clip]) != draw([Clip.rect(FixedRect(x: Fixed(-1), y: Fixed(-1), width: Fixed(170), height: Fixed(100))), clip]) {
                Issue.record("tall case \(i): \(fill) in \(track) differs from the clipped fill")
                return
            }
        }
    }
}
