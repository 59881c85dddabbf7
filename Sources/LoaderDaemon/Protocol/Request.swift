import CompactText

// Standard library only: this file is compiled into the protocol fuzzer as it is (Fuzz/).
// docs/PROTOCOL.md is the specification; keep the two in step.

/// One request of the control protocol, parsed but not yet checked against the catalog.
public enum Request: Equatable, Sendable {
    case ping
    case version
    case list
    case status
    /// `start NAME [key=value]...`
    case start(name: String, assignments: [Assignment])
    /// `stop`, `stop success`, `stop failure`, `stop now`
    case stop(StopRequest)
    /// `progress N [force]`
    case progress(Percent, force: Bool)
    /// `message TEXT...` (nil: `message` alone clears it)
    case message(String?)
    /// `brightness N`
    case brightness(Int)

    /// The command names, in the order error messages list them.
    public static let commandNames = ["ping", "version", "start", "stop", "progress", "message", "status", "list", "brightness"]
    /// Longest message text accepted, in characters.
    public static let maximumMessageLength = 256
}

/// A loader parameter as written after `start NAME`.
public struct Assignment: Equatable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) { self.key = key; self.value = value }
}

public enum StopRequest: String, Equatable, Sendable {
    /// `stop`: the exit animation, then clear.
    case exit
    case success
    case failure
    /// `stop now`: clear at once.
    case now
}

/// A percentage from 0 to 100 in thousandths of a percent, parsed from a decimal without floating
/// point (so `1e999`, `nan` and `inf` are simply not numbers here).
public struct Percent: Equatable, Comparable, Sendable, CustomStringConvertible {
    /// 0...100_000.
    public let thousandths: Int

    public static let zero = Percent(thousandths: 0)
    public static let hundred = Percent(thousandths: 100_000)

    public init(thousandths: Int) {
        precondition((0...100_000).contains(thousandths), "percent out of range")
        self.thousandths = thousandths
    }

    /// Parses `D+[.D*]` or `.D+` from 0 to 100; digits past the third decimal are rounded.
    public init?(parsing text: Substring) {
        var integer = 0, fraction = 0, fractionDigits = 0
        var sawDigit = false, sawPoint = false, roundUp = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = Int(byte - UInt8(ascii: "0"))
                if !sawPoint {
                    integer = integer * 10 + digit
                    if integer > 100 { return nil }
                } else if integer == 100 && digit != 0 {
                    return nil  // 100.0001 is over 100, even if it would round to it
                } else if fractionDigits < 3 {
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                } else if fractionDigits == 3 {
                    roundUp = digit >= 5
                    fractionDigits += 1
                }
            case UInt8(ascii: "."):
                if sawPoint { return nil }
                sawPoint = true
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        while fractionDigits < 3 { fraction *= 10; fractionDigits += 1 }
        let value = integer * 1000 + fraction + (roundUp ? 1 : 0)
        guard value <= 100_000 else { return nil }
        thousandths = value
    }

    public static func < (a: Percent, b: Percent) -> Bool { a.thousandths < b.thousandths }

    /// `40`, `40.5`, `33.333`: no trailing zeros.
    public var description: String {
        let whole = thousandths / 1000
        var fraction = thousandths % 1000
        if fraction == 0 { return String(whole) }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        var f = String(fraction)
        while f.utf8.count < digits { f = "0" + f }
        return filled("{}.{}", String(whole), f)
    }

    /// `40.0`, `40.5`, `33.333`: always a decimal point (for JSON readers that want a float).
    public var jsonDescription: String {
        let text = description
        return thousandths % 1000 == 0 ? text + ".0" : text
    }
}

/// The error codes of docs/PROTOCOL.md.
public enum ErrorCode: String, Sendable {
    case unknownCommand = "unknown-command"
    case usage
    case unknownLoader = "unknown-loader"
    case badParameter = "bad-parameter"
    case badNumber = "bad-number"
    case tooLong = "too-long"
    case encoding
    case busy
    case denied
}

/// A refused request: `ERR <code> <message>`.
public struct ProtocolError: Error, Equatable, Sendable {
    public var code: ErrorCode
    public var message: String
    public init(_ code: ErrorCode, _ message: String) { self.code = code; self.message = message }
    /// The reply line without its `\n`. Out of line: the daemon makes it in three places (for size).
    public var reply: String {
        @inline(never) get { filled("ERR {} {}", code.rawValue, message) }
    }
}

public enum RequestParser {
    /// At most this many bytes of a bad word are quoted back in an error message.
    static let quoteLimit = 40

    /// Parses one request line (without its `\n`; a final `\r` is dropped). Never traps, whatever
    /// the bytes.
    public static func parse(_ line: UnsafeRawBufferPointer) -> Result<Request, ProtocolError> {
        var bytes = line
        // Cut by a range, not `dropLast()`: the generic index arithmetic was more code (for size).
        if let last = bytes.last, last == 0x0D { bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - 1)]) }
        if bytes.contains(0) { return refuse(.encoding, "the request contains a NUL byte") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return refuse(.encoding, "the request is not valid UTF-8")
        }
        return parse(text)
    }

    /// Parses one request line that is already text (no `\n`).
    public static func parse(_ text: String) -> Result<Request, ProtocolError> {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let command = words.first else {
            return refuse(.unknownCommand, "empty request; commands: " + commandList)
        }
        let arguments = words.dropFirst()
        let count = arguments.count
        // The command by its place in `Request.commandNames`: one comparison in a loop, not one
        // inlined at each case of a switch over the strings.
        switch commandIndex(command) {
        case 0: return noArguments(count, .ping, usage: "ping")
        case 1: return noArguments(count, .version, usage: "version")
        case 7: return noArguments(count, .list, usage: "list")
        case 6: return noArguments(count, .status, usage: "status")
        case 2:
            return parseStart(text[command.endIndex...])
        case 3:
            let usage = "usage: stop [success|failure|now]"
            if count == 0 { return .success(.stop(.exit)) }
            guard count == 1 else { return refuse(.usage, usage) }
            let kind = arguments.first!
            switch kind {
            case "success": return .success(.stop(.success))
            case "failure": return .success(.stop(.failure))
            case "now": return .success(.stop(.now))
            default: return refuse(.usage, "unknown stop kind ", kind, "; ", usage)
            }
        case 4:
            let usage = "usage: progress N [force] (N a decimal from 0 to 100)"
            guard count == 1 || count == 2 else { return refuse(.usage, usage) }
            let force = count == 2
            if force && arguments.last! != "force" {
                return refuse(.usage, "expected 'force' after the number, got ", arguments.last!, "; ", usage)
            }
            guard let value = Percent(parsing: arguments.first!) else {
                return refuse(.badNumber, "progress must be a decimal from 0 to 100 (e.g. 42 or 42.5), got ", arguments.first!, "")
            }
            return .success(.progress(value, force: force))
        case 5:
            // The text is the rest of the line after the command and its spaces, as it is: from
            // the first word after the command (split found it), not skipping spaces again.
            guard count > 0 else { return .success(.message(nil)) }
            let rest = text[arguments.first!.startIndex...]
            let length = rest.unicodeScalars.count  // counted once (Unicode scalars: one glyph each, as drawn)
            if length > Request.maximumMessageLength {
                // The limit written out: one value fewer (for size). Keep it in step.
                return refuse(.usage, filled("a message is at most 256 characters, got {}", String(length)))
            }
            // Stored and shown by `status`: an escape sequence would run in the terminal of whoever
            // reads it. Refused, as the config file refuses it.
            if let refusal = refusingControl(rest, "a message", nil) { return refusal }
            return .success(.message(String(rest)))
        case 8:
            let usage = "usage: brightness N (N a whole number from 0 to 100)"
            guard count == 1 else { return refuse(.usage, usage) }
            let word = arguments.first!
            // One to three digits, read on the bytes: the generic `Int(_:)` was more code (for size).
            var value = 0, digits = 0
            for byte in word.utf8 {
                digits += 1
                guard digits <= 3, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { value = 101; break }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            guard digits > 0, value <= 100 else {
                return refuse(.badNumber, "brightness must be a whole number from 0 to 100, got ", word, "")
            }
            return .success(.brightness(value))
        default:
            return refuse(.unknownCommand, "unknown command ", command, "; commands: ", commandList)
        }
    }

    /// The place of `word` in `Request.commandNames`; -1 when it is none of them.
    @inline(never)
    static func commandIndex(_ word: Substring) -> Int {
        let names = Request.commandNames
        for i in names.indices where names[i] == word { return i }
        return -1
    }

    /// A refusal: every error reply is made here rather than at each of its sites.
    @inline(never)
    static func refuse(_ code: ErrorCode, _ message: String) -> Result<Request, ProtocolError> {
        .failure(ProtocolError(code, message))
    }

    /// A refusal that quotes a word of the request back: `head'word'tail` and `more` (a usage,
    /// a list: joined here rather than at each site).
    @inline(never)
    static func refuse(_ code: ErrorCode, _ head: String, _ word: Substring, _ tail: String, _ more: String = "") -> Result<Request, ProtocolError> {
        .failure(refusal(code, head, word, tail, more))
    }

    /// The error of `refuse(_:_:_:_:_:)`, for the daemon's own refusals too (an unknown loader).
    @inline(never)
    public static func refusal(_ code: ErrorCode, _ head: String, _ word: Substring, _ tail: String, _ more: String = "") -> ProtocolError {
        ProtocolError(code, filled("{}'{}'{}{}", head, quote(word), tail, more))
    }

    /// The refusal of a text with a control character (`head`, then the quoted `key` if any,
    /// names the text); nil when it has none. The message's and a parameter's, made here once.
    @inline(never)
    static func refusingControl(_ text: Substring, _ head: String, _ key: Substring?) -> Result<Request, ProtocolError>? {
        guard let control = firstControl(text) else { return nil }
        let what = key.map { filled("{}'{}'", head, quote($0)) } ?? head
        return refuse(.encoding, filled("{} is one line of printable text; control character {} is refused", what, escaped(control)))
    }

    /// The value of the first control character in `text` (C0, DEL and C1, 0x80–0x9F: CSI is
    /// 0x9B; what a terminal may act on), nil when it has none: the requests', the config file's
    /// and the command line's check, one out-of-line scan of the UTF-8 bytes (for size). C0 and
    /// DEL are one byte each, C1 is 0xC2 followed by 0x80–0x9F, whose value is that second byte.
    @inline(never)
    public static func firstControl(_ text: Substring) -> UInt32? {
        var previous: UInt8 = 0
        for b in text.utf8 {
            if b < 0x20 || b == 0x7F || (previous == 0xC2 && b < 0xA0) { return UInt32(b) }
            previous = b
        }
        return nil
    }

    /// `Request.commandNames` joined with ", ", written out: joining the array at first use was
    /// more code than the text (for size). Keep the two in step.
    static let commandList = "ping, version, start, stop, progress, message, status, list, brightness"

    static let startUsage = "usage: start NAME [key=value]... (a value with spaces in double quotes: text=\"Hello world\")"

    /// The text of some bytes of a request (whole UTF-8: cut only at ASCII bytes).
    @inline(never)
    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A text's UTF-8 bytes: one out-of-line copy for the byte loops that rewrite a text (for size).
    @inline(never)
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// One byte appended: one out-of-line copy for the byte loops' many appends (for size).
    @inline(never)
    static func append(_ byte: UInt8, to out: inout [UInt8]) { out.append(byte) }

    /// `start NAME [key=value]...` after the command. A value that begins with `"` runs to the
    /// next `"` not escaped by `\` (`\"` and `\\` inside stand for `"` and `\`), so it may hold
    /// spaces; any other value is the rest of its word. Read as bytes: every byte that matters is
    /// ASCII, so the text between them is whole UTF-8.
    private static func parseStart(_ text: Substring) -> Result<Request, ProtocolError> {
        let bytes = Array(text.utf8)
        let space = UInt8(ascii: " "), equals = UInt8(ascii: "="), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var name: String? = nil
        var assignments: [Assignment] = []
        var i = 0
        while true {
            while i < bytes.count && bytes[i] == space { i += 1 }
            if i == bytes.count { break }
            var end = i
            while end < bytes.count && bytes[end] != space && (name == nil || bytes[end] != equals) { end += 1 }
            guard name != nil else { name = self.text(bytes[i..<end]); i = end; continue }
            guard end < bytes.count, bytes[end] == equals, end != i else {
                while end < bytes.count && bytes[end] != space { end += 1 }
                return refuse(.badParameter, "", Substring(self.text(bytes[i..<end])), " is not key=value; ", startUsage)
            }
            let key = self.text(bytes[i..<end])
            var value: [UInt8] = []
            i = end + 1
            // A quoted value runs to the closing quote, which ends the word; any other to the
            // word's end. One loop for both: one append of a byte.
            let quoted = i < bytes.count && bytes[i] == quote
            if quoted { i += 1 }
            var closed = !quoted
            while i < bytes.count {
                var b = bytes[i]
                if quoted {
                    i += 1
                    if b == quote { closed = true; break }
                    if b == backslash && i < bytes.count && (bytes[i] == quote || bytes[i] == backslash) {
                        b = bytes[i]
                        i += 1
                    }
                } else {
                    if b == space { break }
                    i += 1
                }
                append(b, to: &value)
            }
            guard closed else {
                return refuse(.badParameter, "the value of ", Substring(key), " has no closing quote; ", startUsage)
            }
            guard !quoted || i == bytes.count || bytes[i] == space else {
                return refuse(.badParameter, "the quoted value of ", Substring(key), " is followed by more than a space; ", startUsage)
            }
            // Which of two values would win is nobody's guess: refused, as the config file
            // refuses a key set twice.
            if assignments.contains(where: { $0.key == key }) {
                return refuse(.badParameter, "parameter ", Substring(key), " is given twice; give each parameter once")
            }
            let text = self.text(value[...])
            // A value is drawn (a shimmer's text) or read as a word: one line of printable text, as
            // a message is (loaderctl refuses the same before sending).
            if let refusal = refusingControl(Substring(text), "the value of ", Substring(key)) { return refusal }
            assignments.append(Assignment(key: key, value: text))
        }
        guard let name else { return refuse(.usage, startUsage) }
        return .success(.start(name: name, assignments: assignments))
    }

    private static func noArguments(_ count: Int, _ request: Request, usage: String) -> Result<Request, ProtocolError> {
        count == 0 ? .success(request) : refuse(.usage, filled("usage: {} (no arguments)", usage))
    }

    /// A word to quote back, cut to a few characters so a reply stays short, control
    /// characters written as `\u{1B}` (a reply is shown on terminals).
    static func quote(_ word: Substring) -> String {
        let cut = word.prefix(scalars: quoteLimit)  // Unicode scalars, as the reply shows them
        return escapingControlCharacters(cut.endIndex == word.endIndex ? String(word) : String(cut) + "…")
    }

    /// A scalar's value as `\u{1B}`.
    static func escaped(_ value: UInt32) -> String {
        "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }

    /// `text` with each control character written as `\u{1B}`; the text itself when it has none.
    /// Every reply goes through this: whatever a request or a parameter error echoes back, no
    /// raw escape sequence reaches a client's terminal. Read as UTF-8 bytes in one pass (for
    /// size): C0 and DEL are one byte each, C1 is 0xC2 followed by 0x80–0x9F.
    public static func escapingControlCharacters(_ text: String) -> String {
        let bytes = RequestParser.bytes(text)
        var out: [UInt8] = []
        var changed = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            var control: UInt32? = nil
            if b < 0x20 || b == 0x7F {
                control = UInt32(b)
            } else if b == 0xC2 && i + 1 < bytes.count && bytes[i + 1] < 0xA0 {
                i += 1
                control = UInt32(bytes[i])
            }
            if let control {
                changed = true
                out.append(contentsOf: escaped(control).utf8)
            } else {
                append(b, to: &out)
            }
            i += 1
        }
        return changed ? self.text(out[...]) : text
    }
}
