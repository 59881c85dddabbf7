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
    @inline(never) mutating func decodeDisplays(_ entry: TOMLEntry) throws(ConfigError) -> [DisplaySpec] {
        let tables: [TOMLTable]
        switch entry.value.kind {
        case .tableArray(let list):
            tables = list
        case .array(let items):
            var list: [TOMLTable] = []
            for item in items {
                guard case .table(let t) = item.kind else {
                    throw error("expected [[display]] tables, got \(item.shown) in the array", at: item.position, key: "display")
                }
                list.append(t)
            }
            tables = list
        case .table:
            throw error("write [[display]] (an array of tables, one per display), not [display]", at: entry.value.position, key: "display")
        default:
            throw expected("[[display]] tables", entry.value, key: "display")
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
    /// when the table cannot become a spec at all (no type).
    private mutating func decodeDisplay(_ table: TOMLTable) throws(ConfigError) -> DisplaySpec {
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
            if let typo = table.entries.first(where: { suggestion(for: $0.key, among: ["type"]) != nil }) {
                throw error("unknown key '\(typo.key)' in [[display]] (did you mean 'type'?)", at: typo.keyPosition, key: nil)
            }
            throw error("a [[display]] needs a type, e.g. type = \"fb\"", at: table.position, key: "display")
        }
        let word = try string(typeEntry, "display.type")
        let known = DisplayFactory.types.map { $0.type }
        let type = word.asciiLowercased()
        guard let accepted = DisplayFactory.acceptedKeys(for: type) else {
            let hint = suggestion(for: word, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw error("unknown display type \(quoted(word))\(hint); types: " + known.joined(separator: ", "), at: typeEntry.value.position, key: "display.type")
        }
        // Each unknown key at its own place, with the nearest accepted one.
        for e in entries where !accepted.contains(e.key) {
            let hint = suggestion(for: e.key, among: accepted).map { " (did you mean '\($0)'?)" } ?? ""
            report(error("unknown key '\(e.key)' in [[display]] of type \(type)\(hint); \(type) accepts type, " + accepted.joined(separator: ", "),
                                  at: e.keyPosition, key: nil))
            usable = false
        }
        let spec = DisplaySpec(type: type, options: options)
        // Values, once the keys are right (the check stops at its first problem, which would
        // otherwise be an unknown key reported above).
        if usable {
            do { try DisplayFactory.check(spec) } catch { report(placed(error, entries: entries, table: table)) }
        }
        return spec
    }

    /// A display's refusal at the value it is about: its messages begin with the key
    /// (`rotate=45: …`, `'modules' must be …`, `'rows' must divide …`, `size='9x' is not …`); one
    /// about the whole display (a missing `path`) is placed at the table.
    private func placed(_ failure: DisplaySpecError, entries: [TOMLEntry], table: TOMLTable) -> ConfigError {
        let message = failure.message
        let about = entries.filter { e in
            message.hasPrefix(e.key + "=") || message.hasPrefix("'" + e.key + "'")
        }.max { $0.key.utf8.count < $1.key.utf8.count }
        if let about {
            return error(message, at: about.value.position, key: "display." + about.key)
        }
        return error(message, at: table.position, key: "display")
    }
}
