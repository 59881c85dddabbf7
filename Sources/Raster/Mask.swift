import FixedPoint

/// An 8-bit coverage image the size of a canvas: draw shapes or text into it, then fill the
/// canvas through it (`Canvas.fill(_:with:)`) to paint a gradient only where the glyphs are.
/// Made once, cleared and redrawn per frame without allocating.
public struct Mask: Sendable {
    public let width: Int
    public let height: Int
    /// Written only through `add` and the subscript, which keep `written`.
    public internal(set) var coverage: [UInt8]
    /// The rectangle holding every byte written since the last `clear()` (empty: none): a line
    /// of text is a few rows of a screen-sized mask, and only they are cleared and filled
    /// through (a 960x540 mask is 518 KB to zero and to scan each frame).
    public internal(set) var written = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.coverage = Array(repeating: 0, count: width * height)
    }

    public mutating func clear() {
        let r = written, w = width
        if r.isEmpty { return }
        coverage.withUnsafeMutableBufferPointer { cov in
            for y in r.y..<r.maxY { (cov.baseAddress! + y * w + r.x).update(repeating: 0, count: r.width) }
        }
        written = PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Adds `shape` to the mask (union: each pixel keeps the larger coverage).
    public mutating func add<S: Shape>(_ shape: S) {
        let area = PixelRect(covering: shape.bounds, within: PixelRect(x: 0, y: 0, width: width, height: height))
        if area.isEmpty { return }
        written = written.union(area)
        for y in area.y..<area.maxY {
            let cy = Fixed(y) + .half
            for x in area.x..<area.maxX {
                let c = shape.coverage(x: Fixed(x) + .half, y: cy)
                if c > coverage[y * width + x] { coverage[y * width + x] = c }
            }
        }
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { coverage[y * width + x] }
        set { coverage[y * width + x] = newValue; written = written.union(PixelRect(x: x, y: y, width: 1, height: 1)) }
    }
}
