import Loaders
import CompactText

extension ConfigDecoder {
    /// `[screen]`: the boot screen around the loader, for every loader started: `background`,
    /// `logo`, `margin`, `loader_size`, `message_color`, `mono`, `font`. Each is the config form of a
    /// `screen.*` loader setting (ScreenSettings), and is checked the same way.
    @inline(never) mutating func decodeScreen(_ table: TOMLTable) -> ScreenSettings {
        let names = ["background": "screen.background", "logo": "screen.logo", "margin": "screen.margin",
                     "loader_size": "screen.loaderSize", "message_color": "screen.messageColor", "mono": "screen.mono",
                     "font": "screen.font"]
        var pairs: [(key: String, value: String)] = []
        for entry in table.entries {
            guard let name = names[entry.key] else { report(unknownKey(entry, table: "screen")); continue }
            guard let text = entry.value.scalarText else {
                report(expected("a string, number or boolean", entry.value, key: "screen." + entry.key))
                continue
            }
            do { _ = try ScreenSettings([(name, text)], loader: "screen") } catch {
                report(self.error(error.reason + ", got \(entry.value.shown)", at: entry.value.position, key: "screen." + entry.key))
                continue
            }
            pairs.append((name, text))
        }
        do { return try ScreenSettings(pairs, loader: "screen") } catch { return ScreenSettings() }
    }
}
