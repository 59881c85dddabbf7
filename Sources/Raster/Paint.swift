import FixedPoint
import CompactText

/// One colour stop of a gradient: a colour at a location 0...1 along the gradient.
public struct GradientStop: Sendable, Hashable {
    public var location: Fixed
    public var color: Color
    @inlinable public init(_ color: Color, at location: Fixed) { self.color = color; self.location = location }
}

/// A horizontal linear gradient from x = `startX` to x = `endX` (canvas pixels). Colours are
/// interpolated in premultiplied space (so fading to `clear` never darkens), and extend flat
/// beyond both ends, as Core Animation and CSS gradients do.
///
/// Build the stops once (when a loader starts); per frame only move `startX`/`endX`: copying the
/// struct shares the stop storage and allocates nothing.
public struct LinearGradient: Sendable, Equatable {
    public private(set) var stops: [GradientStop]
    /// Premultiplied stop colours, parallel to `stops`.
    @usableFromInline var pixels: [Pixel]
    public var startX: Fixed
    public var endX: Fixed

    /// Stops must be sorted by location; locations are clamped to 0...1. At least one stop.
    public init(stops: [GradientStop], startX: Fixed = .zero, endX: Fixed = .one) {
        precondition(!stops.isEmpty, "a gradient needs at least one stop")
        self.stops = stops.map { GradientStop($0.color, at: $0.location.unitClamped) }
        self.pixels = self.stops.map { $0.color.premultiplied }
        self.startX = startX
        self.endX = endX
    }

    /// Evenly spaced stops, as SwiftUI's `Gradient(colors:)` places them.
    public init(colors: [Color], startX: Fixed = .zero, endX: Fixed = .one) {
        precondition(!colors.isEmpty, "a gradient needs at least one colour")
        let n = colors.count
        self.init(stops: colors.enumerated().map { i, c in GradientStop(c, at: n == 1 ? .zero : Fixed(i, over: n - 1)) },
                  startX: startX, endX: endX)
    }

    /// The premultiplied colour at canvas x (a pixel centre).
    @inlinable public func pixel(atX x: Fixed) -> Pixel {
        let span = endX - startX
        let t: Fixed = span.raw == 0 ? (x < startX ? .zero : .one) : ((x - startX) / span).unitClamped
        return pixel(atFraction: t)
    }

    /// The premultiplied colour at fraction t (0...1) along the gradient.
    @inlinable public func pixel(atFraction t: Fixed) -> Pixel {
        let count = stops.count
        if t <= stops[0].location { return pixels[0] }
        if t >= stops[count - 1].location { return pixels[count - 1] }
        var i = 1
        while i < count - 1 && stops[i].location < t { i += 1 }
        let l0 = stops[i - 1].location, l1 = stops[i].location
        let width = l1 - l0
        let f = width.raw == 0 ? Fixed.one : ((t - l0) / width).unitClamped
        let w = UInt32(f.unitByte)
        let p0 = pixels[i - 1], p1 = pixels[i]
        @inline(__always) func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: div255(UInt32(a) * (255 - w) + UInt32(b) * w))
        }
        return Pixel(r: mix(p0.r, p1.r), g: mix(p0.g, p1.g), b: mix(p0.b, p1.b), a: mix(p0.a, p1.a))
    }
}

/// What a shape or mask is filled with.
public enum Paint: Sendable {
    case solid(Color)
    case linearGradient(LinearGradient)
}
