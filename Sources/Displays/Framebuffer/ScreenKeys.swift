import Raster
import CompactText
import ScreenEncoding

/// The keys `fb:` and `drm:` both take, read by one function for both: where the picture sits on
/// the screen (`scale`, `anchor`, `x`, `y`, `rotate`; the same `Placement` resolves them for
/// both), what surrounds it (`background`), the kernel console (`console`) and the frame rate
/// (`fps`). One reader, so the two displays accept the same values with the same messages, and
/// the code is in the binary once.
struct ScreenKeys: Sendable {
    var scale: Int?
    var anchor = Anchor.center
    var offsetX = 0
    var offsetY = 0
    var rotation = Rotation.none
    var background = Color.black
    var console = FramebufferOptions.ConsolePolicy.graphics
    var framesPerSecond = 30

    /// The keys, in the order `read` switches on.
    static let names = ["scale", "anchor", "x", "y", "rotate", "background", "console", "fps"]

    /// Reads `key=value` when `key` is one of these keys; false when it is not. `spec` is the
    /// display's spec as written, for errors.
    mutating func read(_ key: String, _ value: String, spec: String) throws(DisplaySpecError) -> Bool {
        func integer(_ range: ClosedRange<Int>) throws(DisplaySpecError) -> Int { try wholeNumber(spec, key, value, range) }
        // What is wrong with the value, thrown once below (for size: each throw site is code of its own).
        let why: String
        // The key's place in `names`, then a switch on it (for size, as in the option readers).
        switch keyIndex(key, Self.names) {
        case 0: scale = try integer(1...256); return true
        case 1:
            guard let a = Anchor(rawValue: value.asciiLowercased()) else {
                why = "expected one of " + Anchor.allCases.map { $0.rawValue }.joined(separator: ", ")
                break
            }
            anchor = a
            return true
        case 2: offsetX = try integer(-16384...16384); return true
        case 3: offsetY = try integer(-16384...16384); return true
        case 4:
            guard let n = Int(value), let r = Rotation(rawValue: n) else { why = "expected 0, 90, 180 or 270 (degrees clockwise)"; break }
            rotation = r
            return true
        case 5:
            let color: Color
            do { color = try Color(parsing: value) } catch { why = error.description; break }
            guard color.a == 255 else { why = "the background must be opaque"; break }
            background = color
            return true
        case 6:
            guard let c = FramebufferOptions.ConsolePolicy(rawValue: value.asciiLowercased()) else {
                why = "expected graphics (hide the kernel console while the splash is up) or keep (leave it alone)"
                break
            }
            console = c
            return true
        case 7: framesPerSecond = try integer(1...240); return true
        default: return false
        }
        throw valueError(spec, key, value, why)
    }
}

/// `KEY=VALUE: WHY`, the form of ScreenKeys' value errors, built in this one place rather than
/// interpolated at each. `spec`: the display's spec as written.
@inline(never) func valueError(_ spec: String, _ key: String, _ value: String, _ why: String) -> DisplaySpecError {
    DisplaySpecError(spec: spec, message: filled("{}={}: {}", key, value, why))
}

/// `value` as a whole number in `range` (ScreenKeys' keys; one copy for all of them).
@inline(never) func wholeNumber(_ spec: String, _ key: String, _ value: String, _ range: ClosedRange<Int>) throws(DisplaySpecError) -> Int {
    guard let n = Int(value), range.contains(n) else {
        throw valueError(spec, key, value, filled("expected a whole number from {} to {}", String(range.lowerBound), String(range.upperBound)))
    }
    return n
}

