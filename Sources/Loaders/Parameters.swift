import FixedPoint
import Raster
import CompactText

/// The type of a loader parameter: what text it accepts and what it becomes.
public enum ParameterType: Sendable {
    /// `#RRGGBB`, `#RRGGBBAA`, a colour name, optionally `@opacity` (see `Color(parsing:)`).
    case color
    /// Comma-separated colours, at least one.
    case colors
    /// Seconds as a decimal number in the range, e.g. `0.85`.
    case seconds(ClosedRange<Double>)
    /// A decimal number in the range.
    case number(ClosedRange<Double>)
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// Any UTF-8 text up to the length (in characters).
    case text(maxLength: Int)
    /// One of the listed words.
    case choice([String])
    /// Four comma-separated numbers x1,y1,x2,y2 of a cubic-bezier timing curve, x in 0...1.
    case curve
    /// `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`).
    case bool

    /// A short name of what the type accepts, for `loaderctl list`.
    public var brief: String {
        switch self {
        case .color: return "colour"
        case .colors: return "colours"
        case .seconds(let r): return filled("seconds, {}-{}", format(r.lowerBound), format(r.upperBound))
        case .number(let r): return filled("{}-{}", format(r.lowerBound), format(r.upperBound))
        case .integer(let r): return filled("{}-{}", String(r.lowerBound), String(r.upperBound))
        case .text(let n): return filled("text, ≤ {} characters", String(n))
        case .choice(let words): return words.joined(separator: "|")
        case .curve: return "x1,y1,x2,y2"
        case .bool: return "true|false"
        }
    }

    /// What the type accepts, for error messages.
    public var accepted: String {
        switch self {
        case .color: return filled("a colour: #RRGGBB, #RRGGBBAA or a name ({}), optionally @opacity", Color.named.map { $0.name }.joined(separator: ", "))
        case .colors: return "comma-separated colours (#RRGGBB, #RRGGBBAA or names, optionally @opacity)"
        case .seconds(let r): return filled("seconds from {} to {}", format(r.lowerBound), format(r.upperBound))
        case .number(let r): return filled("a number from {} to {}", format(r.lowerBound), format(r.upperBound))
        case .integer(let r): return filled("a whole number from {} to {}", String(r.lowerBound), String(r.upperBound))
        case .text(let n): return filled("text of at most {} characters", String(n))
        case .choice(let words): return "one of " + words.joined(separator: ", ")
        case .curve: return "x1,y1,x2,y2 of a cubic-bezier curve, x1 and x2 from 0 to 1, y from -2 to 3"
        case .bool: return "true or false (or yes/no, on/off, 1/0)"
        }
    }
}

private func format(_ d: Double) -> String {
    d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : d.decimalText
}

/// A parsed, validated parameter value.
public enum ParameterValue: Sendable, Equatable {
    case color(Color)
    case colors([Color])
    case seconds(Microseconds)
    case number(Fixed)
    case integer(Int)
    case text(String)
    case choice(String)
    case curve(x1: Fixed, y1: Fixed, x2: Fixed, y2: Fixed)
    case bool(Bool)
}

/// One parameter a loader accepts, with its default and a line of help.
public struct ParameterSpec: Sendable {
    public let key: String
    public let type: ParameterType
    public let defaultValue: String
    public let summary: String

    /// Always inlined, for size: the catalog's tables are then built at compile time, as read-only
    /// data, rather than by code that allocates and fills them at first use.
    @inline(__always)
    public init(_ key: String, _ type: ParameterType, default defaultValue: String, _ summary: String) {
        self.key = key; self.type = type; self.defaultValue = defaultValue; self.summary = summary
    }

    /// The keys of `specs`, then `last` if given, joined by ", " (a loop: smaller than map + joined).
    @inline(never)
    static func keyList(_ specs: [ParameterSpec], then last: String? = nil) -> String {
        var list = ""
        for spec in specs {
            if !list.isEmpty { list += ", " }
            list += spec.key
        }
        if let last {
            if !list.isEmpty { list += ", " }
            list += last
        }
        return list
    }

    /// Parses `text` as this parameter's type. Input boundary: Double is allowed here. For size,
    /// each refusal only leaves its reason (nil: what the type accepts) and one `throw` makes it.
    public func parse(_ text: String, loader: String) throws(ParameterError) -> ParameterValue {
        let trimmed = text.trimmingSpaces
        var reason: String? = nil
        switch type {
        case .color:
            if let color = try? Color(parsing: trimmed) { return .color(color) }
        case .colors:
            var colors: [Color] = []
            for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
                guard let color = try? Color(parsing: String(part).trimmingSpaces) else { colors = []; break }
                colors.append(color)
            }
            if !colors.isEmpty { return .colors(colors) }
        case .seconds(let range), .number(let range):
            // One parse for both, for size.
            if let d = Double(trimmed), d.isFinite, range.contains(d) {
                if case .seconds = type { return .seconds(Time.microseconds(seconds: d)) }
                return .number(Fixed(d))
            }
        case .integer(let range):
            if let i = Int(trimmed), range.contains(i) { return .integer(i) }
        case .text(let maxLength):
            // Unicode scalars, as the text renderers draw them (a Character count would bring the
            // standard library's grapheme breaking, for size); the same count for any ASCII text.
            let count = text.unicodeScalars.count
            if count <= maxLength { return .text(text) }
            reason = filled("text is {} characters; at most {} accepted", String(count), String(maxLength))
        case .choice(let words):
            let word = trimmed.asciiLowercased()  // once, not once per word compared
            if let w = words.first(where: { $0 == word }) { return .choice(w) }
        case .curve:
            let parts = trimmed.split(separator: ",").compactMap { Double(String($0).trimmingSpaces) }
            if parts.count == 4, parts.allSatisfy({ $0.isFinite }), (0...1).contains(parts[0]), (0...1).contains(parts[2]),
               (-2...3).contains(parts[1]), (-2...3).contains(parts[3]) {
                return .curve(x1: Fixed(parts[0]), y1: Fixed(parts[1]), x2: Fixed(parts[2]), y2: Fixed(parts[3]))
            }
        case .bool:
            if let flag = parseYesNo(trimmed) { return .bool(flag) }
        }
        throw ParameterError(loader: loader, key: key, value: text, reason: reason ?? "expected " + type.accepted)
    }
}

/// A named set of parameter values (e.g. shimmer's `grok`), applied before explicit settings.
public struct Preset: Sendable {
    public let name: String
    public let summary: String
    public let values: [(key: String, value: String)]
    @inline(__always)  // for size: the presets' table is then read-only data (see `ParameterSpec.init`)
    public init(_ name: String, _ summary: String, _ values: [(key: String, value: String)]) {
        self.name = name; self.summary = summary; self.values = values
    }
}

/// Why a parameter was refused: names the loader, the key, the value and what is accepted.
public struct ParameterError: Error, Sendable, CustomStringConvertible, Equatable {
    public let loader: String
    public let key: String
    public let value: String
    public let reason: String
    public var description: String {
        // A word without `=` (or with nothing before it) is quoted as it was given.
        reason == ParameterError.notAssignment ? filled("{}: '{}': {}", loader, key, reason) : filled("{}: invalid {}={}: {}", loader, key, value, reason)
    }
    static let notAssignment = "expected key=value"
}

/// A loader's validated parameters: every spec has a value (its default unless set).
public struct Parameters: Sendable {
    public let loader: String
    /// One value per key (a loader has a dozen at most: a list, not a dictionary, whose hashing
    /// code a board binary would carry for it alone).
    private var values: [(key: String, value: ParameterValue)]
    /// The `screen.*` assignments, which set the scene around the loader rather than the loader.
    public let screen: ScreenSettings

    /// Validates `assignments` (in order; later ones win) against `specs`. A `preset=NAME`
    /// assignment (when the loader has presets) applies that preset's values first, so explicit
    /// keys override it wherever they appear.
    public init(loader: String, specs: [ParameterSpec], presets: [Preset] = [],
                assignments: [(key: String, value: String)]) throws(ParameterError) {
        let given = try Self.check(loader: loader, specs: specs, presets: presets, assignments: assignments)
        self.loader = loader
        var values = given.values
        for spec in specs where !values.contains(where: { $0.key == spec.key }) {
            values.append((spec.key, try spec.parse(spec.defaultValue, loader: loader)))
        }
        self.values = values
        screen = given.screen
    }

    /// Checks `assignments` as `init` does, without the defaults (a settings check: every default
    /// parses, LoadersTests says so): the values given (the last of a key wins), and the scene's.
    public static func check(loader: String, specs: [ParameterSpec], presets: [Preset] = [],
                             assignments: [(key: String, value: String)]) throws(ParameterError)
        -> (values: [(key: String, value: ParameterValue)], screen: ScreenSettings) {
        // The loader's and the scene's assignments parted in one pass (two `filter`s were larger).
        var explicit: [(key: String, value: String)] = [], screenAssignments: [(key: String, value: String)] = []
        for assignment in assignments {
            if assignment.key.hasPrefix(ScreenSettings.prefix) { screenAssignments.append(assignment) } else { explicit.append(assignment) }
        }
        let screen = try ScreenSettings(screenAssignments, loader: loader)
        // For size, each refusal only notes what was refused and one `throw` makes the error.
        var refused: (key: String, value: String, reason: String)
        refusal: do {
            if let i = explicit.lastIndex(where: { $0.key == "preset" }) {
                let name = explicit[i].value
                let lowered = name.asciiLowercased()
                guard let preset = presets.first(where: { $0.name == lowered }) else {
                    var names = "expected one of "
                    for (i, preset) in presets.enumerated() {
                        if i > 0 { names += ", " }
                        names += preset.name
                    }
                    refused = ("preset", name, presets.isEmpty ? loader + " has no presets" : names)
                    break refusal
                }
                explicit.removeAll { $0.key == "preset" }
                explicit = preset.values + explicit
            }
            var values: [(key: String, value: ParameterValue)] = []
            for (key, value) in explicit {
                guard let spec = specs.first(where: { $0.key == key }) else {
                    refused = (key, value, filled("unknown parameter; {} accepts {}", loader, ParameterSpec.keyList(specs, then: presets.isEmpty ? nil : "preset")))
                    break refusal
                }
                let parsed = try spec.parse(value, loader: loader)
                if let i = values.firstIndex(where: { $0.key == key }) { values[i].value = parsed } else { values.append((key, parsed)) }
            }
            return (values, screen)
        }
        throw ParameterError(loader: loader, key: refused.key, value: refused.value, reason: refused.reason)
    }

    /// Parses `key=value` words (as given to `--set` or `start NAME key=value`).
    public static func assignments(from words: [String], loader: String) throws(ParameterError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for word in words {
            guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
                throw ParameterError(loader: loader, key: word, value: "", reason: ParameterError.notAssignment)
            }
            result.append((String(word[..<eq]), String(word[word.index(after: eq)...])))
        }
        return result
    }

    public subscript(key: String) -> ParameterValue? { values.first(where: { $0.key == key })?.value }

    /// Whether `other` gives the loader the same values, however they were written: in another
    /// order, a default spelled out, a colour by name or by number.
    public func hasSameValues(as other: Parameters) -> Bool {
        loader == other.loader && screen == other.screen && values.count == other.values.count
            && values.allSatisfy { other[$0.key] == $0.value }
    }

    // Typed accessors. A key or type mismatch here is a programmer error in a loader: it traps.
    // Out of line, for size: the loaders' inits call them some fifty times.
    @inline(never) public func color(_ key: String) -> Color {
        guard case .color(let c)? = self[key] else { preconditionFailure("\(loader): no colour parameter \(key)") }
        return c
    }
    @inline(never) public func colors(_ key: String) -> [Color] {
        guard case .colors(let c)? = self[key] else { preconditionFailure("\(loader): no colours parameter \(key)") }
        return c
    }
    @inline(never) public func seconds(_ key: String) -> Microseconds {
        guard case .seconds(let s)? = self[key] else { preconditionFailure("\(loader): no seconds parameter \(key)") }
        return s
    }
    @inline(never) public func number(_ key: String) -> Fixed {
        guard case .number(let n)? = self[key] else { preconditionFailure("\(loader): no number parameter \(key)") }
        return n
    }
    @inline(never) public func integer(_ key: String) -> Int {
        guard case .integer(let n)? = self[key] else { preconditionFailure("\(loader): no integer parameter \(key)") }
        return n
    }
    @inline(never) public func text(_ key: String) -> String {
        guard case .text(let s)? = self[key] else { preconditionFailure("\(loader): no text parameter \(key)") }
        return s
    }
    @inline(never) public func choice(_ key: String) -> String {
        guard case .choice(let s)? = self[key] else { preconditionFailure("\(loader): no choice parameter \(key)") }
        return s
    }
    @inline(never) public func curve(_ key: String) -> (x1: Fixed, y1: Fixed, x2: Fixed, y2: Fixed) {
        guard case .curve(let x1, let y1, let x2, let y2)? = self[key] else { preconditionFailure("\(loader): no curve parameter \(key)") }
        return (x1, y1, x2, y2)
    }
    @inline(never) public func bool(_ key: String) -> Bool {
        guard case .bool(let b)? = self[key] else { preconditionFailure("\(loader): no bool parameter \(key)") }
        return b
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (no Foundation here).
    var trimmingSpaces: String {
        // On the UTF-8 bytes: spaces and tabs are single bytes, and cutting only at them keeps
        // every scalar whole. (By `Character` this was ~700 instructions a value at start-up.)
        // Through the bytes' buffer rather than the view's indices, whose walks were 1.5 KB of
        // x86_64 loaderd (for size). Every String here is native, so the buffer is always there.
        let trimmed = utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var start = 0, end = bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            if start == 0 && end == bytes.count { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return (trimmed ?? nil) ?? self
    }
}
