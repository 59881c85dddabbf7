/// Fitting one line of bitmap text into a width: by words, with an ellipsis where it is cut.
extension BitmapFont {
    /// Width at scale 1 of the first `count` scalars of a string, plus the ellipsis if asked.
    public func width(count: Int, ellipsis: Bool) -> Int {
        let n = count + (ellipsis ? 1 : 0)
        return n == 0 ? 0 : n * advance - (advance - cellWidth)
    }

    /// How much of `text` to draw in `width` pixels at `scale`: everything if it fits; else the
    /// most whole words that fit with an ellipsis after them; else (a first word longer than the
    /// line) as many letters as fit, then the ellipsis. Allocates nothing.
    public func fit(_ text: String, width: Int, scale: Int = 1) -> (count: Int, ellipsis: Bool) {
        let s = Swift.max(1, scale)
        let available = width / s
        var total = 0
        for _ in text.unicodeScalars { total += 1 }
        if self.width(count: total, ellipsis: false) <= available { return (total, false) }
        // Scalars that fit with the ellipsis after them: n · advance − gap + advance ≤ available.
        let gap = advance - cellWidth
        let letters = Swift.max(0, (available + gap) / advance - 1)
        var best = 0, index = 0
        var previousWasSpace = true
        for scalar in text.unicodeScalars {
            if index > letters { break }
            let isSpace = scalar == " " || scalar == "\u{A0}"
            // A word ends before this space: cutting here keeps it whole.
            if isSpace && !previousWasSpace { best = index }
            previousWasSpace = isSpace
            index += 1
        }
        return (best > 0 ? best : letters, true)
    }
}
