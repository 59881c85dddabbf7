import Raster

/// A screen's message longer than its line, in the anti-aliased face and the plain style: broken
/// after whole words onto at most three lines (a word longer than a line, such as a path, is
/// broken where the line ends), the last cut with an ellipsis where the rest still does not fit.
/// The message that ends a boot ("Failed to mount /home: …") says what matters in its last words,
/// which one line cut off. Shimmer styles keep one line (the sweep crosses one line), and so do
/// LED matrices (a strip scrolls its line) and the bitmap font (it shrinks a line to fit).
public enum MessageWrap {
    public static let maximumLines = 3

    /// The lines of `text` in `atlas` for a line `width` pixels wide: `[text]` when it fits.
    public static func lines(_ text: String, atlas: GlyphAtlas, width: Int) -> [String] {
        guard width > 0, atlas.width(of: text) > width else { return [text] }
        var lines: [String] = []
        var rest = text
        while lines.count < maximumLines - 1 {
            let (count, ellipsis) = atlas.fit(rest, width: width)
            guard ellipsis, count > 0 else { break }
            let scalars = rest.unicodeScalars
            let cut = scalars.index(scalars.startIndex, offsetBy: count)
            lines.append(String(scalars[..<cut]))
            var next = cut
            while next < scalars.endIndex && (scalars[next] == " " || scalars[next] == "\u{A0}") { next = scalars.index(after: next) }
            rest = String(scalars[next...])
            if rest.isEmpty { return lines }
        }
        lines.append(rest)
        return lines
    }
}

extension Scene {
    /// The lines `message` takes in a message area `width` wide: nil for one line (drawn by
    /// `MessageLine`). Several only in the face and the plain style. Made when the message or
    /// the width changes and kept (`wrapped`), so a frame draws cached lines and allocates nothing.
    mutating func messageLines(_ message: String?, width: Int) -> [String]? {
        guard let message, !message.isEmpty, let face = context.face, options.messageStyle == .plain, width > 0 else { return nil }
        if let w = wrapped, w.width == width, w.message == message { return w.lines.count > 1 ? w.lines : nil }
        let lines = MessageWrap.lines(message, atlas: face, width: width)
        wrapped = (message, width, lines)
        return lines.count > 1 ? lines : nil
    }
}
