import ArgumentParser
import Loaders
import Raster

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the loaders with their parameters and defaults."
    )

    @Flag(help: "Only the loader names, one per line.")
    var names = false

    @Flag(help: "Ask the running daemon for its loader names instead of this loaderctl's catalog.")
    var daemon = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        if daemon {
            for name in try connection.send("list").split(separator: " ") { print(name) }
            return
        }
        for type in Catalog.loaders {
            if names { print(type.name); continue }
            print("\(type.name) — \(type.summary)")
            let width = type.parameters.map { $0.key.count }.max() ?? 0
            for spec in type.parameters {
                let key = spec.key.padding(to: width)
                print("    \(key)  \(spec.summary) [\(spec.type.brief)] default \(spec.defaultValue.isEmpty ? "none" : spec.defaultValue)")
            }
            if !type.presets.isEmpty {
                print("    presets (preset=NAME):")
                for preset in type.presets { print("      \(preset.name): \(preset.summary)") }
            }
            print("")
        }
        if !names {
            print("Colours: #RRGGBB, #RRGGBBAA or a name (" + Color.named.map { $0.name }.joined(separator: ", ") + "), optionally @OPACITY, e.g. gray@0.5.")
            print("Set parameters with --set key=value (render, preview) or `start NAME key=value` (daemon).")
        }
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
