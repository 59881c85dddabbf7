import FixedPoint
import Raster

/// Drawing helpers for the monochrome designs (`DrawContext.monochrome`): on/off LEDs show
/// outlines where a colour display shows a dim track.
enum Monochrome {
    /// `outer` lit with `inner` unlit inside it: a one-pixel outline of a shape. The inside is
    /// painted opaque black, so whatever was lit there goes out.
    static func outline(_ outer: RoundedRectangle, inner: RoundedRectangle, into canvas: inout Canvas) {
        canvas.fill(outer, with: .solid(.white))
        if inner.bounds.width.raw > 0 && inner.bounds.height.raw > 0 {
            canvas.fill(RoundedRectangle.capsule(inner.bounds), with: .solid(.black))
        }
    }
}
