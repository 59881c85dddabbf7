import ArgumentParser
import Foundation

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the daemon is doing: loader, progress, message, displays, frames.",
        discussion: "--json prints the daemon's one-line JSON object as it came (see docs/PROTOCOL.md)."
    )

    @Flag(help: "Print the daemon's JSON verbatim.")
    var json = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try connection.send("status")
        if json { print(reply); return }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any] else {
            throw RuntimeFailure("the daemon's status is not a JSON object: \(reply)")
        }
        print(Self.summary(object), terminator: "")
    }

    /// The readable form: one `label: value` line per field that is present.
    static func summary(_ s: [String: Any]) -> String {
        var lines: [(String, String)] = []
        let state = s["state"] as? String ?? "unknown"
        if let loader = s["loader"] as? String {
            var text = "\(loader) (\(state)"
            if let elapsed = number(s["elapsed"]) { text += ", " + decimal(elapsed, places: 1) + " s" }
            lines.append(("loader", text + ")"))
        } else {
            lines.append(("loader", "none (\(state))"))
        }
        if let progress = number(s["progress"]) { lines.append(("progress", decimal(progress, places: 1) + " %")) }
        if let message = s["message"] as? String { lines.append(("message", message)) }
        if let displays = s["displays"] as? [[String: Any]] {
            if displays.isEmpty { lines.append(("displays", "none")) }
            for (i, d) in displays.enumerated() {
                var text = d["name"] as? String ?? "?"
                if let w = number(d["width"]), let h = number(d["height"]) { text += ", \(Int(w))x\(Int(h))" }
                if let fps = number(d["fps"]) { text += " at \(Int(fps)) fps" }
                lines.append((i == 0 ? "displays" : "", text))
            }
        }
        var frames: [String] = []
        if let drawn = number(s["frames_drawn"]) { frames.append("\(Int(drawn)) drawn") }
        if let dropped = number(s["frames_dropped"]) { frames.append("\(Int(dropped)) dropped") }
        if let fps = number(s["fps"]) { frames.append("\(Int(fps)) fps") }
        if !frames.isEmpty { lines.append(("frames", frames.joined(separator: ", "))) }
        if let brightness = number(s["brightness"]) { lines.append(("brightness", "\(Int(brightness)) %")) }
        if let clients = number(s["clients"]) { lines.append(("clients", "\(Int(clients))")) }
        return lines.map { label, value in
            (label.isEmpty ? "" : label + ":").padding(to: 12) + value + "\n"
        }.joined()
    }

    private static func number(_ value: Any?) -> Double? {
        // (On Linux a JSON 0 or 1 also casts to Bool, so booleans are not excluded; status has none.)
        (value as? NSNumber)?.doubleValue
    }

    private static func decimal(_ value: Double, places: Int) -> String {
        String(format: "%.\(places)f", value)
    }
}
