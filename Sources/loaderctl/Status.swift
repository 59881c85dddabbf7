import ArgumentParser
// FoundationEssentials, not Foundation: its JSONDecoder is all `status` needs, and
// ArgumentParser links it already. Importing Foundation itself (for JSONSerialization) made
// every loaderctl call load libFoundation and ICU: measured 21 MB peak RSS and ~45 ms per call
// against 15 MB and ~30 ms, paid by boot scripts that run `loaderctl progress` many times.
import FoundationEssentials

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
        guard let status = try? JSONDecoder().decode(DaemonStatus.self, from: Data(reply.utf8)) else {
            throw RuntimeFailure("the daemon's status is not a JSON object: \(reply)")
        }
        print(status.summary, terminator: "")
    }
}

/// The `status` JSON of docs/PROTOCOL.md. Every field is optional and a field of an unexpected
/// type is skipped, so a newer daemon with more (or changed) fields still gets a summary.
struct DaemonStatus: Decodable {
    struct DisplayInfo: Decodable {
        var name: String?
        var width: Int?
        var height: Int?
        var fps: Int?
    }

    var loader: String?
    var state: String?
    var elapsed: Double?
    var progress: Double?
    var message: String?
    var displays: [DisplayInfo]?
    var fps: Int?
    var framesDrawn: Int?
    var framesDropped: Int?
    var brightness: Int?
    var clients: Int?

    enum CodingKeys: String, CodingKey {
        case loader, state, elapsed, progress, message, displays, fps, brightness, clients
        case framesDrawn = "frames_drawn", framesDropped = "frames_dropped"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func field<T: Decodable>(_ key: CodingKeys) -> T? { (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil }
        loader = field(.loader); state = field(.state); elapsed = field(.elapsed); progress = field(.progress)
        message = field(.message); displays = field(.displays); fps = field(.fps)
        framesDrawn = field(.framesDrawn); framesDropped = field(.framesDropped)
        brightness = field(.brightness); clients = field(.clients)
    }

    /// The readable form: one `label: value` line per field that is present.
    var summary: String {
        var lines: [(String, String)] = []
        let state = state ?? "unknown"
        if let loader {
            lines.append(("loader", "\(loader) (\(state)" + (elapsed.map { ", " + decimal($0) + " s" } ?? "") + ")"))
        } else {
            lines.append(("loader", "none (\(state))"))
        }
        if let progress { lines.append(("progress", decimal(progress) + " %")) }
        if let message { lines.append(("message", message)) }
        if let displays {
            if displays.isEmpty { lines.append(("displays", "none")) }
            for (i, d) in displays.enumerated() {
                var text = d.name ?? "?"
                if let w = d.width, let h = d.height { text += ", \(w)x\(h)" }
                if let fps = d.fps { text += " at \(fps) fps" }
                lines.append((i == 0 ? "displays" : "", text))
            }
        }
        var frames: [String] = []
        if let framesDrawn { frames.append("\(framesDrawn) drawn") }
        if let framesDropped { frames.append("\(framesDropped) dropped") }
        if let fps { frames.append("\(fps) fps") }
        if !frames.isEmpty { lines.append(("frames", frames.joined(separator: ", "))) }
        if let brightness { lines.append(("brightness", "\(brightness) %")) }
        if let clients { lines.append(("clients", "\(clients)")) }
        return lines.map { label, value in (label.isEmpty ? "" : label + ":").padding(to: 12) + TerminalText.escaped(value) + "\n" }.joined()
    }

    /// One decimal place, e.g. `12.3` (no Foundation formatting needed).
    private func decimal(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
