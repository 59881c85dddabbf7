import CompactText

/// A parser for the subset of TOML that `loaderd.toml` uses, written by hand.
///
/// Why not a library: the TOML library on this machine's package mirror, TOMLKit (0.6.0), wraps
/// toml++ (C++) and its Swift layer imports Foundation (`import struct Foundation.Data` in its
/// decoder); a daemon linking it links libFoundation.so and libstdc++ (`ldd` shows both), about
/// 10 MB of resident memory before the first frame, against the daemon's "no Foundation" rule
/// and its 6 MB budget (DESIGN.md).
/// The subset below is small enough to parse in a few hundred lines, and owning it lets every
/// error carry the line, the column and the key (`loaderd.toml:12:9: display.scale: ...`).
///
/// Supported:
/// - comments (`# ...`), blank lines, `\n` or `\r\n` line ends, a leading byte order mark;
/// - `[table]`, `[a.b]`, `[[array of tables]]`;
/// - keys: bare (`A-Z a-z 0-9 _ -`), quoted (`"..."`, `'...'`) and dotted (`a.b = 1`);
/// - values: basic strings with escapes (`\" \\ \b \t \n \f \r \uXXXX \UXXXXXXXX`), literal
///   strings (`'...'`), integers (decimal with `_` separators, `0x`, `0o`, `0b`), floats
///   (`1.5`, `1e3`, `inf`, `nan`), booleans, arrays (may span lines, trailing comma allowed)
///   and inline tables (`{ a = "x", b = 2 }`, on one line).
///
/// Not supported (a clear error, never a silent misread): multi-line strings (`"""`, `'''`) and
/// dates and times.
///
/// The parser is in three files: positions, errors and whitespace here; tables and keys in
/// TOMLParser+Document.swift; values in TOMLParser+Values.swift.
enum TOML {
    /// Parses `text` into its root table. `source` names the file in errors.
    static func parse(_ text: String, source: String) throws(ConfigError) -> TOMLTable {
        var parser = TOMLParser(bytes: Array(text.utf8), source: source)
        return try parser.parseDocument()
    }

    /// Bytes stepped over to compute columns while parsing `text` (error or not): the measure of
    /// the parser's linearity that tests assert on (it was quadratic on one long line).
    static func columnWork(parsing text: String) -> Int {
        var parser = TOMLParser(bytes: Array(text.utf8), source: "")
        _ = try? parser.parseDocument()
        return parser.columnWork
    }
}

/// The bytes the TOML parser tests for (internal: the parser spans three files).
extension UInt8 {
    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    static let hash = UInt8(ascii: "#"), equals = UInt8(ascii: "="), dot = UInt8(ascii: "."), comma = UInt8(ascii: ",")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]"), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\"), underscore = UInt8(ascii: "_")

    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isLetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
    var isBareKey: Bool { isDigit || isLetter || self == .underscore || self == UInt8(ascii: "-") }
    var isWhitespace: Bool { self == .space || self == .tab }
}

/// The parser: one pass over the bytes, no backtracking beyond a token.
struct TOMLParser {
    /// Nesting limit for arrays and inline tables, so hostile input cannot exhaust the stack.
    static let maximumDepth = 32  // (written in parseValue's message too)
    /// Most tables a key may reach through, counting the header's parts, a dotted key's parts and
    /// enclosing inline tables (`a.b.c = 1` under `[x.y]` is 5 deep). The tree is released (and
    /// compared) recursively: without a bound, `a.a.a…a = 1` with 30,000 parts overflowed the
    /// stack when the tree was freed. A real loaderd.toml is 2 or 3 deep.
    static let maximumKeyDepth = 64  // (written in parseKey's message too)

    let bytes: [UInt8]
    let source: String
    var i = 0
    var line = 1
    var lineStart = 0
    /// The last column computed: positions are asked for left to right, so each is counted on
    /// from the previous one instead of from the start of the line (on a 100 KB one-line array
    /// the recount made parsing quadratic).
    let columnCache = ColumnCache()

    final class ColumnCache {
        var offset = 0
        var column = 1
        var stepped = 0
    }
    var columnWork: Int { columnCache.stepped }

    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
        // A byte order mark is allowed at the very start.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3; lineStart = 3 }
    }

    // MARK: Positions and errors

    var position: SourcePosition { position(at: i) }

    /// Line and column of byte `offset` on the current line (columns count characters).
    func position(at offset: Int) -> SourcePosition {
        var column = 1
        var k = lineStart
        if columnCache.offset >= lineStart && columnCache.offset <= offset {
            column = columnCache.column
            k = columnCache.offset
        }
        let from = k
        while k < offset && k < bytes.count {
            if bytes[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        columnCache.stepped += k - from
        columnCache.offset = k
        columnCache.column = column
        return SourcePosition(line: line, column: column)
    }

    func error(_ message: String, at position: SourcePosition? = nil, key: [String] = []) -> ConfigError {
        error(message, at: position, dottedKey: key.isEmpty ? nil : joined(key, separator: "."))
    }

    func error(_ message: String, at position: SourcePosition?, dottedKey: String?) -> ConfigError {
        let p = position ?? self.position
        return ConfigError(source: source, line: p.line, column: p.column, key: dottedKey, message: message)
    }

    /// "WHAT, found 'x'" at the cursor: the parser's syntax errors, built in one place.
    @inline(never) func unexpected(_ what: String, key: [String] = []) -> ConfigError {
        error(filled("{}, found {}", what, found), key: key)
    }

    /// The character at `i`, for messages: `'x'`, `end of line`, `end of file`.
    var found: String {
        guard i < bytes.count else { return "end of file" }
        let b = bytes[i]
        if b == .newline || b == .carriageReturn { return "end of line" }
        if b < 0x20 || b == 0x7F { return "control character U+" + String(b, radix: 16, uppercase: true) }
        var end = i + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return filled("'{}'", utf8Text(bytes, i, end))
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    // MARK: Whitespace, comments, line ends

    mutating func skipWhitespace() {
        while i < bytes.count && bytes[i].isWhitespace { i += 1 }
    }

    /// A comment runs to the end of the line; control characters other than tab are refused.
    /// (A call: it was inlined at each of its three callers, for size.)
    @inline(never) mutating func skipComment() throws(ConfigError) {
        guard peek == .hash else { return }
        while i < bytes.count && bytes[i] != .newline {
            let b = bytes[i]
            if b == .carriageReturn && i + 1 < bytes.count && bytes[i + 1] == .newline { break }
            if (b < 0x20 && b != .tab) || b == 0x7F { throw error(found + " in a comment") }
            i += 1
        }
    }

    /// Consumes a line end (`\n` or `\r\n`) if one is next; returns whether it did. (A call, as
    /// `skipComment`.)
    @inline(never) mutating func consumeNewline() throws(ConfigError) -> Bool {
        guard let b = peek else { return false }
        if b == .newline { i += 1 } else if b == .carriageReturn {
            guard i + 1 < bytes.count && bytes[i + 1] == .newline else { throw error("a carriage return must be followed by a newline") }
            i += 2
        } else {
            return false
        }
        line += 1
        lineStart = i
        return true
    }

    /// After a header or key/value: only spaces and a comment may follow on the line.
    /// A call: inlined into `parseHeader` and `parseDocument`, each held a copy (for size).
    @inline(never) mutating func expectEndOfLine(after what: String, key: [String] = []) throws(ConfigError) {
        skipWhitespace()
        try skipComment()
        guard i < bytes.count else { return }
        guard try consumeNewline() else {
            throw unexpected("expected the end of the line after " + what, key: key)
        }
    }

    /// Spaces, newlines and comments (inside arrays).
    mutating func skipBlankSpace() throws(ConfigError) {
        while true {
            skipWhitespace()
            try skipComment()
            if !(try consumeNewline()) { return }
        }
    }
}
