/// A premultiplied RGBA8 pixel: each colour channel is already multiplied by alpha, so
/// compositing is a multiply-add per channel with no division.
public struct Pixel: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    @inlinable public static var transparent: Pixel { Pixel(r: 0, g: 0, b: 0, a: 0) }

    /// This pixel scaled by `coverage` / 255 (coverage × opacity of a shape edge).
    @inlinable public func scaled(by coverage: UInt8) -> Pixel {
        if coverage == 255 { return self }
        let c = UInt32(coverage)
        return Pixel(r: UInt8(truncatingIfNeeded: div255(UInt32(r) * c)), g: UInt8(truncatingIfNeeded: div255(UInt32(g) * c)),
                     b: UInt8(truncatingIfNeeded: div255(UInt32(b) * c)), a: UInt8(truncatingIfNeeded: div255(UInt32(a) * c)))
    }

    /// The straight-alpha colour this pixel represents (rounded).
    public var unpremultiplied: Color {
        if a == 0 { return .clear }
        if a == 255 { return Color(r: r, g: g, b: b) }
        func un(_ v: UInt8) -> UInt8 { UInt8(min(255, (UInt32(v) * 255 + UInt32(a) / 2) / UInt32(a))) }
        return Color(r: un(r), g: un(g), b: un(b), a: a)
    }

    /// This pixel composited over an opaque background colour: what a screen shows.
    @inlinable public func over(_ background: Color) -> Color {
        let inv = UInt32(255 - a)
        return Color(r: UInt8(truncatingIfNeeded: UInt32(r) + div255(UInt32(background.r) * inv)),
                     g: UInt8(truncatingIfNeeded: UInt32(g) + div255(UInt32(background.g) * inv)),
                     b: UInt8(truncatingIfNeeded: UInt32(b) + div255(UInt32(background.b) * inv)))
    }
}

/// How a source is combined with what is already on the canvas (premultiplied arithmetic).
public enum BlendMode: Sendable, Hashable, CaseIterable {
    /// Source over destination: D = S + D × (1 − Sa).
    case normal
    /// Screen: D = S + D − S × D per channel; lightens, never darkens (the skeleton shimmer).
    case screen
    /// Plus-lighter: D = min(1, S + D) per channel (the shimmer's additive highlight band).
    case plusLighter

    /// Composites `source` (already scaled by coverage) onto `destination`.
    @inlinable public func blend(_ source: Pixel, onto destination: Pixel) -> Pixel {
        switch self {
        case .normal: return NormalBlend.blend(source, onto: destination)
        case .screen: return ScreenBlend.blend(source, onto: destination)
        case .plusLighter: return PlusLighterBlend.blend(source, onto: destination)
        }
    }
}

/// One blend mode's arithmetic as a type, so that the canvas's pixel loops are compiled once per
/// mode (`Canvas.composite`) instead of switching on the mode for every pixel.
@usableFromInline protocol BlendOperation {
    static func blend(_ source: Pixel, onto destination: Pixel) -> Pixel
    /// `count` pixels from `start`, each blended with the same `source`.
    static func blendRun(_ start: UnsafeMutablePointer<Pixel>, count: Int, source: Pixel)
    /// One edge pixel: `paint` scaled by `coverage`, blended onto the pixel at `destination`.
    static func blend(_ paint: Pixel, scaledBy coverage: UInt8, onto destination: UnsafeMutablePointer<Pixel>)
    /// The same with the paint's lanes (`spreadLanes(paint)`) worked out already.
    static func blend(_ paint: Pixel, lanes: UInt64, scaledBy coverage: UInt8, onto destination: UnsafeMutablePointer<Pixel>)
}

extension BlendOperation {
    @inlinable static func blend(_ paint: Pixel, scaledBy coverage: UInt8, onto destination: UnsafeMutablePointer<Pixel>) {
        destination.pointee = blend(paint.scaled(by: coverage), onto: destination.pointee)
    }
    @inlinable static func blendRun(_ start: UnsafeMutablePointer<Pixel>, count: Int, source: Pixel) {
        for i in 0..<count { start[i] = blend(source, onto: start[i]) }
    }
    @inlinable static func blend(_ paint: Pixel, lanes: UInt64, scaledBy coverage: UInt8, onto destination: UnsafeMutablePointer<Pixel>) {
        blend(paint, scaledBy: coverage, onto: destination)
    }
}

@usableFromInline enum NormalBlend: BlendOperation {
    @inlinable static func blend(_ source: Pixel, onto destination: Pixel) -> Pixel {
        if source.a == 255 { return source }
        let inv = UInt32(255 - source.a)
        return Pixel(r: UInt8(truncatingIfNeeded: UInt32(source.r) + div255(UInt32(destination.r) * inv)),
                     g: UInt8(truncatingIfNeeded: UInt32(source.g) + div255(UInt32(destination.g) * inv)),
                     b: UInt8(truncatingIfNeeded: UInt32(source.b) + div255(UInt32(destination.b) * inv)),
                     a: UInt8(truncatingIfNeeded: UInt32(source.a) + div255(UInt32(destination.a) * inv)))
    }
    @inlinable static func blendRun(_ start: UnsafeMutablePointer<Pixel>, count: Int, source: Pixel) {
        // Opaque: a plain store, whatever was there.
        if source.a == 255 { fillRun(start, count: count, with: source) } else { blendNormalRun(start, count: count, source: source) }
    }
    @inlinable static func blend(_ paint: Pixel, scaledBy coverage: UInt8, onto destination: UnsafeMutablePointer<Pixel>) {
        blendNormalPixel(destination, paint: paint, coverage: coverage)
    }
    @inlinable static func blend(_ paint: Pixel, lanes: UInt64, scaledBy coverage: UInt8, onto destination: UnsafeMutablePointer<Pixel>) {
        blendNormalLanes(destination, paint: lanes, coverage: coverage)
    }
}

@usableFromInline enum ScreenBlend: BlendOperation {
    @inlinable static func blend(_ source: Pixel, onto destination: Pixel) -> Pixel {
        @inline(__always) func s(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: UInt32(x) + UInt32(y) - div255(UInt32(x) * UInt32(y)))
        }
        return Pixel(r: s(source.r, destination.r), g: s(source.g, destination.g), b: s(source.b, destination.b), a: s(source.a, destination.a))
    }
}

@usableFromInline enum PlusLighterBlend: BlendOperation {
    @inlinable static func blend(_ source: Pixel, onto destination: Pixel) -> Pixel {
        @inline(__always) func p(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8(truncatingIfNeeded: Swift.min(255, UInt32(x) + UInt32(y))) }
        return Pixel(r: p(source.r, destination.r), g: p(source.g, destination.g), b: p(source.b, destination.b), a: p(source.a, destination.a))
    }
}
