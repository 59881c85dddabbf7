import Raster
import Testing
@testable import Displays

@Suite struct PixelEncodingTests {
    /// (0xFF, 0x80, 0x10) by hand: 5 bits 255→31, 6 bits 128→(128·63+127)/255=32, 5 bits 16→2.
    /// RGB565 = 31<<11 | 32<<5 | 2 = 0xFC02; BGR565 = 2<<11 | 32<<5 | 31 = 0x141F. Multi-byte
    /// pixels are little-endian in memory.
    static let cases: [(String, [UInt8])] = [
        ("rgb565", [0x02, 0xFC]),
        ("bgr565", [0x1F, 0x14]),
        ("rgb888", [0x10, 0x80, 0xFF]),
        ("bgr888", [0xFF, 0x80, 0x10]),
        ("xrgb8888", [0x10, 0x80, 0xFF, 0x00]),
        ("argb8888", [0x10, 0x80, 0xFF, 0xFF]),
        ("xbgr8888", [0xFF, 0x80, 0x10, 0x00]),
        ("abgr8888", [0xFF, 0x80, 0x10, 0xFF]),
    ]

    @Test(arguments: cases)
    func opaquePixelEncodesExactly(_ format: String, _ expected: [UInt8]) throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=1x1,format=\(format),size=1x1")
        var canvas = Canvas(width: 1, height: 1)
        canvas[0, 0] = Pixel(r: 0xFF, g: 0x80, b: 0x10, a: 0xFF)
        try display.show(canvas)
        display.close()
        #expect(file.bytes == expected)
    }

    /// Half-transparent premultiplied red (128, 0, 0, 128) over white: 128 + 255·127/255 = 255
    /// for red, 127 for green and blue.
    @Test func translucentPixelIsCompositedOverTheBackground() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=1x1,format=xrgb8888,size=1x1,background=white")
        var canvas = Canvas(width: 1, height: 1)
        canvas[0, 0] = Pixel(r: 128, g: 0, b: 0, a: 128)
        try display.show(canvas)
        #expect(file.bytes == [0x7F, 0x7F, 0xFF, 0x00])
    }

    /// RGB565 rounds to nearest: every 8-bit value maps to the closest 5- or 6-bit level.
    @Test func channelsRoundToNearest() {
        let encoder = PixelEncoder(.rgb565)
        for v in 0..<256 {
            let value = encoder.encode(Color(r: UInt8(v), g: UInt8(v), b: UInt8(v)))
            let r = Int(value >> 11), g = Int((value >> 5) & 63), b = Int(value & 31)
            #expect(r == b)
            #expect(abs(r * 255 - v * 31) <= 255 / 2 + 1)
            #expect(abs(g * 255 - v * 63) <= 255 / 2 + 1)
        }
    }

    @Test func deviceBitfieldsPickTheFormat() {
        #expect(FramebufferPixelFormat.matching(bitsPerPixel: 16, red: .init(offset: 11, length: 5), green: .init(offset: 5, length: 6),
                                                blue: .init(offset: 0, length: 5), alpha: .init(offset: 0, length: 0)) == .rgb565)
        // vfb's 32 bpp: red at 0, alpha at 24 → ABGR8888; transp with length 0 ignores its offset.
        #expect(FramebufferPixelFormat.matching(bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
                                                blue: .init(offset: 16, length: 8), alpha: .init(offset: 24, length: 8)) == .abgr8888)
        #expect(FramebufferPixelFormat.matching(bitsPerPixel: 32, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8),
                                                blue: .init(offset: 0, length: 8), alpha: .init(offset: 24, length: 0)) == .xrgb8888)
    }
}
