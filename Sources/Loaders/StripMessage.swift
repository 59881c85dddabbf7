import FixedPoint
import Raster

/// A message on an LED strip too short for a loader and a message line under it (8 rows: the
/// loader would keep one or two): the two take turns on the whole strip rather than the message
/// never showing. The loader has `loaderTurn`; then the message has its turn, held when it fits
/// and scrolled through once when it does not (a marquee that ends where it began). The turns are
/// worked out from the loader's time, as everything in a frame is.
enum StripMessage {
    /// The loader's turn.
    static let loaderTurn: Microseconds = 3_000_000
    /// A message that fits is held this long.
    static let heldTurn: Microseconds = 2_000_000

    /// The finest bitmap font the strip's rows take (the shimmer's choice): the 5x7 from 9 rows,
    /// its eight-row cut at 8, the 3x5 below; nil when not even the 3x5 fits.
    static func font(height: Int) -> BitmapFont? {
        let large = BitmapFont.large, large8 = BitmapFont.large8, small = BitmapFont.small
        if height >= large.boxHeight { return large }
        if height >= large8.boxHeight { return large8 }
        return height >= small.boxHeight ? small : nil
    }

    /// How long the message's turn is: held, or one pass of the marquee.
    static func turn(of message: String, font: BitmapFont, width: Int) -> Microseconds {
        let full = font.width(of: message, scale: 1)
        if full <= width { return heldTurn }
        let cycle = Int64(full + Marquee.gap(font: font, scale: 1))
        return Marquee.hold + cycle * Time.perSecond / Marquee.speed
    }

    /// Time into the message's turn at `elapsed`, or nil while it is the loader's turn.
    static func messageTime(at elapsed: Microseconds, message: String, font: BitmapFont, width: Int) -> Microseconds? {
        let cycle = loaderTurn + turn(of: message, font: font, width: width)
        var c = elapsed % cycle
        if c < 0 { c += cycle }
        return c < loaderTurn ? nil : c - loaderTurn
    }
}
