import CommandLineKit
import Loaders
import CompactText

// The daemon verbs: each builds one request line of docs/PROTOCOL.md, checks what can be checked
// here (so a typo is a usage error, exit 2, without a round trip), sends it with
// `ConnectionOptions.send` and prints the reply's data. The daemon stays authoritative.
// `stop` and `progress` have files of their own (stop --wait, negative progress).

/// A control character or a Unicode line or paragraph separator: what would break a request line.
func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
    TerminalText.isControl(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}"
}

/// A request word must not break the line framing or the space-separated words.
func checkWord(_ word: String, what: String) throws(CommandError) {
    if word.isEmpty { throw .usage("\(what) must not be empty") }
    if let bad = word.unicodeScalars.first(where: { $0 == " " || breaksLine($0) }) {
        let shown = bad == " " ? "a space" : "control character " + hexCode(bad)
        throw .usage("\(what) '\(word)' contains \(shown); the protocol separates words with spaces and requests with newlines")
    }
}

/// A `key=value` parameter as a protocol word: a value with a space (a shimmer's text), or one
/// that begins with a quote, goes in double quotes with `"` and `\` escaped (docs/PROTOCOL.md).
/// The key and line breaks are checked as any word is.
func parameterWord(_ word: String) throws(CommandError) -> String {
    guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
        try checkWord(word, what: "parameter")
        return word
    }
    try checkWord(String(word[..<eq]), what: "parameter key")
    let value = word[word.index(after: eq)...]
    if let bad = value.unicodeScalars.first(where: breaksLine) {
        throw .usage("parameter '\(word)' contains control character \(hexCode(bad)); the protocol separates requests with newlines")
    }
    let bytes = Array(value.utf8)
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    guard bytes.contains(UInt8(ascii: " ")) || bytes.first == quote else { return word }
    var quoted = Array(word[...eq].utf8) + [quote]
    for b in bytes {
        if b == quote || b == backslash { quoted.append(backslash) }
        quoted.append(b)
    }
    return String(decoding: quoted + [quote], as: UTF8.self)
}

/// A verb that takes no arguments, sends `request` and prints the reply.
private func simpleVerb(_ name: String, abstract: String, request: String) -> Verb {
    var page = HelpPage(abstract: abstract, usage: "loaderctl \(name) " + ConnectionOptions.usage)
    page.options = ConnectionOptions.options
    return Verb(name: name, page: page) { [page] (parsed) throws(CommandError) in
        _ = try parsed.verbArguments(required: [], optional: 0, options: page.options)
        let connection = try ConnectionOptions(parsed)
        connection.say(try connection.send(request))
    }
}

enum DaemonVerbs {
    static let ping = simpleVerb("ping", abstract: "Check that the daemon answers (prints `pong`).", request: "ping")
    static let version = simpleVerb("version", abstract: "Print the daemon's version and protocol version.", request: "version")

    static let start: Verb = {
        var page = HelpPage(
            abstract: "Start a loader on the daemon's displays (from t = 0).",
            discussion: """
                Parameters are the loader's key=value settings (see `loaderctl list`); they are checked \
                against this loaderctl's catalog before anything is sent. Starting the loader that is \
                already running with the same parameters keeps its time.
                Example: loaderctl start linkedin fill=#0a66c2 duration=1.2
                A value may hold spaces: loaderctl start shimmer 'text=Hello world'
                """,
            usage: "loaderctl start <name> [<key=value> ...] " + ConnectionOptions.usage)
        page.arguments = [ArgumentSpec("<name>", help: "The loader (see `loaderctl list`)."),
                          ArgumentSpec("<key=value>", help: "Loader parameters.")]
        page.options = ConnectionOptions.options
        return Verb(name: "start", page: page) { [page] (parsed) throws(CommandError) in
            let words = try parsed.verbArguments(required: ["<name>"], optional: nil, options: page.options)
            let name = words[0], parameters = Array(words.dropFirst())
            let connection = try ConnectionOptions(parsed)
            try checkWord(name, what: "loader name")
            var request = "start " + name
            for word in parameters { request += " " + (try parameterWord(word)) }
            try checkLoader(name, parameters)
            connection.say(try connection.send(request))
        }
    }()

    static let maximumMessageLength = 256

    static let message: Verb = {
        var page = HelpPage(
            abstract: "Show a line of text under the loader; without text, clear it.",
            discussion: """
                The words are joined with single spaces (quote the text to keep several). At most \
                \(maximumMessageLength) characters.
                Example: loaderctl message Starting network
                Text that begins with `-` goes after `--` (the end of the options): loaderctl message -- -v
                A word with a space is text wherever it stands: loaderctl message '- eth0 up'
                """,
            usage: "loaderctl message [<text> ...] " + ConnectionOptions.usage)
        page.arguments = [ArgumentSpec("<text>", help: "The message (none: clear the message line).")]
        page.options = ConnectionOptions.options
        return Verb(name: "message", page: page) { [page] (parsed) throws(CommandError) in
            let joined = try parsed.verbArguments(required: [], optional: nil, options: page.options).joined(separator: " ")
            let connection = try ConnectionOptions(parsed)
            // The daemon refuses every control character (a tab too): refused here, exit 2, as any
            // other bad argument, rather than sent and refused (exit 1).
            if let bad = joined.unicodeScalars.first(where: TerminalText.isControl) {
                let named = bad == "\t" ? "a tab (U+9)" : "control character " + hexCode(bad)
                throw .usage("the message contains \(named); it must be one line of printable text")
            }
            // Counted as the daemon counts it: in Unicode scalars (one glyph each, as drawn).
            let length = joined.unicodeScalars.count
            guard length <= maximumMessageLength else {
                throw .usage("the message is \(length) characters; at most \(maximumMessageLength) are accepted")
            }
            let reply = try connection.send(joined.isEmpty ? "message" : "message " + joined)
            if !reply.isEmpty { connection.say(reply) }
        }
    }()

    static let brightness: Verb = {
        var page = HelpPage(
            abstract: "Set the display brightness, 0 (off) to 100: a MAX7219's intensity, other displays' colours scaled.",
            usage: "loaderctl brightness <PERCENT> " + ConnectionOptions.usage)
        page.arguments = [ArgumentSpec("<PERCENT>", help: "A whole number from 0 to 100.")]
        page.options = ConnectionOptions.options
        return Verb(name: "brightness", page: page) { [page] (parsed) throws(CommandError) in
            let words = try parsed.verbArguments(required: ["<PERCENT>"], optional: 0, options: page.options)
            // Written as the daemon reads it: "+5" and "-0" were taken here and sent as 5 and 0
            // (a negative number is told the range below).
            guard let level = Int(words[0]), words[0].utf8.first != UInt8(ascii: "+"), level != 0 || words[0].utf8.first != UInt8(ascii: "-") else {
                throw .usage("The value '\(words[0])' is invalid for '<PERCENT>'; brightness takes a whole number from 0 to 100")
            }
            let connection = try ConnectionOptions(parsed)
            guard (0...100).contains(level) else { throw .usage("brightness must be from 0 to 100, got \(level)") }
            connection.say(try connection.send("brightness \(level)"))
        }
    }()
}

/// The loader and its parameters against this loaderctl's catalog.
@discardableResult
func checkLoader(_ name: String, _ parameters: [String]) throws(CommandError) -> AnyLoader {
    let pairs: [(key: String, value: String)]
    do throws(ParameterError) {
        pairs = try Parameters.assignments(from: parameters, loader: name)
    } catch {
        throw .usage(error.description)
    }
    // The daemon refuses a key given twice (exit 1 after a round trip); so does loaderd's --set.
    for (i, pair) in pairs.enumerated() where pairs[..<i].contains(where: { $0.key == pair.key }) {
        throw .usage("parameter '\(pair.key)' is given twice; give each parameter once")
    }
    do throws(LoaderError) {
        return try Catalog.make(name, assignments: pairs)
    } catch {
        throw .usage(error.description)
    }
}
