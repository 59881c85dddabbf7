import FixedPoint

/// A clip region: what the canvas keeps of later drawing. Nested clips combine by the smaller
/// coverage, so a shape clipped to a rounded container keeps the container's anti-aliased corners
/// and an edge shared by shape and clip is not darkened twice.
public enum Clip: Sendable {
    case rect(FixedRect)
    case roundedRect(FixedRect, cornerRadius: Fixed)

    @inlinable public var bounds: FixedRect {
        switch self {
        case .rect(let r): return r
        case .roundedRect(let r, _): return r
        }
    }

    @inlinable public func coverage(x: Fixed, y: Fixed) -> UInt8 {
        switch self {
        case .rect(let r): return Rectangle(r).coverage(x: x, y: y)
        case .roundedRect(let r, let radius): return RoundedRectangle(r, cornerRadius: radius).coverage(x: x, y: y)
        }
    }
}
