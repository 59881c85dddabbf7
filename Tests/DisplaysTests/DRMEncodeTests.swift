import Raster
import Testing
@testable import Displays

/// The encode path a DRM display takes into its dumb buffers: the fb display's `Placement` and
/// `FrameWriter`, with the kernel's pitch (rows padded, e.g. to 64 bytes) and the two formats a
/// dumb buffer is created in. Padding bytes must stay untouched.
struct DRMEncodeTests {
    static func sampleCanvas(_ w: Int, _ h: Int) -> Canvas {
        var canvas = Canvas(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                // Opaque, half-transparent (premultiplied) and clear pixels, distinct per position.
                let a: UInt8 = (x + y) % 3 == 0 ? 255 : (x + y) % 3 == 1 ? 128 : 0
                let v = UInt8(truncatingIfNeeded: x * 37 + y * 11)
                canvas[x, y] = Pixel(r: min(v, a), g: min(UInt8(truncatingIfNeeded: v &+ 90), a), b: min(UInt8(truncatingIfNeeded: y * 50), a), a: a)
            }
        }
        return canvas
    }

    @Test(arguments: [(DRMOptions.formats[0].format, 0), (DRMOptions.formats[0].format, 90), (DRMOptions.formats[1].format, 270), (DRMOptions.formats[1].format, 180)])
    func aPaddedDumbBufferHoldsThePlacedCanvas(format: FramebufferPixelFormat, rotate: Int) throws {
        let screenWidth = 200, screenHeight = 120
        let pitch = (screenWidth * format.bytesPerPixel + 63) / 64 * 64 + 64
        let background = Color(r: 0x10, g: 0x20, b: 0x30)
        let placement = try Placement.resolve(screenWidth: screenWidth, screenHeight: screenHeight, size: (20, 12), scale: 3,
                                              rotation: Rotation(rawValue: rotate)!, anchor: .bottomRight, offsetX: -5, offsetY: -2).get()
        let writer = FrameWriter(placement: placement, encoder: PixelEncoder(format), background: background, stride: pitch)
        defer { writer.release() }
        var memory = [UInt8](repeating: 0xAB, count: pitch * screenHeight)
        let canvas = Self.sampleCanvas(20, 12)
        memory.withUnsafeMutableBytes { buffer in
            writer.fillBackground(buffer.baseAddress!, rowPixels: screenWidth, rows: screenHeight)
            canvas.pixels.withUnsafeBufferPointer { pixels in
                // As DRMDisplay.show does: the dirty canvas rectangle, rotated into placed space.
                let placed = placement.rotated(PixelRect(x: 0, y: 0, width: 20, height: 12))
                _ = writer.write(pixels.baseAddress!, placedRect: placed, into: buffer.baseAddress!)
            }
        }
        let expected = expectedScreen(canvas: canvas, screenWidth: screenWidth, screenHeight: screenHeight, scale: 3, rotate: rotate,
                                      originX: placement.x, originY: placement.y, background: background)
        let encoder = PixelEncoder(format)
        #expect(decodeScreen(memory, width: screenWidth, height: screenHeight, stride: pitch, format: format)
                == expected.map { encoder.decode(encoder.encode($0)) })
        let padding = (0..<screenHeight).flatMap { y in memory[(y * pitch + screenWidth * format.bytesPerPixel)..<((y + 1) * pitch)] }
        #expect(padding.allSatisfy { $0 == 0xAB }, "bytes past the visible row were written")
    }

    @Test func xrgb8888IsTheDRMFourccLayout() {
        // DRM_FORMAT_XRGB8888: [31:0] x:R:G:B little endian — red in bits 16-23, as fbdev's 32 bpp.
        #expect(PixelEncoder(.xrgb8888).encode(Color(r: 0x12, g: 0x34, b: 0x56)) == 0x0012_3456)
        #expect(PixelEncoder(.rgb565).encode(Color(r: 0xff, g: 0, b: 0)) == 0xF800)
    }

    @Test func theDefaultPlacementOnAFullHDScreen() throws {
        // No size, no scale: the smallest scale that keeps the canvas's shorter side ≤ 600 px.
        let p = try Placement.resolve(screenWidth: 1920, screenHeight: 1080, size: nil, scale: nil, rotation: .none,
                                      anchor: .center, offsetX: 0, offsetY: 0).get()
        #expect(p.scale == 2 && p.canvasWidth == 960 && p.canvasHeight == 540)
        #expect(p.x == (1920 - p.width) / 2 && p.y == (1080 - p.height) / 2)
    }

    @Test(arguments: [(800, 480, 1), (1024, 600, 1), (1280, 720, 2), (1280, 800, 2), (1920, 1200, 2), (2560, 1440, 3), (3840, 2160, 4), (320, 240, 1)])
    func theAutomaticScaleKeepsTheShorterSideAt600OrLess(_ width: Int, _ height: Int, _ scale: Int) throws {
        let p = try Placement.resolve(screenWidth: width, screenHeight: height, size: nil, scale: nil, rotation: .none,
                                      anchor: .center, offsetX: 0, offsetY: 0).get()
        #expect(p.scale == scale && p.canvasWidth == width / scale && p.canvasHeight == height / scale)
        #expect(min(p.canvasWidth, p.canvasHeight) <= 600)
    }
}
