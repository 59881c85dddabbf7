import FixedPoint
import Raster
import CompactText

/// Scene settings given with a loader's parameters as `screen.KEY=VALUE` (`loaderctl render
/// --set screen.background=#101018`, `start bar screen.logo=/etc/loaderd/logo.png`): they set the
/// boot screen around the loader rather than the loader, and override the daemon's
/// configuration for that start. Unset keys are nil.
public struct ScreenSettings: Sendable, Equatable {
    public static let prefix = "screen."

    public var margin: Int?
    public var monochrome: Bool?
    public var background: Color?
    /// A PNG path; empty: no logo.
    public var logo: String?
    public var loaderSize: Int?
    public var messageColor: Color?
    /// The text's font on a screen: a path, "auto" or "" (see `ScreenFont`).
    public var font: String?

    public init() {}

    /// `other`'s settings where it has them, these elsewhere.
    public func overridden(by other: ScreenSettings) -> ScreenSettings {
        var s = self
        if let v = other.margin { s.margin = v }
        if let v = other.monochrome { s.monochrome = v }
        if let v = other.background { s.background = v }
        if let v = other.logo { s.logo = v }
        if let v = other.loaderSize { s.loaderSize = v }
        if let v = other.messageColor { s.messageColor = v }
        if let v = other.font { s.font = v }
        return s
    }

    /// Every key, what it takes and what it does (for `loaderctl list` and error messages).
    public static let specs: [ParameterSpec] = [
        ParameterSpec("screen.background", .color, default: "clear", "colour under everything (clear: the display's background)"),
        ParameterSpec("screen.logo", .text(maxLength: 1024), default: "", "PNG shown above the loader on a screen, scaled to fit; empty: none"),
        ParameterSpec("screen.margin", .integer(0...1000), default: "", "empty pixels on every side (default: 5 % of the shorter side on a screen, 0 on LEDs)"),
        ParameterSpec("screen.loaderSize", .integer(10...400), default: "100", "loader size on a screen, percent of the automatic size"),
        ParameterSpec("screen.mono", .bool, default: "false", "draw the lit/unlit design for on/off LEDs"),
        ParameterSpec("screen.messageColor", .color, default: "gray", "colour of a plain message"),
        ParameterSpec("screen.font", .text(maxLength: 1024), default: "auto",
                      "font of a screen's text, with FreeType: a file, auto (DejaVu Sans or another usual font) or empty (the bitmap font)"),
    ]

    public init(_ assignments: [(key: String, value: String)], loader: String) throws(ParameterError) {
        for (key, value) in assignments {
            // The setting told by its place in `specs` (the cases below follow its order), not by
            // comparing its name again: smaller.
            guard let index = ScreenSettings.specs.firstIndex(where: { $0.key == key }) else {
                throw ParameterError(loader: loader, key: key, value: value,
                                     reason: "unknown screen setting; accepted: " + ParameterSpec.keyList(ScreenSettings.specs))
            }
            switch (index, try ScreenSettings.specs[index].parse(value, loader: loader)) {
            case (0, .color(let c)): background = c
            case (1, .text(let t)): logo = t
            case (2, .integer(let n)): margin = n
            case (3, .integer(let n)): loaderSize = n
            case (4, .bool(let b)): monochrome = b
            case (5, .color(let c)): messageColor = c
            case (6, .text(let t)): font = t
            default: break
            }
        }
    }
}
