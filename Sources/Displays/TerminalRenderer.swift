import Raster
import CompactText

/// Renders a canvas as ANSI 24-bit colour text: each character cell is an upper half block
/// `▀` whose foreground is the upper pixel and whose background is the lower pixel, so one
/// text row shows two pixel rows. Pixels are composited over an opaque background colour; an
/// odd last pixel row is paired with the background.
///
/// Output format (what `frame` returns): per text row, SGR sequences only where the colour
/// changes along the row (`ESC[38;2;R;G;B;48;2;R;G;Bm` when both change, `ESC[38;2;R;G;Bm` or
/// `ESC[48;2;R;G;Bm` when one does), one `▀` per pixel column, then `ESC[0m` and `\n`. Every
/// row ends with a newline, so `cursorUp(rows(forHeight:))` followed by `\r` returns to the
/// frame's first line; or use `cursorHome` for full-screen redraws. `\n` relies on the
/// terminal's usual output processing (onlcr); in raw mode write `\r\n` yourself.
///
/// A renderer instance keeps its output buffer between frames, so once it has grown to a
/// frame's size, rendering with `withFrame` allocates nothing.
public struct TerminalRenderer: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    // MARK: Control sequences

    /// Moves the cursor to the top-left cell.
    public static let cursorHome = "\u{1B}[H"
    /// Hides the cursor (pair with `showCursor` on exit, including on signals).
    public static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    public static let showCursor = "\u{1B}[?25h"
    /// Clears the whole screen (the cursor does not move; follow with `cursorHome`).
    public static let clearScreen = "\u{1B}[2J"
    /// Resets colours and attributes.
    public static let resetAttributes = "\u{1B}[0m"
    /// What to write once when a live preview ends: reset colours and show the cursor.
    public static let restore = resetAttributes + showCursor

    /// Moves the cursor up `lines` rows (nothing for 0).
    public static func cursorUp(_ lines: Int) -> String {
        lines > 0 ? "\u{1B}[\(lines)A" : ""
    }

    /// Text rows a canvas of `height` pixel rows occupies.
    public static func rows(forHeight height: Int) -> Int { (height + 1) / 2 }

    // MARK: Frames

    /// The ANSI text for `canvas` over `background` (see the type's comment for the format).
    public static func frame(_ canvas: Canvas, background: Color) -> String {
        var renderer = TerminalRenderer()
        return renderer.render(canvas, background: background)
    }

    /// Same as `frame`, reusing this renderer's buffer.
    public mutating func render(_ canvas: Canvas, background: Color) -> String {
        withFrame(canvas, background: background) { String(decoding: $0, as: UTF8.self) }
    }

    /// Renders into the reused buffer and passes its UTF-8 bytes to `body` (e.g. to `write(2)`
    /// them); the bytes are valid only during the call.
    public mutating func withFrame<R, E: Error>(_ canvas: Canvas, background: Color,
                                                _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let width = canvas.width, height = canvas.height
        let rows = TerminalRenderer.rows(forHeight: height)
        buffer.removeAll(keepingCapacity: true)
        // Worst case per cell: both colours set (≤ 40 bytes) + 3 bytes of '▀'; 5 per row end.
        buffer.reserveCapacity(width * rows * 43 + rows * 5)
        let floor = Color(r: background.r, g: background.g, b: background.b)
        canvas.pixels.withUnsafeBufferPointer { pixels in
            var y = 0
            while y < height {
                var fg: Color? = nil
                var bg: Color? = nil
                for x in 0..<width {
                    let top = pixels[y * width + x].over(floor)
                    let bottom = y + 1 < height ? pixels[(y + 1) * width + x].over(floor) : floor
                    let newFG = top != fg, newBG = bottom != bg
                    if newFG || newBG {
                        buffer.append(0x1B); buffer.append(UInt8(ascii: "["))
                        if newFG { appendColor(38, top) }
                        if newFG && newBG { buffer.append(UInt8(ascii: ";")) }
                        if newBG { appendColor(48, bottom) }
                        buffer.append(UInt8(ascii: "m"))
                        fg = top; bg = bottom
                    }
                    buffer.append(0xE2); buffer.append(0x96); buffer.append(0x80)  // U+2580 UPPER HALF BLOCK
                }
                buffer.append(0x1B); buffer.append(UInt8(ascii: "[")); buffer.append(UInt8(ascii: "0"))
                buffer.append(UInt8(ascii: "m")); buffer.append(0x0A)
                y += 2
            }
        }
        // Array.withUnsafeBytes rethrows untyped; the pointer is lent for the call only.
        let result: Result<R, E> = buffer.withUnsafeBytes { bytes in
            do throws(E) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `38;2;R;G;B` (or `48;…`).
    private mutating func appendColor(_ selector: UInt8, _ c: Color) {
        appendDecimal(selector)
        buffer.append(UInt8(ascii: ";")); buffer.append(UInt8(ascii: "2"))
        buffer.append(UInt8(ascii: ";")); appendDecimal(c.r)
        buffer.append(UInt8(ascii: ";")); appendDecimal(c.g)
        buffer.append(UInt8(ascii: ";")); appendDecimal(c.b)
    }

    private mutating func appendDecimal(_ v: UInt8) {
        if v >= 100 { buffer.append(UInt8(ascii: "0") + v / 100) }
        if v >= 10 { buffer.append(UInt8(ascii: "0") + (v / 10) % 10) }
        buffer.append(UInt8(ascii: "0") + v % 10)
    }
}
