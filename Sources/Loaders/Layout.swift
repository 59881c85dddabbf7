import FixedPoint
import Raster

/// Where a loader draws: its design size (the size the seed article drew it at) fitted into a
/// pixel area, keeping proportions, centred. Loaders think in design units and ask the layout for
/// pixels, so one description serves an 8x8 LED module and a 1920x1080 framebuffer.
///
/// The fitted rectangle is snapped to whole pixels (size and origin), so a loader's outer edges are
/// crisp on a low-resolution display; the horizontal and vertical scales may therefore differ by
/// less than one pixel's worth. Everything inside keeps subpixel precision.
public struct Layout: Sendable {
    /// The fitted area in canvas pixels.
    public let rect: FixedRect
    /// Pixels per design unit, horizontally and vertically.
    public let scaleX: Fixed
    public let scaleY: Fixed
    /// Pixels per design unit for lengths that are the same in both directions (radii).
    public let lengthScale: Fixed

    public init(rect: FixedRect, scaleX: Fixed, scaleY: Fixed, lengthScale: Fixed? = nil) {
        self.rect = rect; self.scaleX = scaleX; self.scaleY = scaleY
        self.lengthScale = lengthScale ?? Swift.min(scaleX, scaleY)
    }

    /// For loaders that may change proportions (bars): the whole width of `area`, and its whole
    /// height where the area is a strip (an LED strip is used top to bottom), otherwise at least the
    /// proportional height and at most half the width, centred. Radii follow the height, so a
    /// capsule stays a capsule.
    public static func stretch(design: DesignSize, into area: PixelRect) -> Layout {
        let fitted = fit(design: design, into: area)
        let w = Swift.max(1, area.width)
        let h = Swift.max(1, Swift.min(area.height, Swift.max(fitted.rect.height.rounded, w / 2)))
        let y = area.y + (area.height - h) / 2
        let dh = Int64(Swift.max(1, design.height))
        return Layout(rect: FixedRect(x: Fixed(area.x), y: Fixed(y), width: Fixed(w), height: Fixed(h)),
                      scaleX: Fixed.ratio(Int64(w), Int64(Swift.max(1, design.width))), scaleY: Fixed.ratio(Int64(h), dh),
                      lengthScale: Fixed.ratio(Int64(h), dh))
    }

    /// Fits `design` (width, height in design units) into `area`, centred, proportions kept.
    public static func fit(design: DesignSize, into area: PixelRect) -> Layout {
        let dw = Int64(design.width), dh = Int64(design.height)
        let aw = Int64(area.width), ah = Int64(area.height)
        // Compare aw/dw with ah/dh without division: the limiting side sets the scale.
        var w: Int64, h: Int64
        if aw * dh <= ah * dw {
            w = aw; h = Swift.max(1, (aw * dh + dw / 2) / dw)
        } else {
            h = ah; w = Swift.max(1, (ah * dw + dh / 2) / dh)
        }
        w = Swift.min(w, aw); h = Swift.min(h, ah)
        let x = Int64(area.x) + (aw - w) / 2, y = Int64(area.y) + (ah - h) / 2
        return Layout(rect: FixedRect(x: Fixed(Int(x)), y: Fixed(Int(y)), width: Fixed(Int(w)), height: Fixed(Int(h))),
                      scaleX: Fixed.ratio(w, dw), scaleY: Fixed.ratio(h, dh))
    }

    /// Canvas x of design x.
    @inlinable public func x(_ designX: Fixed) -> Fixed { rect.x + designX * scaleX }
    /// Canvas y of design y.
    @inlinable public func y(_ designY: Fixed) -> Fixed { rect.y + designY * scaleY }
    /// A design point in canvas pixels.
    @inlinable public func point(_ designX: Fixed, _ designY: Fixed) -> Point { Point(x: x(designX), y: y(designY)) }
    /// A design rectangle in canvas pixels.
    @inlinable public func rect(_ x: Fixed, _ y: Fixed, _ width: Fixed, _ height: Fixed) -> FixedRect {
        FixedRect(x: self.x(x), y: self.y(y), width: width * scaleX, height: height * scaleY)
    }
    /// A length that is the same in both directions (a radius): the smaller scale, so circles stay inside.
    @inlinable public func length(_ designLength: Fixed) -> Fixed { designLength * lengthScale }
}

/// A loader's design size in design units.
public struct DesignSize: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}
