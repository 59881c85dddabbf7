import Raster
import Testing
@testable import Displays

@Suite struct FramebufferPlacementTests {
    static let screen = (width: 23, height: 17)

    /// Every rotation and anchor, decoded back from the file and compared with a forward-mapped
    /// reference.
    @Test(arguments: [0, 90, 180, 270], ["center", "top-left", "top", "bottom-right", "left", "right", "bottom"])
    func placedCanvasMatchesTheReference(rotate: Int, anchor: String) throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=\(Self.screen.width)x\(Self.screen.height),format=xrgb8888,"
            + "size=5x3,scale=3,rotate=\(rotate),anchor=\(anchor),background=#203040")
        let canvas = distinctCanvas(width: 5, height: 3)
        try display.show(canvas)
        let (pw, ph) = rotate % 180 == 0 ? (15, 9) : (9, 15)
        let x: Int, y: Int
        switch anchor {
        case "top-left": (x, y) = (0, 0)
        case "top": (x, y) = ((23 - pw) / 2, 0)
        case "bottom-right": (x, y) = (23 - pw, 17 - ph)
        case "left": (x, y) = (0, (17 - ph) / 2)
        case "right": (x, y) = (23 - pw, (17 - ph) / 2)
        case "bottom": (x, y) = ((23 - pw) / 2, 17 - ph)
        default: (x, y) = ((23 - pw) / 2, (17 - ph) / 2)
        }
        #expect(display.placement.x == x && display.placement.y == y)
        let expected = expectedScreen(canvas: canvas, screenWidth: 23, screenHeight: 17, scale: 3, rotate: rotate,
                                      originX: x, originY: y, background: Color(rgb: 0x203040))
        let actual = decodeScreen(file.bytes, width: 23, height: 17, stride: 23 * 4, format: .xrgb8888)
        #expect(actual == expected)
    }

    @Test func offsetsMoveTheAnchoredImage() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=40x30,format=rgb888,size=4x4,scale=2,anchor=top-left,x=5,y=7")
        #expect(display.placement == Placement(canvasWidth: 4, canvasHeight: 4, scale: 2, rotation: .none, x: 5, y: 7))
        let canvas = distinctCanvas(width: 4, height: 4)
        try display.show(canvas)
        let expected = expectedScreen(canvas: canvas, screenWidth: 40, screenHeight: 30, scale: 2, rotate: 0, originX: 5, originY: 7, background: .black)
        #expect(decodeScreen(file.bytes, width: 40, height: 30, stride: 120, format: .rgb888) == expected)
    }

    @Test func defaultScaleIsTheLargestThatFits() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=320x240,format=rgb565,size=64x16")
        #expect(display.placement.scale == 5)           // min(320/64, 240/16)
        let rotated = try openFramebuffer("fb:device=\(file.path),geometry=320x240,format=rgb565,size=64x16,rotate=90")
        #expect(rotated.placement.scale == 3)           // min(240/64, 320/16)
        #expect(rotated.placement.width == 48 && rotated.placement.height == 192)
    }

    @Test func defaultSizeIsTheScreenOverTheScale() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=320x240,format=rgb565,scale=8")
        #expect(display.canvasWidth == 40 && display.canvasHeight == 30)
        let rotated = try openFramebuffer("fb:device=\(file.path),geometry=320x240,format=rgb565,scale=8,rotate=270")
        #expect(rotated.canvasWidth == 30 && rotated.canvasHeight == 40)
    }

    /// A padded stride (the Raspberry Pi's) is walked by line_length: padding bytes are never
    /// written, and rows do not shear.
    @Test func strideIsRespected() throws {
        let file = ScratchFile(prefill: [UInt8](repeating: 0xAB, count: 32 * 4))
        let display = try openFramebuffer("fb:device=\(file.path),geometry=10x4,format=rgb565,stride=32,size=5x2,scale=2,background=white")
        #expect(display.stride == 32)
        let canvas = distinctCanvas(width: 5, height: 2)
        try display.show(canvas)
        let bytes = file.bytes
        #expect(bytes.count == 128)
        for y in 0..<4 { #expect(bytes[(y * 32 + 20)..<(y * 32 + 32)].allSatisfy { $0 == 0xAB }, "row \(y) padding written") }
        let expected = expectedScreen(canvas: canvas, screenWidth: 10, screenHeight: 4, scale: 2, rotate: 0, originX: 0, originY: 0, background: .white)
        let quantized = expected.map { PixelEncoder(.rgb565).decode(PixelEncoder(.rgb565).encode($0)) }
        #expect(decodeScreen(bytes, width: 10, height: 4, stride: 32, format: .rgb565) == quantized)
    }

    @Test func backgroundFillsTheScreenAtOpenAndOnClear() throws {
        let file = ScratchFile()
        let display = try openFramebuffer("fb:device=\(file.path),geometry=8x6,format=xbgr8888,size=2x2,scale=1,background=#112233")
        #expect(decodeScreen(file.bytes, width: 8, height: 6, stride: 32, format: .xbgr8888).allSatisfy { $0 == Color(rgb: 0x112233) })
        try display.show(distinctCanvas(width: 2, height: 2))
        try display.clear()
        #expect(decodeScreen(file.bytes, width: 8, height: 6, stride: 32, format: .xbgr8888).allSatisfy { $0 == Color(rgb: 0x112233) })
        // After clear, the same frame is drawn again in full.
        try display.show(distinctCanvas(width: 2, height: 2))
        #expect(display.statistics.framesWritten == 2)
    }
}
