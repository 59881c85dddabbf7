import FixedPoint

/// A point in canvas pixel coordinates: (0, 0) is the top-left corner of the top-left pixel,
/// whose centre is (0.5, 0.5).
public struct Point: Sendable, Hashable {
    public var x: Fixed
    public var y: Fixed
    @inlinable public init(x: Fixed, y: Fixed) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in canvas pixel coordinates (subpixel precision).
public struct FixedRect: Sendable, Hashable {
    public var x: Fixed
    public var y: Fixed
    public var width: Fixed
    public var height: Fixed

    @inlinable public init(x: Fixed, y: Fixed, width: Fixed, height: Fixed) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    @inlinable @inline(__always) public var maxX: Fixed { x + width }
    @inlinable @inline(__always) public var maxY: Fixed { y + height }
    @inlinable @inline(__always) public var midX: Fixed { x + width / 2 }
    @inlinable @inline(__always) public var midY: Fixed { y + height / 2 }
    @inlinable @inline(__always) public var isEmpty: Bool { width.raw <= 0 || height.raw <= 0 }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom.
    @inlinable public func insetBy(dx: Fixed, dy: Fixed) -> FixedRect {
        FixedRect(x: x + dx, y: y + dy, width: width - dx * 2, height: height - dy * 2)
    }

    @inlinable public func intersection(_ other: FixedRect) -> FixedRect {
        let x0 = Swift.max(x, other.x), y0 = Swift.max(y, other.y)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        return FixedRect(x: x0, y: y0, width: Swift.max(.zero, x1 - x0), height: Swift.max(.zero, y1 - y0))
    }
}

/// An integer pixel rectangle: columns x ..< x + width, rows y ..< y + height.
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    @inlinable public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }
    @inlinable public var maxX: Int { x + width }
    @inlinable public var maxY: Int { y + height }

    /// The pixels in both rectangles (empty when they do not meet).
    @inlinable public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = Swift.max(x, other.x), y0 = Swift.max(y, other.y)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }

    /// The smallest rectangle holding both (an empty one holds nothing).
    @inlinable public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(x, other.x), y0 = Swift.min(y, other.y)
        return PixelRect(x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0, height: Swift.max(maxY, other.maxY) - y0)
    }

    /// The pixels a subpixel rectangle touches, clipped to `limit`.
    @inlinable public init(covering r: FixedRect, within limit: PixelRect) {
        let x0 = Swift.max(limit.x, r.x.floor), y0 = Swift.max(limit.y, r.y.floor)
        let x1 = Swift.min(limit.maxX, r.maxX.ceil), y1 = Swift.min(limit.maxY, r.maxY.ceil)
        self.init(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }
}
