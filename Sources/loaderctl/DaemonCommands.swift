import ArgumentParser
import Loaders

// The daemon verbs: each builds one request line of docs/PROTOCOL.md, checks what can be checked
// here (so a typo is a usage error, exit 2, without a round trip), sends it with
// `ConnectionOptions.send` and prints the reply's data. The daemon stays authoritative.

/// A request word must not break the line framing or the space-separated words.
private func checkWord(_ word: String, what: String) throws {
    if word.isEmpty { throw ValidationError("\(what) must not be empty") }
    if let bad = word.unicodeScalars.first(where: { $0 == " " || $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
        let shown = bad == " " ? "a space" : "control character U+" + String(bad.value, radix: 16, uppercase: true)
        throw ValidationError("\(what) '\(word)' contains \(shown); the protocol separates words with spaces and requests with newlines")
    }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a loader on the daemon's displays (from t = 0).",
        discussion: """
            Parameters are the loader's key=value settings (see `loaderctl list`); they are checked \
            against this loaderctl's catalog before anything is sent. Starting the loader that is \
            already running with the same parameters keeps its time.
            Example: loaderctl start linkedin fill=#0a66c2 duration=1.2
            """
    )

    @Argument(help: "The loader (see `loaderctl list`).")
    var name: String

    @Argument(help: ArgumentHelp("Loader parameters.", valueName: "key=value"))
    var parameters: [String] = []

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        try checkWord(name, what: "loader name")
        for word in parameters { try checkWord(word, what: "parameter") }
        do {
            let pairs = try Parameters.assignments(from: parameters, loader: name)
            _ = try Catalog.make(name, assignments: pairs)
        } catch let error as ParameterError {
            throw ValidationError(error.description)
        } catch let error as LoaderError {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        print(try connection.send((["start", name] + parameters).joined(separator: " ")))
    }
}

struct Stop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End the loader: its exit animation, then an optional outcome mark.",
        discussion: """
            Without an outcome the loader plays its exit animation and the display clears. \
            `success` or `failure` shows the outcome mark for a moment after it; `now` clears at once.
            """
    )

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case success, failure, now
    }

    @Argument(help: "success, failure or now (default: just the exit animation).")
    var mode: Mode?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        print(try connection.send(mode.map { "stop \($0.rawValue)" } ?? "stop"))
    }
}

struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "Set determinate progress, 0 to 100 (starts the `bar` loader if none runs).",
        discussion: """
            Progress never goes backwards unless --force is given: a lower value is ignored and \
            the reply shows the value kept.
            """
    )

    @Argument(help: ArgumentHelp("A decimal number from 0 to 100, e.g. 40 or 62.5.", valueName: "PERCENT"))
    var percent: String

    @Flag(help: "Set the value even if it is lower than the current one.")
    var force = false

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        // Plain decimals only (what the protocol accepts): no sign, exponent, inf or nan.
        let bytes = Array(percent.utf8)
        let digits = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let dots = bytes.filter { $0 == UInt8(ascii: ".") }.count
        let form = !bytes.isEmpty && dots <= 1 && bytes.allSatisfy { digits($0) || $0 == UInt8(ascii: ".") }
            && bytes.contains(where: digits)  // the daemon's forms: D+[.D*] and .D+
        guard form, let value = Double(percent), value >= 0, value <= 100 else {
            throw ValidationError("progress must be a decimal number from 0 to 100, got '\(percent)'")
        }
    }

    func run() throws {
        print(try connection.send("progress \(percent)" + (force ? " force" : "")))
    }
}

struct Message: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a line of text under the loader; without text, clear it.",
        discussion: """
            The words are joined with single spaces (quote the text to keep several). At most \
            \(Message.maximumLength) characters.
            Example: loaderctl message Starting network
            """
    )

    static let maximumLength = 256

    @Argument(help: "The message (none: clear the message line).")
    var text: [String] = []

    var joined: String { text.joined(separator: " ") }

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if let bad = joined.unicodeScalars.first(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
            throw ValidationError("the message contains control character U+\(String(bad.value, radix: 16, uppercase: true)); it must be one line")
        }
        guard joined.count <= Self.maximumLength else {
            throw ValidationError("the message is \(joined.count) characters; at most \(Self.maximumLength) are shown")
        }
    }

    func run() throws {
        let reply = try connection.send(joined.isEmpty ? "message" : "message " + joined)
        if !reply.isEmpty { print(reply) }
    }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that the daemon answers (prints `pong`).")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        print(try connection.send("ping"))
    }
}

struct Brightness: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set the display brightness, 0 to 100 (LED intensity; framebuffers scale colours)."
    )

    @Argument(help: ArgumentHelp("A whole number from 0 to 100.", valueName: "PERCENT"))
    var level: Int

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard (0...100).contains(level) else { throw ValidationError("brightness must be from 0 to 100, got \(level)") }
    }

    func run() throws {
        print(try connection.send("brightness \(level)"))
    }
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the daemon's version and protocol version.")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        print(try connection.send("version"))
    }
}
