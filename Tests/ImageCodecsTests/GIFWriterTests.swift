import CGIF
import Glibc
import Testing

@testable import ImageCodecs
import Raster

// GIFWriter: an animation written frame by frame, as `loaderctl render` draws it, so that memory
// never holds the whole animation (a 20 s 1920x1080 GIF was 4 GB resident).

/// The file's size on disk now (while the writer still has it open).
private func sizeOnDisk(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : -1
}

@Test func gifWriterWritesEachFrameToTheFileAsItIsAdded() throws {
    // Noise compresses to about its own size: 256x256 indices are ~64 KiB a frame.
    func noise(_ seed: UInt32) -> RGBImage {
        var image = RGBImage(width: 256, height: 256, fill: .black)
        var state = seed
        for i in 0..<(256 * 256) {
            state = state &* 1_103_515_245 &+ 12345
            let v = UInt8(truncatingIfNeeded: state >> 16) & 0x3F  // 64 greys: an exact palette
            image.bytes[3 * i] = v; image.bytes[3 * i + 1] = v; image.bytes[3 * i + 2] = v
        }
        return image
    }
    let dir = TempDir()
    defer { dir.remove("s.gif") }
    let path = dir.file("s.gif")
    let writer = try GIFWriter(path: path)
    var frames: [GIFFrame] = []
    var sizes: [Int] = []
    for k in 0..<8 {
        frames.append(GIFFrame(noise(UInt32(k + 1)), delay: 4))
        try writer.add(frames[k])
        sizes.append(sizeOnDisk(path))
    }
    // The bytes leave as the frames come (64 KiB at a time): after eight frames of ~50 KiB
    // compressed most are on disk, not held until the end.
    #expect(sizes[7] >= 3 * 65536, "on disk after each frame: \(sizes)")
    #expect(sizes == sizes.sorted())
    try writer.finish()
    #expect(try GIF.read(path: path) == frames)
}

@Test func gifWriterSharesTheFirstFramesPaletteAndGivesOthersTheirOwn() throws {
    let background = Color(rgb: 0x101820)
    func frame(_ colour: Color, _ x: Int) -> RGBImage {
        var image = RGBImage(width: 8, height: 6, fill: background)
        image[x, 2] = colour
        return image
    }
    let many = gradient(width: 32, height: 32)  // more than 256 colours: quantized
    let frames = [GIFFrame(frame(.blue, 1), delay: 3), GIFFrame(frame(.blue, 5), delay: 3),
                  GIFFrame(frame(.pink, 2), delay: 3), GIFFrame(RGBImage(width: 8, height: 6, fill: background), delay: 3)]
    let dir = TempDir()
    defer { dir.remove("p.gif", "q.gif") }
    let path = dir.file("p.gif")
    let writer = try GIFWriter(path: path)
    for f in frames { try writer.add(f) }
    try writer.finish()

    var error: Int32 = 0
    let gif = try #require(DGifOpenFileName(path, &error))
    defer { var closeError: Int32 = 0; _ = DGifCloseFile(gif, &closeError) }
    #expect(DGifSlurp(gif) == GIF_OK)
    #expect(gif.pointee.SColorMap != nil)
    // Frames drawn in the first frame's colours use the global palette; pink is not in it.
    let hasLocal = (0..<4).map { gif.pointee.SavedImages[$0].ImageDesc.ColorMap != nil }
    #expect(hasLocal == [false, false, true, false])
    #expect(try GIF.read(path: path) == frames)  // exact, every frame

    // A first frame of more than 256 colours: no global palette, every frame its own.
    let other = dir.file("q.gif")
    let second = try GIFWriter(path: other)
    try second.add(GIFFrame(many, delay: 2))
    try second.add(GIFFrame(gradient(width: 32, height: 32, seed: 9), delay: 2))
    #expect(throws: ImageCodecError.self) { try second.add(GIFFrame(RGBImage(width: 8, height: 6, fill: .black), delay: 2)) }
    try second.finish()
    #expect(try GIF.read(path: other).count == 2)
    let q = try #require(DGifOpenFileName(other, &error))
    defer { var closeError: Int32 = 0; _ = DGifCloseFile(q, &closeError) }
    #expect(DGifSlurp(q) == GIF_OK)
    #expect(q.pointee.SColorMap == nil)
    #expect(q.pointee.SavedImages[0].ImageDesc.ColorMap != nil && q.pointee.SavedImages[1].ImageDesc.ColorMap != nil)
}

@Test func gifWriterNamesAnUnwritableFileBeforeAnyFrame() {
    do {
        _ = try GIFWriter(path: "/nonexistent-dir/x.gif")
        Issue.record("expected an error")
    } catch {
        #expect(error.description == "cannot write /nonexistent-dir/x.gif: No such file or directory")
    }
}
