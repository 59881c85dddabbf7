import CommandLineKit
import CompactText

enum StatusVerb {
    static let verb: Verb = {
        var page = HelpPage(
            abstract: "Show what the daemon is doing: loader, progress, message, displays, frames.",
            discussion: "--json prints the daemon's one-line JSON object as it came (see docs/PROTOCOL.md).",
            usage: "loaderctl status [--json] " + ConnectionOptions.usage)
        page.options = [OptionSpec(name: "json", kind: .flag, help: "Print the daemon's JSON verbatim.")] + ConnectionOptions.options
        return Verb(name: "status", page: page) { [page] (parsed) throws(CommandError) in
            _ = try parsed.verbArguments(required: [], optional: 0, options: page.options)
            let connection = try ConnectionOptions(parsed)
            let reply = try connection.send("status")
            if parsed.has("json") { connection.say(reply); return }
            guard let status = JSONValue(parsing: reply), case .object = status else {
                throw .failure(RuntimeFailure("the daemon's status is not a JSON object: \(reply)"))
            }
            if !connection.quiet { printOut(summary(status)) }
        }
    }()

    /// The readable form of the `status` JSON (docs/PROTOCOL.md): one `label: value` line per
    /// field that is present. A field of an unexpected type is skipped, so a newer daemon with
    /// more (or changed) fields still gets a summary.
    static func summary(_ status: JSONValue) -> String {
        var lines: [(label: String, value: String)] = []
        let state = status["state"]?.string ?? "unknown"
        if let loader = status["loader"]?.string {
            lines.append((label: "loader", value: "\(loader) (\(state)" + (status["elapsed"]?.number.map { ", " + decimal($0) + " s" } ?? "") + ")"))
        } else {
            lines.append((label: "loader", value: "none (\(state))"))
        }
        if let progress = status["progress"]?.number { lines.append((label: "progress", value: decimal(progress) + " %")) }
        if let message = status["message"]?.string { lines.append((label: "message", value: message)) }
        if let displays = status["displays"]?.array {
            if displays.isEmpty { lines.append((label: "displays", value: "none")) }
            for (i, d) in displays.enumerated() {
                var text = d["name"]?.string ?? "?"
                // A display that waits has no size of its own yet (its place holder is 1x1): say why.
                if d["state"]?.string == "waiting" {
                    lines.append((label: i == 0 ? "displays" : "", value: text + ", waiting for its device"))
                    continue
                }
                if d["state"]?.string == "aside" {
                    lines.append((label: i == 0 ? "displays" : "", value: text + ", stepped aside: a password is asked on the console"))
                    continue
                }
                if let w = d["width"]?.integer, let h = d["height"]?.integer { text += ", \(w)x\(h)" }
                if let fps = d["fps"]?.integer { text += " at \(fps) fps" }
                if d["state"]?.string == "failing" {
                    text += ", failing"
                    if let tries = d["failed_tries"]?.integer { text += " (\(tries) \(tries == 1 ? "try" : "tries"))" }
                    if let error = d["error"]?.string { text += ": " + error }
                }
                lines.append((label: i == 0 ? "displays" : "", value: text))
            }
        }
        var frames: [String] = []
        if let drawn = status["frames_drawn"]?.integer { frames.append("\(drawn) drawn") }
        if let dropped = status["frames_dropped"]?.integer { frames.append("\(dropped) dropped") }
        if let fps = status["fps"]?.integer { frames.append("\(fps) fps") }
        if !frames.isEmpty { lines.append((label: "frames", value: frames.joined(separator: ", "))) }
        if let brightness = status["brightness"]?.integer { lines.append((label: "brightness", value: "\(brightness) %")) }
        if let clients = status["clients"]?.integer { lines.append((label: "clients", value: "\(clients)")) }
        return lines.map { line in (line.label.isEmpty ? "" : line.label + ":").padding(to: 12) + TerminalText.escaped(line.value) + "\n" }.joined()
    }

    /// One decimal place, e.g. `12.3`.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
