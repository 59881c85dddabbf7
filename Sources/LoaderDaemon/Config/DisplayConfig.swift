import CompactText
import Displays
import Raster

extension ConfigDecoder {
    /// `[[display]]` tables (or `display = [{...}, ...]`): each becomes the display spec the
    /// command line's `--display` would give, checked as opening it would check it (its type, its
    /// keys, every value: `DisplayFactory.check`) but without opening anything, so a typo is
    /// reported at its line and column by `--check-config` and at start-up, not when the device
    /// appears in the middle of a boot. What depends on the device itself (a canvas too large for
    /// its screen) is checked when it opens.
    @inline(never) mutating func decodeDisplays(_ entry: TOMLEntry) -> [DisplaySpec] {
        let tables: [TOMLTable]
        switch entry.value.kind {
        case .tableArray(let list):
            tables = list
        case .array(let items):
            var list: [TOMLTable] = []
            for item in items {
                guard case .table(let t) = item.kind else {
                    report(error(filled("expected [[display]] tables, got {} in the array", item.shown), at: item.position, key: "display"))
                    return []
                }
                list.append(t)
            }
            tables = list
        case .table:
            report(error("write [[display]] (an array of tables, one per display), not [display]", at: entry.value.position, key: "display"))
            return []
        default:
            report(expected("[[display]] tables", entry.value, key: "display"))
            return []
        }
        var specs: [DisplaySpec] = []
        for table in tables {
            do throws(ConfigError) {
                specs.append(try decodeDisplay(table))
            } catch {
                report(error)
            }
        }
        return specs
    }

    /// One `[[display]]`: every key with a problem reported at its place (`problems`); thrown only
    /// when the table cannot become a spec at all (no type). This and `checkValues` are calls:
    /// inlined into `decodeDisplays`, the three were one function with a 2 KB stack frame and
    /// 0.6 KB more code.
    @inline(never) private mutating func decodeDisplay(_ table: TOMLTable) throws(ConfigError) -> DisplaySpec {
        var typeEntry: TOMLEntry?
        var entries: [TOMLEntry] = []
        var options: [DisplaySpec.Option] = []
        var usable = true
        for e in table.entries {
            if e.key == "type" { typeEntry = e; continue }
            guard let text = e.value.scalarText else {
                report(expected("a string, number or boolean (display options are passed on as text)", e.value, key: "display." + e.key))
                usable = false
                continue
            }
            entries.append(e)
            options.append(DisplaySpec.Option(e.key, text))
        }
        guard let typeEntry else {
            // One `throw` for both refusals.
            var message = "a [[display]] needs a type, e.g. type = \"fb\"", place = table.position, key: String? = "display"
            if let typo = table.entries.first(where: { suggestion(for: $0.key, among: ["type"]) != nil }) {
                (message, place, key) = (filled("unknown key '{}' in [[display]] (did you mean 'type'?)", typo.key), typo.keyPosition, nil)
            }
            throw error(message, at: place, key: key)
        }
        let word = try string(typeEntry, "display.type")
        let known = DisplayFactory.typeNames
        let type = word.asciiLowercased()
        guard let accepted = DisplayFactory.acceptedKeys(for: type) else {
            throw error(filled("unknown display type {}{}; types: {}", quoted(word), didYouMean(word, known, quote: "\""), joined(known, separator: ", ")), at: typeEntry.value.position, key: "display.type")
        }
        // Each unknown key at its own place, with the nearest accepted one.
        for e in entries where !accepted.contains(e.key) {
            report(error(filled("unknown key '{}' in [[display]] of type {}{}; {}", e.key, type, didYouMean(e.key, accepted), filled("{} accepts type, {}", type, joined(accepted, separator: ", "))),
                                  at: e.keyPosition, key: nil))
            usable = false
        }
        let spec = DisplaySpec(type: type, options: options)
        // Values, once the keys are right (the check stops at its first problem, which would
        // otherwise be an unknown key reported above).
        if usable { checkValues(spec, entries: entries, table: table) }
        return spec
    }

    /// Every bad value of the table, each at its place. A display's option parser (the one its
    /// `--display` and its opening use) stops at its first problem, and making each parser
    /// collect instead would mean a second copy of every display's rules; so the parser is asked
    /// again with each refused key left out (its default standing in) until it accepts the rest
    /// or refuses the display as a whole. At most a round or two per key.
    ///
    /// A key a display cannot do without (`path`, `size`) is not left out but given a valid
    /// stand-in value (`standIn`), so that the keys after it are checked too; and a refusal that
    /// only the leaving out caused (`missing path=FILE`) is not reported: the key's own error was.
    @inline(never) private mutating func checkValues(_ spec: DisplaySpec, entries: [TOMLEntry], table: TOMLTable) {
        var remaining = spec
        var left: [String] = []
        var stoodIn: [String] = []
        while true {
            do throws(DisplaySpecError) {
                try DisplayFactory.check(remaining)
                return
            } catch {
                guard let about = entry(about: error, entries: entries), remaining[about.key] != nil else {
                    let cause = left.first { Self.names(error.message, $0, atStart: false) }
                    if let cause, !stoodIn.contains(cause), let value = Self.standIn(for: cause) {
                        stoodIn.append(cause)
                        remaining.options.append(DisplaySpec.Option(cause, value))
                        continue
                    }
                    if cause == nil { report(self.error(error.message, at: table.position, key: "display")) }
                    return
                }
                // A stand-in refused (another key makes it wrong): the key's own error stands.
                if stoodIn.contains(about.key) { return }
                report(self.error(error.message, at: about.value.position, key: "display." + about.key))
                left.append(about.key)
                // A loop, not `removeAll(where:)`: for size.
                var kept: [DisplaySpec.Option] = []
                for option in remaining.options where option.key != about.key { kept.append(option) }
                remaining.options = kept
            }
        }
    }

    /// A value every display that requires `key` accepts, standing in for a refused one; nil for
    /// a key that needs none. (Code, not a table of pairs: the table's initialiser was larger.)
    private static func standIn(for key: String) -> String? {
        key == "path" ? "/loaderd-check.ppm" : key == "size" ? "8x8" : nil
    }

    /// The entry a display's refusal is about: its messages begin with the key (`rotate=45: …`,
    /// `'modules' must be …`, `'rows' must divide …`, `size='9x' is not …`); nil for one about
    /// the whole display (a missing `path`).
    private func entry(about failure: DisplaySpecError, entries: [TOMLEntry]) -> TOMLEntry? {
        var about: TOMLEntry?
        for e in entries where Self.names(failure.message, e.key, atStart: true) {
            if about == nil || about!.key.utf8.count < e.key.utf8.count { about = e }
        }
        return about
    }

    /// Whether `message` names `key` as an option, `key=` or `'key'`: at its start when `atStart`
    /// (`rotate=45: …`, `'rows' must divide …`), else anywhere ("missing path=FILE").
    /// On the UTF-8 bytes, one search for both forms (Embedded Swift's String has no substring
    /// search; and no `key + "="` strings built: for size).
    @inline(never) private static func names(_ message: String, _ key: String, atStart: Bool) -> Bool {
        let text = Array(message.utf8), name = Array(key.utf8)
        // Where the name may start: 0 (`key=`) or 1 (`'key'`) at the start, else anywhere.
        var i = 0
        while i + name.count < text.count && (!atStart || i <= 1) {
            var n = 0
            while n < name.count && text[i + n] == name[n] { n += 1 }
            if n == name.count {
                let after = text[i + n]
                if after == UInt8(ascii: "=") && (!atStart || i == 0) { return true }
                if after == .apostrophe && i > 0 && text[i - 1] == .apostrophe { return true }
            }
            i += 1
        }
        return false
    }
}
