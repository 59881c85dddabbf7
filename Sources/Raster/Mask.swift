import FixedPoint

/// An 8-bit coverage image the size of a canvas: draw shapes or text into it, then fill the
/// canvas through it (`Canvas.fill(_:with:)`) to paint a gradient only where the glyphs are.
/// Made once, cleared and redrawn per frame without allocating.
public struct Mask: Sendable {
    public let width: Int
    public let height: Int
    public var coverage: [UInt8]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.coverage = Array(repeating: 0, count: width * height)
    }

    public mutating func clear() { coverage.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }

    /// Adds `shape` to the mask (union: each pixel keeps the larger coverage).
    @inlinable public mutating func add<S: Shape>(_ shape: S) {
        let area = PixelRect(covering: shape.bounds, within: PixelRect(x: 0, y: 0, width: width, height: height))
        if area.isEmpty { return }
        for y in area.y..<area.maxY {
            let cy = Fixed(y) + .half
            for x in area.x..<area.maxX {
                let c = shape.coverage(x: Fixed(x) + .half, y: cy)
                if c > coverage[y * width + x] { coverage[y * width + x] = c }
            }
        }
    }

    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        get { coverage[y * width + x] }
        set { coverage[y * width + x] = newValue }
    }
}
