import Foundation
import Raster
@testable import Displays

/// A temporary file standing in for a framebuffer, removed when the test ends.
final class ScratchFile {
    let path: String
    init(_ name: String = "fb", prefill: [UInt8]? = nil) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-\(name)-\(UUID().uuidString).raw").path
        if let prefill { _ = FileManager.default.createFile(atPath: path, contents: Data(prefill)) }
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var bytes: [UInt8] { [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()) }
}

func openFramebuffer(_ spec: String) throws -> FramebufferDisplay {
    try FramebufferDisplay.open(DisplaySpec(parsing: spec), warn: { _ in })
}

/// Decodes a packed framebuffer image into colours (row-major `width × height`).
func decodeScreen(_ bytes: [UInt8], width: Int, height: Int, stride: Int, format: FramebufferPixelFormat) -> [Color] {
    let encoder = PixelEncoder(format)
    let bpp = format.bytesPerPixel
    var out: [Color] = []
    out.reserveCapacity(width * height)
    for y in 0..<height {
        for x in 0..<width {
            var v: UInt32 = 0
            for k in 0..<bpp { v |= UInt32(bytes[y * stride + x * bpp + k]) << (8 * UInt32(k)) }
            out.append(encoder.decode(v))
        }
    }
    return out
}

/// The reference placement, written the other way round from the display's inverse walk: each
/// canvas pixel is rotated forward and painted as a `scale × scale` block over the background.
func expectedScreen(canvas: Canvas, screenWidth: Int, screenHeight: Int, scale: Int, rotate: Int,
                    originX: Int, originY: Int, background: Color) -> [Color] {
    var screen = [Color](repeating: background, count: screenWidth * screenHeight)
    let w = canvas.width, h = canvas.height
    for y in 0..<h {
        for x in 0..<w {
            let (u, v): (Int, Int)
            switch rotate {
            case 90: (u, v) = (h - 1 - y, x)
            case 180: (u, v) = (w - 1 - x, h - 1 - y)
            case 270: (u, v) = (y, w - 1 - x)
            default: (u, v) = (x, y)
            }
            let c = canvas[x, y].over(background)
            for dy in 0..<scale {
                for dx in 0..<scale {
                    screen[(originY + v * scale + dy) * screenWidth + originX + u * scale + dx] = c
                }
            }
        }
    }
    return screen
}

/// A canvas whose every pixel differs (opaque), so any misplaced pixel shows.
func distinctCanvas(width: Int, height: Int) -> Canvas {
    var canvas = Canvas(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            canvas[x, y] = Pixel(r: UInt8(truncatingIfNeeded: 10 + x * 20), g: UInt8(truncatingIfNeeded: 10 + y * 30), b: UInt8(truncatingIfNeeded: 200 - x - y), a: 255)
        }
    }
    return canvas
}
