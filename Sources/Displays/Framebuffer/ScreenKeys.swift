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

    /// Reads `key=value` when `key` is one of these keys; false when it is not. `spec` is the
    /// display's spec as written, for errors.
    mutating func read(_ key: String, _ value: String, spec: String) throws(DisplaySpecError) -> Bool {
        func fail(_ why: String) -> DisplaySpecError { valueError(spec, key, value, why) }
        func integer(_ range: ClosedRange<Int>) throws(DisplaySpecError) -> Int { try wholeNumber(spec, key, value, range) }
        switch key {
        case "scale": scale = try integer(1...256)
        case "anchor":
            guard let a = Anchor(rawValue: value.asciiLowercased()) else {
                throw fail("expected one of " + Anchor.allCases.map { $0.rawValue }.joined(separator: ", "))
            }
            anchor = a
        case "x": offsetX = try integer(-16384...16384)
        case "y": offsetY = try integer(-16384...16384)
        case "rotate":
            guard let n = Int(value), let r = Rotation(rawValue: n) else { throw fail("expected 0, 90, 180 or 270 (degrees clockwise)") }
            rotation = r
        case "background":
            do { background = try Color(parsing: value) } catch { throw fail(error.description) }
            guard background.a == 255 else { throw fail("the background must be opaque") }
        case "console":
            guard let c = FramebufferOptions.ConsolePolicy(rawValue: value.asciiLowercased()) else {
                throw fail("expected graphics (hide the kernel console while the splash is up) or keep (leave it alone)")
            }
            console = c
        case "fps": framesPerSecond = try integer(1...240)
        default: return false
        }
        return true
    }
}

/// `KEY=VALUE: WHY`, the form of ScreenKeys' value errors, built in this one place rather than
/// interpolated at each. `spec`: the display's spec as written.
@inline(never) func valueError(_ spec: String, _ key: String, _ value: String, _ why: String) -> DisplaySpecError {
    DisplaySpecError(spec: spec, message: key + "=" + value + ": " + why)
}

/// `value` as a whole number in `range` (ScreenKeys' keys; one copy for all of them).
@inline(never) func wholeNumber(_ spec: String, _ key: String, _ value: String, _ range: ClosedRange<Int>) throws(DisplaySpecError) -> Int {
    guard let n = Int(value), range.contains(n) else {
        throw valueError(spec, key, value, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return n
}

