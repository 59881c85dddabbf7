import Raster
import CompactText

/// Reading a display spec's options with errors that name the key and what is accepted.
extension DisplaySpec {
    /// Refuses keys not in `accepted`.
    public func checkKeys(_ accepted: [String]) throws(DisplaySpecError) {
        for option in options where !accepted.contains(option.key) {
            throw DisplaySpecError(spec: description,
                                   message: filled("unknown key '{}'; {} accepts {}", option.key, type, accepted.joined(separator: ", ")))
        }
    }

    /// `key=WxH`, each side 1...4096.
    public func size(_ key: String = "size", default fallback: (width: Int, height: Int)?) throws(DisplaySpecError) -> (width: Int, height: Int) {
        guard let text = self[key] else {
            if let fallback { return fallback }
            throw DisplaySpecError(spec: description, message: filled("missing {}=WxH (e.g. {}=64x32)", key, key))
        }
        guard let (w, h) = parseDimensions(text), (1...Canvas.maximumSide).contains(w), (1...Canvas.maximumSide).contains(h) else {
            throw DisplaySpecError(spec: description, message: filled("{}='{}' is not WxH with sides from 1 to {} (e.g. 64x32)", key, text, String(Canvas.maximumSide)))
        }
        return (w, h)
    }

    /// A whole number in `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int) throws(DisplaySpecError) -> Int {
        guard let text = self[key] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw DisplaySpecError(spec: description, message: filled("{}='{}' must be a whole number from {} to {}", key, text, String(range.lowerBound), String(range.upperBound)))
        }
        return value
    }

    /// A colour (`#RRGGBB` or a name).
    public func color(_ key: String, default fallback: Color) throws(DisplaySpecError) -> Color {
        guard let text = self[key] else { return fallback }
        do { return try Color(parsing: text) } catch {
            throw DisplaySpecError(spec: description, message: filled("{}='{}': {}", key, text, error.description))
        }
    }

    /// Frames per second: `fps=N`, 1...240.
    public func framesPerSecond(default fallback: Int = 30) throws(DisplaySpecError) -> Int {
        try integer("fps", in: 1...240, default: fallback)
    }
}

/// `key`'s place in `names`, nil when it is not there: the displays' option readers switch on
/// the place (for size: a `case "name":` per key is a literal and a comparison of its own).
@inline(never) func keyIndex(_ key: String, _ names: [String]) -> Int? {
    for i in names.indices where names[i] == key { return i }
    return nil
}
