import CommandLineKit
import Loaders
import Raster
import CompactText

enum ListVerb {
    static let namesOption = OptionSpec(name: "names", kind: .flag, help: "Only the loader names, one per line.")
    static let daemonOption = OptionSpec(name: "daemon", kind: .flag, help: "Ask the running daemon for its loader names instead of this loaderctl's catalog.")
    static let jsonOption = OptionSpec(name: "json", kind: .flag,
        help: "One line of JSON: an array of loaders with their parameters and presets (with --names or --daemon, an array of names).")

    static let verb: Verb = {
        var page = HelpPage(
            abstract: "List the loaders with their parameters and defaults.",
            usage: "loaderctl list [--names] [--daemon] [--json] " + ConnectionOptions.usage)
        page.options = [namesOption, daemonOption, jsonOption] + ConnectionOptions.options
        return Verb(name: "list", page: page) { [page] (parsed) throws(CommandError) in
            _ = try parsed.verbArguments(required: [], optional: 0, options: page.options)
            let connection = try ConnectionOptions(parsed)
            let json = parsed.has("json")
            let names: [String]
            if parsed.has("daemon") {
                names = try connection.send("list").split(separator: " ").map { String($0) }
            } else if parsed.has("names") {
                names = Catalog.loaders.map { $0.name }
            } else {
                connection.say(json ? catalogJSON() : catalogText())
                return
            }
            if names.isEmpty && !json { return }
            connection.say(json ? "[" + names.map { JSONText.quoted($0) }.joined(separator: ",") + "]" : names.joined(separator: "\n"))
        }
    }()

    /// Every loader, its parameters (key, type, default, summary) and presets, as people read them.
    static func catalogText() -> String {
        var text = ""
        for type in Catalog.loaders {
            text += "\(type.name) — \(type.summary)\n"
            let width = type.parameters.map { $0.key.count }.max() ?? 0
            for spec in type.parameters {
                text += "    \(spec.key.padding(to: width))  \(spec.summary) [\(spec.type.brief)] default \(spec.defaultValue.isEmpty ? "none" : spec.defaultValue)\n"
            }
            if !type.presets.isEmpty {
                text += "    presets (preset=NAME):\n"
                for preset in type.presets { text += "      \(preset.name): \(preset.summary)\n" }
            }
            text += "\n"
        }
        text += "Colours: #RRGGBB, #RRGGBBAA or a name (" + Color.named.map { $0.name }.joined(separator: ", ") + "), optionally @OPACITY, e.g. gray@0.5.\n"
        return text + "Set parameters with --set key=value (render, preview) or `start NAME key=value` (daemon)."
    }

    /// The same as one line of JSON, for scripts and UIs.
    static func catalogJSON() -> String {
        let loaders = Catalog.loaders.map { type in
            let parameters = type.parameters.map { spec in
                "{\"key\":\(JSONText.quoted(spec.key)),\"type\":\(JSONText.quoted(spec.type.brief)),"
                    + "\"default\":\(JSONText.quoted(spec.defaultValue)),\"summary\":\(JSONText.quoted(spec.summary))}"
            }
            let presets = type.presets.map { "{\"name\":\(JSONText.quoted($0.name)),\"summary\":\(JSONText.quoted($0.summary))}" }
            return "{\"name\":\(JSONText.quoted(type.name)),\"summary\":\(JSONText.quoted(type.summary)),"
                + "\"parameters\":[" + parameters.joined(separator: ",") + "],\"presets\":[" + presets.joined(separator: ",") + "]}"
        }
        return "[" + loaders.joined(separator: ",") + "]"
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
