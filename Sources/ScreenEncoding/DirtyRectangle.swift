import CLinux
import Raster

/// The smallest rectangle holding every pixel that differs between two frames of the same size,
/// or nil when they are equal. Rows are compared with `memcmp`, then the changed rows are
/// scanned from both ends for the first and last differing column. Only `rows` are compared
/// (every row when nil): the caller knows the others to be equal. Allocates nothing.
public func dirtyRectangle(_ current: UnsafeBufferPointer<Pixel>, _ previous: UnsafeBufferPointer<Pixel>,
                           width: Int, height: Int, rows: Range<Int>? = nil) -> PixelRect? {
    guard let cur = UnsafeRawPointer(current.baseAddress), let prev = UnsafeRawPointer(previous.baseAddress) else { return nil }
    let rows = (rows ?? 0..<height).clamped(to: 0..<height)
    let rowBytes = width * MemoryLayout<Pixel>.stride
    func rowDiffers(_ y: Int) -> Bool { memcmp(cur + y * rowBytes, prev + y * rowBytes, rowBytes) != 0 }
    var top = rows.lowerBound
    while top < rows.upperBound && !rowDiffers(top) { top += 1 }
    if top == rows.upperBound { return nil }
    var bottom = rows.upperBound - 1
    while bottom > top && !rowDiffers(bottom) { bottom -= 1 }

    @inline(__always) func word(_ p: UnsafeRawPointer, _ i: Int) -> UInt32 { p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self) }
    var left = width, right = -1
    for y in top...bottom {
        let base = y * width
        var x = 0
        while x < left && word(cur, base + x) == word(prev, base + x) { x += 1 }
        if x == width { continue }  // this row is unchanged
        left = min(left, x)
        var r = width - 1
        while r > right && word(cur, base + r) == word(prev, base + r) { r -= 1 }
        right = max(right, r)
    }
    return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
}

/// The rows two frames can differ in: those either frame drew in (`Canvas.drawnRows`; every
/// other row is transparent in both), or every row when either frame's are not known.
public func rowsToCompare(_ now: Range<Int>?, _ before: Range<Int>?, height: Int) -> Range<Int> {
    guard let now, let before else { return 0..<height }
    if now.isEmpty { return before }
    if before.isEmpty { return now }
    return Swift.min(now.lowerBound, before.lowerBound)..<Swift.max(now.upperBound, before.upperBound)
}

/// The frame a display showed last (its canvas), kept to find what the next one changes.
public final class ShownFrame {
    private let pixels: UnsafeMutableBufferPointer<Pixel>
    private let width: Int, height: Int
    /// Whether `pixels` is what the screen shows (not before the first frame).
    private var known = false
    /// The rows it drew in (`Canvas.drawnRows`; nil: not known).
    private var drawnRows: Range<Int>? = nil

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        pixels.setTransparent()
    }

    deinit { pixels.deallocate() }

    /// What `current` (drawn in `drawnRows`) changes on the screen: all of it the first time,
    /// then `dirtyRectangle` over the rows either frame drew in (nil: nothing). `current` is
    /// then the frame shown, kept by copying the changed rectangle's rows: outside it the two
    /// are equal already, so the rest of a frame (2 MB at the 960x540 canvas of a 1080p screen)
    /// is neither compared nor copied, a Pi Zero's memory bandwidth otherwise spent twice a frame.
    public func changes(to current: UnsafeBufferPointer<Pixel>, drawnRows now: Range<Int>?) -> PixelRect? {
        defer { known = true; drawnRows = now }
        guard known else {
            // As bytes: the element-wise update copied a pixel at a time.
            UnsafeMutableRawBufferPointer(pixels).copyMemory(from: UnsafeRawBufferPointer(current))
            return PixelRect(x: 0, y: 0, width: width, height: height)
        }
        guard let dirty = dirtyRectangle(current, UnsafeBufferPointer(pixels), width: width, height: height,
                                         rows: rowsToCompare(now, drawnRows, height: height)),
              let from = current.baseAddress, let to = pixels.baseAddress else { return nil }
        for y in dirty.y..<dirty.maxY {
            (to + y * width + dirty.x).update(from: from + y * width + dirty.x, count: dirty.width)
        }
        return dirty
    }

    /// The screen now shows a transparent canvas.
    public func setTransparent() {
        pixels.setTransparent()
        known = true
        drawnRows = 0..<0
    }
}
