import CGIF
import Glibc
import Testing

@testable import ImageCodecs
import Raster

// MARK: Helpers

/// A fresh directory under /tmp, removed (with its files) by `remove()`.
struct TempDir {
    let path: String
    init() {
        var template = Array("/tmp/loaderd-codecs-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: made!)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func remove(_ names: String...) {
        for name in names { unlink(file(name)) }
        rmdir(path)
    }
}

/// A deterministic image whose pixels differ (more than 256 colours when large enough).
func gradient(width: Int, height: Int, seed: UInt32 = 1) -> RGBImage {
    var bytes: [UInt8] = []
    var state = seed
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes.append(UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1)))
            bytes.append(UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1)))
            bytes.append(UInt8(truncatingIfNeeded: state >> 24))
        }
    }
    return RGBImage(width: width, height: height, bytes: bytes)
}

/// Bytes of `path`, read with plain POSIX calls (independent of the code under test).
func fileBytes(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
        return true
    }
    return false
}

// MARK: RGBImage

@Test func canvasCompositesOverBackground() {
    var canvas = Canvas(width: 3, height: 1)
    canvas[0, 0] = Color(r: 255, g: 0, b: 0).premultiplied
    canvas[1, 0] = Color(r: 0, g: 0, b: 255, a: 128).premultiplied
    // canvas[2, 0] stays transparent.
    let image = RGBImage(canvas: canvas, background: Color(r: 255, g: 255, b: 255))
    #expect(image.width == 3 && image.height == 1)
    #expect(image[0, 0] == Color(r: 255, g: 0, b: 0))
    #expect(image[1, 0] == canvas[1, 0].over(Color(r: 255, g: 255, b: 255)))
    #expect(image[1, 0] == Color(r: 127, g: 127, b: 255))
    #expect(image[2, 0] == Color(r: 255, g: 255, b: 255))
}

// MARK: PPM

@Test func ppmHeaderBytesAreExact() {
    let image = RGBImage(width: 2, height: 1, bytes: [1, 2, 3, 250, 251, 252])
    let encoded = PPM.encode(image)
    #expect(encoded == Array("P6\n2 1\n255\n".utf8) + [1, 2, 3, 250, 251, 252])
}

@Test func ppmRoundTrip() throws {
    let image = gradient(width: 13, height: 7)
    #expect(try PPM.decode(PPM.encode(image)) == image)

    let dir = TempDir()
    defer { dir.remove("a.ppm") }
    try ImageFile.write(image, to: dir.file("a.ppm"))
    #expect(fileBytes(dir.file("a.ppm")) == PPM.encode(image))
    #expect(try ImageFile.read(path: dir.file("a.ppm")) == image)
}

@Test func ppmDecodesCommentsAndSmallMaxval() throws {
    let bytes = Array("P6 # comment\n1\t1 # more\n15\n".utf8) + [15, 0, 7]
    let image = try PPM.decode(bytes)
    #expect(image[0, 0] == Color(r: 255, g: 0, b: 119))
}

@Test func ppmRejectsBadInput() {
    #expect(throws: ImageCodecError.self) { try PPM.decode(Array("P3\n1 1\n255\n".utf8)) }
    #expect(throws: ImageCodecError.self) { try PPM.decode(Array("P6\n2 2\n255\n".utf8) + [0, 0, 0]) }
    #expect(throws: ImageCodecError.self) { try PPM.decode(Array("P6\n1 1\n65535\n".utf8) + [0, 0, 0, 0, 0, 0]) }
    do {
        _ = try PPM.decode(Array("P6\n2 2\n255\n".utf8) + [0, 0, 0])
    } catch {
        #expect(error.description == "cannot decode PPM data: truncated pixel data (expected 12 bytes, found 3)")
    }
}

// MARK: PNG

@Test func pngRoundTrip() throws {
    let image = gradient(width: 31, height: 17)
    let encoded = try PNG.encode(image)
    #expect(Array(encoded.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(try PNG.decode(encoded) == image)
}

@Test func pngRoundTripIncompressibleAndTiny() throws {
    // Random bytes do not compress, which exercises the output-size guess; 1x1 is the edge.
    var noise = [UInt8](repeating: 0, count: 200 * 150 * 3)
    var state: UInt32 = 7
    for i in noise.indices { state = state &* 1_103_515_245 &+ 12345; noise[i] = UInt8(truncatingIfNeeded: state >> 16) }
    let big = RGBImage(width: 200, height: 150, bytes: noise)
    #expect(try PNG.decode(PNG.encode(big)) == big)
    let tiny = RGBImage(width: 1, height: 1, bytes: [9, 8, 7])
    #expect(try PNG.decode(PNG.encode(tiny)) == tiny)
}

@Test func pngFileRoundTrip() throws {
    let image = gradient(width: 9, height: 4, seed: 3)
    let dir = TempDir()
    defer { dir.remove("a.png") }
    try ImageFile.write(image, to: dir.file("a.png"))
    #expect(try PNG.read(path: dir.file("a.png")) == image)
    #expect(try ImageFile.read(path: dir.file("a.png")) == image)
}

@Test func pngDecodeRefusesWhatIsNotPNG() {
    do {
        _ = try PNG.decode([1, 2, 3, 4, 5, 6, 7, 8, 9])
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot decode PNG data: not a PNG file (it does not start with the PNG signature)")
    }
}

@Test func pngDecodeRefusesMorePixelsThanAllowed() throws {
    let image = RGBImage(width: 40, height: 30, fill: .white)
    let encoded = try PNG.encode(image)
    #expect(try PNG.decode(encoded, maxPixels: 1200) == image)
    do {
        _ = try PNG.decode(encoded, maxPixels: 1199)
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot decode PNG data: the image is 40x30 pixels, more than the 1199 accepted")
    }
}

@Test func pngReadRefusesALongerFileThanAllowed() throws {
    let dir = TempDir()
    defer { dir.remove("a.png") }
    let encoded = try PNG.encode(RGBImage(width: 4, height: 4, fill: .white))
    try PNG.write(RGBImage(width: 4, height: 4, fill: .white), to: dir.file("a.png"))
    #expect(try PNG.read(path: dir.file("a.png"), maxBytes: encoded.count).width == 4)
    do {
        _ = try PNG.read(path: dir.file("a.png"), maxBytes: encoded.count - 1)
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot read \(dir.file("a.png")): the file is larger than \(encoded.count - 1) bytes")
    }
}

@Test func pngDecodeErrorCarriesLibpngMessage() {
    do {
        // The signature, then a broken IHDR chunk: libpng's own words.
        _ = try PNG.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        Issue.record("expected an error")
    } catch {
        #expect(error.operation == .decode)
        #expect(error.description.hasPrefix("cannot decode PNG data: libpng: "))
    }
}

// MARK: GIF

/// Three 8x6 frames using four colours: a 2x2 square moving over a dark background.
func threeFrames() -> [GIFFrame] {
    let background = Color(rgb: 0x101820)
    let colors = [Color.blue, Color.pink, Color.green]
    return (0..<3).map { k in
        var image = RGBImage(width: 8, height: 6, fill: background)
        for y in 2..<4 { for x in (2 * k)..<(2 * k + 2) { image[x, y] = colors[k] } }
        image[7, 5] = Color.white
        return GIFFrame(image, delay: UInt16(3 + k))
    }
}

@Test func gifAnimationWithExactPalette() throws {
    let frames = threeFrames()
    let dir = TempDir()
    defer { dir.remove("a.gif") }
    let path = dir.file("a.gif")
    try GIF.write(frames, to: path)

    let bytes = fileBytes(path)
    #expect(Array(bytes.prefix(6)) == Array("GIF89a".utf8))
    // Application extension: 21 FF 0B "NETSCAPE2.0" 03 01 <loop count 0, LE> 00.
    #expect(contains(bytes, [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]))
    #expect(bytes.last == 0x3B)

    // Decode with giflib directly.
    var error: Int32 = 0
    let gif = try #require(DGifOpenFileName(path, &error))
    defer { var closeError: Int32 = 0; _ = DGifCloseFile(gif, &closeError) }
    #expect(DGifSlurp(gif) == GIF_OK)
    #expect(gif.pointee.SWidth == 8 && gif.pointee.SHeight == 6)
    #expect(gif.pointee.ImageCount == 3)
    let global = try #require(gif.pointee.SColorMap)
    for i in 0..<3 {
        var gcb = GraphicsControlBlock()
        #expect(DGifSavedExtensionToGCB(gif, Int32(i), &gcb) == GIF_OK)
        #expect(gcb.DelayTime == Int32(frames[i].delay))
        #expect(gcb.TransparentColor == NO_TRANSPARENT_COLOR)
        let saved = gif.pointee.SavedImages[i]
        #expect(saved.ImageDesc.ColorMap == nil)  // all frames share the exact global palette
        #expect(saved.ImageDesc.Width == 8 && saved.ImageDesc.Height == 6)
        let raster = try #require(saved.RasterBits)
        for y in 0..<6 {
            for x in 0..<8 {
                let entry = global.pointee.Colors[Int(raster[y * 8 + x])]
                #expect(Color(r: entry.Red, g: entry.Green, b: entry.Blue) == frames[i].image[x, y], "frame \(i) (\(x), \(y))")
            }
        }
    }

    // And with our own decoder.
    #expect(try GIF.read(path: path) == frames)
    #expect(try ImageFile.read(path: path) == frames[0].image)
}

@Test func gifUsesExactLocalPalettesWhenTheUnionIsTooLarge() throws {
    // Each frame has 200 colours, together 400: local palettes, still lossless.
    func frame(_ base: Int) -> RGBImage {
        var image = RGBImage(width: 20, height: 10, fill: .black)
        for i in 0..<200 { image[i % 20, i / 20] = Color(r: UInt8(base + i / 2), g: UInt8(i), b: UInt8(base)) }
        return image
    }
    let frames = [GIFFrame(frame(0), delay: 2), GIFFrame(frame(50), delay: 2)]
    let decoded = try GIF.decode(GIF.encode(frames))
    #expect(decoded == frames)
}

@Test func gifQuantizesFramesWithManyColours() throws {
    // 64x64 smooth gradient: 4096 colours, so GifQuantizeBuffer picks 256.
    var image = RGBImage(width: 64, height: 64, fill: .black)
    for y in 0..<64 { for x in 0..<64 { image[x, y] = Color(r: UInt8(x * 4), g: UInt8(y * 4), b: 128) } }
    image[0, 0] = .white
    let decoded = try GIF.decode(GIF.encode([GIFFrame(image, delay: 5)]))
    #expect(decoded.count == 1 && decoded[0].delay == 5)
    var worst = 0
    for y in 0..<64 {
        for x in 0..<64 {
            let a = image[x, y], b = decoded[0].image[x, y]
            worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
        }
    }
    #expect(worst <= 12, "worst channel error \(worst)")
    #expect(decoded[0].image[0, 0] == .white)  // refined palette: no #F8F8F8
}

@Test func gifDelaysForFPS() {
    #expect(GIF.delays(frameCount: 6, fps: 30) == [3, 4, 3, 3, 4, 3])
    #expect(GIF.delays(frameCount: 3, fps: 50) == [2, 2, 2])
    #expect(GIF.delays(frameCount: 2, fps: 1) == [100, 100])
    #expect(GIF.delays(frameCount: 60, fps: 30).reduce(0) { $0 + Int($1) } == 200)
}

@Test func gifRejectsMismatchedFrames() {
    let frames = [GIFFrame(RGBImage(width: 2, height: 2, fill: .black), delay: 2),
                  GIFFrame(RGBImage(width: 3, height: 2, fill: .black), delay: 2)]
    do {
        _ = try GIF.encode(frames)
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot encode GIF data: frame 1 is 3x2, frame 0 is 2x2")
    }
    #expect(throws: ImageCodecError.self) { try GIF.encode([]) }
    #expect(throws: ImageCodecError.self) { try GIF.decode(Array("GIF89a".utf8)) }
}

// MARK: Formats and errors

@Test func formatFromExtension() throws {
    #expect(try ImageFormat(path: "out/a.ppm") == .ppm)
    #expect(try ImageFormat(path: "/x/y.PNG") == .png)
    #expect(try ImageFormat(path: "spin.gif") == .gif)
}

@Test func unknownExtensionNamesPathAndAcceptedExtensions() {
    do {
        _ = try ImageFormat(path: "/tmp/frame.bmp")
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot choose an image format for /tmp/frame.bmp: unknown extension '.bmp' (expected one of .ppm, .png, .gif)")
    }
    do {
        _ = try ImageFormat(path: "/tmp.d/frame")
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot choose an image format for /tmp.d/frame: no file extension (expected one of .ppm, .png, .gif)")
    }
    #expect(throws: ImageCodecError.self) { try ImageFile.write(RGBImage(width: 1, height: 1, fill: .black), to: "a.jpg") }
}

/// A caller that takes fewer formats (the image display: no GIF) is offered only those.
@Test func theExpectedFormatsAreTheOnesListed() throws {
    #expect(throws: ImageCodecError(.chooseFormat, path: "/tmp/r1.bmp", reason: "unknown extension '.bmp' (expected .ppm or .png)")) {
        try ImageFormat(path: "/tmp/r1.bmp", expected: [.ppm, .png])
    }
    #expect(throws: ImageCodecError(.chooseFormat, path: "r1", reason: "no file extension (expected .ppm or .png)")) {
        try ImageFormat(path: "r1", expected: [.ppm, .png])
    }
    // A known format outside them is the caller's to refuse, with its reason.
    #expect(try ImageFormat(path: "r1.gif", expected: [.ppm, .png]) == .gif)
}

@Test(arguments: ["ppm", "png", "gif"])
func writingIntoAMissingDirectoryNamesThePath(ext: String) {
    let path = "/nonexistent-loaderd-dir/frame." + ext
    do {
        try ImageFile.write(RGBImage(width: 2, height: 2, fill: .blue), to: path)
        Issue.record("expected an error")
    } catch {
        #expect(error.operation == .write)
        #expect(error.path == path)
        #expect(error.description == "cannot write \(path): No such file or directory")
    }
}

@Test func readingAMissingFileNamesThePath() {
    do {
        _ = try ImageFile.read(path: "/nonexistent-loaderd-dir/frame.png")
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot read /nonexistent-loaderd-dir/frame.png: No such file or directory")
    }
}
