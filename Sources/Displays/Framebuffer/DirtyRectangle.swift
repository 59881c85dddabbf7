import CLinux
import Raster

/// The smallest rectangle holding every pixel that differs between two frames of the same size,
/// or nil when they are equal. Rows are compared with `memcmp`, then the changed rows are
/// scanned from both ends for the first and last differing column. Allocates nothing.
func dirtyRectangle(_ current: UnsafeBufferPointer<Pixel>, _ previous: UnsafeBufferPointer<Pixel>,
                    width: Int, height: Int) -> PixelRect? {
    guard let cur = UnsafeRawPointer(current.baseAddress), let prev = UnsafeRawPointer(previous.baseAddress) else { return nil }
    let rowBytes = width * MemoryLayout<Pixel>.stride
    func rowDiffers(_ y: Int) -> Bool { memcmp(cur + y * rowBytes, prev + y * rowBytes, rowBytes) != 0 }
    var top = 0
    while top < height && !rowDiffers(top) { top += 1 }
    if top == height { return nil }
    var bottom = height - 1
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

extension PixelRect {
    /// The smallest rectangle holding both.
    func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(x, other.x), y0 = Swift.min(y, other.y)
        return PixelRect(x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0, height: Swift.max(maxY, other.maxY) - y0)
    }
}
