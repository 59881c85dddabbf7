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
}
