import Loaders
import CompactText

extension ConfigDecoder {
    /// `[screen]`: the boot screen around the loader, for every loader started: `background`,
    /// `logo`, `margin`, `loader_size`, `message_color`, `mono`, `font`. Each is the config form of a
    /// `screen.*` loader setting (ScreenSettings), and is checked the same way, and its TOML type
    /// as the rest of the file's are: `logo = 5` is not the path "5", nor `margin = "12"` a number.
    @inline(never) mutating func decodeScreen(_ table: TOMLTable) -> ScreenSettings {
        var pairs: [(key: String, value: String)] = []
        for entry in table.entries {
            guard let n = Self.knownIndex(entry.key, .screen) else { report(unknownKey(entry, table: .screen)); continue }
            let name = Self.screenSettings[n]
            guard let text = entry.value.scalarText else {
                report(expected("a string, number or boolean", entry.value, key: "screen." + entry.key))
                continue
            }
            do { _ = try ScreenSettings([(name, text)], loader: "screen") } catch {
                report(self.error(filled("{}, got {}", error.reason, entry.value.shown), at: entry.value.position, key: "screen." + entry.key))
                continue
            }
            // The value reads as the setting; now its type (after, so that `margin = "wide"` is
            // told what a margin is rather than to drop the quotes).
            if let spec = ScreenSettings.specs.first(where: { $0.key == name }),
               let what = Self.kindProblem(spec.type, entry.value, quotedNumbers: false) {
                report(expected(what, entry.value, key: "screen." + entry.key))
                continue
            }
            pairs.append((name, text))
        }
        do { return try ScreenSettings(pairs, loader: "screen") } catch { return ScreenSettings() }
    }

    /// The ScreenSettings name of each key of [screen], in `Config.knownKeys`' order. (A list,
    /// as the other tables' keys: the dictionary literal it replaces was built in place.)
    static let screenSettings = ["screen.background", "screen.logo", "screen.margin", "screen.loaderSize",
                                 "screen.messageColor", "screen.mono", "screen.font"]

    /// What a value of `type` must be written as in the file, when `value` is not written so:
    /// text, colours, choices and curves as strings (`logo = 5`, `font = 3` are refused: a number
    /// there is a slip, not a name); whole and decimal numbers as numbers, true/false as a
    /// boolean, each also as a string when `quotedNumbers` ([loader.parameters], whose values
    /// are documented as the words of `loaderctl start NAME key=value`). Nil when it fits.
    static func kindProblem(_ type: ParameterType, _ value: TOMLValue, quotedNumbers: Bool) -> String? {
        let isString: Bool
        switch value.kind {
        case .string: isString = true
        default: isString = false
        }
        switch type {
        case .color, .colors, .text, .choice, .curve:
            return isString ? nil : "a string"
        case .integer, .number, .seconds:
            if case .integer = value.kind { return nil }
            if case .float = value.kind, !(type.isInteger) { return nil }
            if isString && quotedNumbers { return nil }
            return type.accepted + (isString ? ", written without quotes" : "")
        case .bool:
            if case .boolean = value.kind { return nil }
            if isString && quotedNumbers { return nil }
            return "true or false" + (isString ? ", written without quotes" : "")
        }
    }

    /// `[loader.parameters]`'s values, each against the type its loader gives it (after the
    /// catalog has accepted the words: this is only about how they are written).
    mutating func checkParameterKinds(_ parameters: TOMLTable, loader name: String) {
        guard let type = Catalog.type(named: name) else { return }
        for entry in parameters.entries {
            guard let spec = type.parameters.first(where: { $0.key == entry.key }) else { continue }
            if let what = Self.kindProblem(spec.type, entry.value, quotedNumbers: true) {
                report(expected(what, entry.value, key: "loader.parameters." + entry.key))
            }
        }
    }
}

extension ParameterType {
    var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }
}
