import FixedPoint
import Raster
import Testing
@testable import Displays

@Suite struct FramebufferDirtyRectangleTests {
    @Test func unchangedFrameWritesNothingAndOnePixelWritesOneBlock() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=200x100,format=xrgb8888,size=32x16,scale=3")
        var canvas = distinctCanvas(width: 32, height: 16)
        try display.show(canvas)
        #expect(display.statistics.bytesWritten == 32 * 3 * 4 * 16 * 3)
        #expect(display.statistics.rowsWritten == 48)

        try display.show(canvas)
        #expect(display.statistics.frames == 2)
        #expect(display.statistics.framesWritten == 1)
        #expect(display.statistics.bytesWritten == 32 * 3 * 4 * 16 * 3)

        canvas[7, 5] = Pixel(r: 255, g: 255, b: 255, a: 255)
        try display.show(canvas)
        #expect(display.statistics.framesWritten == 2)
        #expect(display.statistics.bytesWritten == 32 * 3 * 4 * 16 * 3 + 3 * 4 * 3)
        #expect(display.statistics.rowsWritten == 48 + 3)
        let expected = expectedScreen(canvas: canvas, screenWidth: 200, screenHeight: 100, scale: 3, rotate: 0,
                                      originX: display.placement.x, originY: display.placement.y, background: .black)
        #expect(decodeScreen(file.bytes, width: 200, height: 100, stride: 800, format: .xrgb8888) == expected)
    }

    @Test func rotatedDirtyRectangleLandsOnTheRightBlock() throws {
        for rotate in [90, 180, 270] {
            let file = ScratchFile()
            let display = try openFramebuffer("fb:device=\(file.path),geometry=64x64,format=bgr565,size=6x4,scale=4,rotate=\(rotate)")
            var canvas = distinctCanvas(width: 6, height: 4)
            try display.show(canvas)
            let before = display.statistics.bytesWritten
            canvas[1, 2] = Pixel(r: 0, g: 0, b: 0, a: 0)
            canvas[2, 2] = Pixel(r: 0, g: 0, b: 0, a: 0)
            try display.show(canvas)
            #expect(display.statistics.bytesWritten - before == (rotate == 180 ? 2 * 4 * 2 * 4 : 4 * 2 * 2 * 4))
            let expected = expectedScreen(canvas: canvas, screenWidth: 64, screenHeight: 64, scale: 4, rotate: rotate,
                                          originX: display.placement.x, originY: display.placement.y, background: .black)
            let encoder = PixelEncoder(.bgr565)
            #expect(decodeScreen(file.bytes, width: 64, height: 64, stride: 128, format: .bgr565) == expected.map { encoder.decode(encoder.encode($0)) },
                    "rotate \(rotate)")
        }
    }

    @Test func dirtyRectangleIsTheBoundingBoxOfTheChanges() {
        let a = [Pixel](repeating: .transparent, count: 12 * 5)
        var b = a
        #expect(a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { dirtyRectangle(x, $0, width: 12, height: 5) } } == nil)
        b[1 * 12 + 9] = Pixel(r: 1, g: 0, b: 0, a: 1)
        b[3 * 12 + 2] = Pixel(r: 0, g: 0, b: 1, a: 1)
        let r = a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { dirtyRectangle($0, x, width: 12, height: 5) } }
        #expect(r == PixelRect(x: 2, y: 1, width: 8, height: 3))
    }

    /// Frames compared only in the rows either drew in (`Canvas.drawnRows`) and only the changed
    /// rectangle kept as the last frame: shapes moving across and down, the rows they leave
    /// cleared, now and then a frame written pixel by pixel (its rows not known), and a clear of
    /// the screen between. After every frame the screen is what the canvas shows.
    @Test func framesComparedInTheirDrawnRowsLeaveTheScreenRight() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=100x60,format=xrgb8888,size=48x28,scale=2")
        var canvas = Canvas(width: 48, height: 28)
        for i in 0..<40 {
            canvas.clear()
            let y = Fixed(i % 22), x = Fixed(i * 5 % 40)
            if i % 9 != 4 {
                canvas.fill(RoundedRectangle(FixedRect(x: x, y: y, width: Fixed(12), height: Fixed(5)), cornerRadius: Fixed(2)),
                            with: .solid(Color(r: 10, g: 102, b: 194)))
            }
            if i % 3 == 0 { canvas.fill(Ellipse(center: Point(x: Fixed(40), y: Fixed(27 - i % 20)), radius: Fixed(3)), with: .solid(.white)) }
            if i % 7 == 6 { canvas[i % 48, (i * 3) % 28] = Pixel(r: 200, g: 0, b: 0, a: 255) }
            if i == 20 { try display.clear() }
            try display.show(canvas)
            let expected = expectedScreen(canvas: canvas, screenWidth: 100, screenHeight: 60, scale: 2, rotate: 0,
                                          originX: display.placement.x, originY: display.placement.y, background: .black)
            if decodeScreen(file.bytes, width: 100, height: 60, stride: 400, format: .xrgb8888) != expected {
                Issue.record("frame \(i): the screen is not the canvas (drawn rows \(String(describing: canvas.drawnRows)))")
                return
            }
        }
    }
}
