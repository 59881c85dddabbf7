import CommandLineKit
import CompactText

// `progress N`, and psplash's negative progress: `PROGRESS -20` fills the bar from the right edge
// (docs/PROTOCOL.md, psplash front end). The control protocol takes no sign, so loaderctl does
// what the daemon's psplash front end does, in requests: a `bar` (running, or started for the
// progress) gets `direction=right`, other loaders just show 20; and the value is forced, as
// psplash's always is.

enum ProgressVerb {
    static let forceOption = OptionSpec(name: "force", kind: .flag, help: "Set the value even if it is lower than the current one.")

    static let verb: Verb = {
        var page = HelpPage(
            abstract: "Set determinate progress, 0 to 100 (starts the `bar` loader if none runs).",
            discussion: """
                Progress never goes backwards unless --force is given: a lower value is ignored and \
                the reply shows the value kept.
                A negative value, -100 to -0, works as psplash's: the `bar` fills from the right \
                (it is started, or restarted, with direction=right; other loaders show the value) \
                and the value is forced. A positive value leaves the direction as it is.
                """,
            usage: "loaderctl progress <PERCENT> [--force] " + ConnectionOptions.usage)
        page.arguments = [ArgumentSpec("<PERCENT>", help: "A decimal number from 0 to 100, e.g. 40 or 62.5; negative: fill from the right.")]
        page.options = [forceOption] + ConnectionOptions.options
        return Verb(name: "progress", page: page) { [page] (parsed) throws(CommandError) in
            let text = try parsed.verbArguments(required: ["<PERCENT>"], optional: 0, options: page.options)[0]
            let connection = try ConnectionOptions(parsed)
            let negative = text.hasPrefix("-")
            let magnitude = negative ? text.dropFirst() : Substring(text)
            guard isPlainDecimal(magnitude), let value = Double(String(magnitude)), value <= 100 else {
                throw .usage("progress must be a decimal number from 0 to 100 (or -100 to -0: fill from the right), got '\(text)'")
            }
            if negative {
                let status = try connection.send("status")
                guard let loader = JSONValue(parsing: status)?["loader"] else {
                    throw .failure(RuntimeFailure("the daemon's status is not a JSON object: \(status)"))
                }
                if loader.string == nil || loader.string == "bar" { _ = try connection.send("start bar direction=right") }
            }
            let force = negative || parsed.has("force")
            connection.say(try connection.send("progress \(magnitude)" + (force ? " force" : "")))
        }
    }()
}
