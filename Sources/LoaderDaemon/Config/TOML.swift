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

private extension UInt8 {
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
    static let maximumDepth = 32
    /// Most tables a key may reach through, counting the header's parts, a dotted key's parts and
    /// enclosing inline tables (`a.b.c = 1` under `[x.y]` is 5 deep). The tree is released (and
    /// compared) recursively: without a bound, `a.a.a…a = 1` with 30,000 parts overflowed the
    /// stack when the tree was freed. A real loaderd.toml is 2 or 3 deep.
    static let maximumKeyDepth = 64

    let bytes: [UInt8]
    let source: String
    private var i = 0
    private var line = 1
    private var lineStart = 0
    /// The last column computed: positions are asked for left to right, so each is counted on
    /// from the previous one instead of from the start of the line (on a 100 KB one-line array
    /// the recount made parsing quadratic).
    private let columnCache = ColumnCache()

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
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3; lineStart = 3 }
    }

    // MARK: Positions and errors

    private var position: SourcePosition { position(at: i) }

    /// Line and column of byte `offset` on the current line (columns count characters).
    private func position(at offset: Int) -> SourcePosition {
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

    private func error(_ message: String, at position: SourcePosition? = nil, key: [String] = []) -> ConfigError {
        let p = position ?? self.position
        return ConfigError(source: source, line: p.line, column: p.column, key: key.isEmpty ? nil : key.joined(separator: "."), message: message)
    }

    /// The character at `i`, for messages: `'x'`, `end of line`, `end of file`.
    private var found: String {
        guard i < bytes.count else { return "end of file" }
        let b = bytes[i]
        if b == .newline || b == .carriageReturn { return "end of line" }
        if b < 0x20 || b == 0x7F { return "control character U+" + String(b, radix: 16, uppercase: true) }
        var end = i + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: bytes[i..<end], as: UTF8.self) + "'"
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    // MARK: Whitespace, comments, line ends

    private mutating func skipWhitespace() {
        while i < bytes.count && bytes[i].isWhitespace { i += 1 }
    }

    /// A comment runs to the end of the line; control characters other than tab are refused.
    private mutating func skipComment() throws(ConfigError) {
        guard peek == .hash else { return }
        while i < bytes.count && bytes[i] != .newline {
            let b = bytes[i]
            if b == .carriageReturn && i + 1 < bytes.count && bytes[i + 1] == .newline { break }
            if (b < 0x20 && b != .tab) || b == 0x7F { throw error("\(found) in a comment") }
            i += 1
        }
    }

    /// Consumes a line end (`\n` or `\r\n`) if one is next; returns whether it did.
    private mutating func consumeNewline() throws(ConfigError) -> Bool {
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
    private mutating func expectEndOfLine(after what: String, key: [String] = []) throws(ConfigError) {
        skipWhitespace()
        try skipComment()
        guard i < bytes.count else { return }
        guard try consumeNewline() else {
            throw error("expected the end of the line after \(what), found \(found)", key: key)
        }
    }

    /// Spaces, newlines and comments (inside arrays).
    private mutating func skipBlankSpace() throws(ConfigError) {
        while true {
            skipWhitespace()
            try skipComment()
            if !(try consumeNewline()) { return }
        }
    }

    // MARK: Document

    mutating func parseDocument() throws(ConfigError) -> TOMLTable {
        let root = TOMLTable(origin: .header, position: SourcePosition(line: 1, column: 1))
        var current = root
        var currentPath: [String] = []
        while true {
            skipWhitespace()
            try skipComment()
            if i >= bytes.count { break }
            if try consumeNewline() { continue }
            if peek == .openBracket {
                (current, currentPath) = try parseHeader(root: root)
            } else {
                let key = try parseKeyValue(into: current, path: currentPath)
                try expectEndOfLine(after: "the value", key: key)
            }
        }
        return root
    }

    /// `[a.b]` or `[[a.b]]`: returns the table that the following key/values go into.
    private mutating func parseHeader(root: TOMLTable) throws(ConfigError) -> (TOMLTable, [String]) {
        let start = position
        i += 1
        let isArray = peek == .openBracket
        if isArray { i += 1 }
        skipWhitespace()
        let keys = try parseKey()
        skipWhitespace()
        guard peek == .closeBracket else { throw error("expected '\(isArray ? "]]" : "]")' to close the table header, found \(found)") }
        i += 1
        if isArray {
            guard peek == .closeBracket else { throw error("expected ']]' to close the array-of-tables header, found \(found)") }
            i += 1
        }
        let path = keys.map { $0.key }
        let shownHeader = isArray ? "[[\(path.joined(separator: "."))]]" : "[\(path.joined(separator: "."))]"
        try expectEndOfLine(after: "the table header \(shownHeader)")

        var table = root
        for (n, part) in keys.dropLast().enumerated() {
            if let k = table.index(of: part.key) {
                switch table.entries[k].value.kind {
                case .table(let t) where t.origin != .inline:
                    table = t
                case .tableArray(let list):
                    table = list[list.count - 1]
                default:
                    throw error("'\(path[...n].joined(separator: "."))' is already a value (line \(table.entries[k].keyPosition.line)), not a table", at: part.position)
                }
            } else {
                let t = TOMLTable(origin: .implicit, position: part.position)
                table.append(TOMLEntry(key: part.key, keyPosition: part.position, value: TOMLValue(kind: .table(t), position: part.position)))
                table = t
            }
        }
        let last = keys[keys.count - 1]
        if let k = table.index(of: last.key) {
            let existing = table.entries[k]
            switch existing.value.kind {
            case .table(let t) where !isArray && t.origin == .implicit:
                t.origin = .header
                t.position = start
                return (t, path)
            case .tableArray(var list) where isArray:
                let t = TOMLTable(origin: .header, position: start)
                list.append(t)
                table.setKind(at: k, .tableArray(list))
                return (t, path)
            case .tableArray:
                throw error("'\(path.joined(separator: "."))' is an array of tables (line \(existing.keyPosition.line)): write [[\(path.joined(separator: "."))]] for another one", at: last.position)
            case .table(let t) where isArray && t.origin != .inline:
                throw error("'\(path.joined(separator: "."))' is a table (line \(existing.keyPosition.line)), not an array of tables: write [\(path.joined(separator: "."))] once", at: last.position)
            case .table:
                throw error("\(shownHeader) is defined twice (first at line \(existing.keyPosition.line))", at: last.position)
            default:
                throw error("'\(path.joined(separator: "."))' is already a value (line \(existing.keyPosition.line)), not a table", at: last.position)
            }
        }
        let t = TOMLTable(origin: .header, position: start)
        let value = isArray ? TOMLValue.Kind.tableArray([t]) : .table(t)
        table.append(TOMLEntry(key: last.key, keyPosition: last.position, value: TOMLValue(kind: value, position: start)))
        return (t, path)
    }

    // MARK: Keys

    /// `a`, `"a b"`, `'a'`, `a.b."c"`: the parts and where each starts.
    private mutating func parseKey(enclosingDepth: Int = 0) throws(ConfigError) -> [(key: String, position: SourcePosition)] {
        var parts: [(key: String, position: SourcePosition)] = []
        while true {
            let start = position
            guard enclosingDepth + parts.count < Self.maximumKeyDepth else {
                throw error("a key may be at most \(Self.maximumKeyDepth) tables deep (counting the table header, the dotted key's parts and enclosing inline tables); this one is deeper")
            }
            guard let b = peek else { throw error("expected a key, found end of file") }
            if b == .quote {
                parts.append((try parseBasicString(key: []), start))
            } else if b == .apostrophe {
                parts.append((try parseLiteralString(key: []), start))
            } else if b.isBareKey {
                let from = i
                while i < bytes.count && bytes[i].isBareKey { i += 1 }
                parts.append((String(decoding: bytes[from..<i], as: UTF8.self), start))
            } else {
                throw error("expected a key (letters, digits, '_', '-', or a quoted key), found \(found)")
            }
            skipWhitespace()
            guard peek == .dot else { return parts }
            i += 1
            skipWhitespace()
        }
    }

    /// `key = value` into `table`; dotted keys make (or extend) dotted tables.
    @discardableResult
    private mutating func parseKeyValue(into table: TOMLTable, path: [String], depth: Int = 0) throws(ConfigError) -> [String] {
        let keys = try parseKey(enclosingDepth: path.count)
        let fullPath = path + keys.map { $0.key }
        skipWhitespace()
        guard peek == .equals else {
            throw error("expected '=' after the key '\(keys.map { $0.key }.joined(separator: "."))', found \(found)", key: path)
        }
        i += 1
        skipWhitespace()
        var target = table
        for (n, part) in keys.dropLast().enumerated() {
            if let k = target.index(of: part.key) {
                guard case .table(let t) = target.entries[k].value.kind, t.origin == .dotted else {
                    throw error("'\((path + keys[...n].map { $0.key }).joined(separator: "."))' is already defined (line \(target.entries[k].keyPosition.line)); it cannot be extended with a dotted key", at: part.position)
                }
                target = t
            } else {
                let t = TOMLTable(origin: .dotted, position: part.position)
                target.append(TOMLEntry(key: part.key, keyPosition: part.position, value: TOMLValue(kind: .table(t), position: part.position)))
                target = t
            }
        }
        let last = keys[keys.count - 1]
        if let existing = target[last.key] {
            throw error("duplicate key '\(last.key)' (first set at line \(existing.keyPosition.line))", at: last.position, key: fullPath.dropLast().map { $0 })
        }
        let value = try parseValue(key: fullPath, depth: depth)
        target.append(TOMLEntry(key: last.key, keyPosition: last.position, value: value))
        return fullPath
    }

    // MARK: Values

    private mutating func parseValue(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
        let start = position
        guard let b = peek, b != .newline, b != .carriageReturn, b != .hash else {
            throw error("expected a value after '=', found \(found)", key: key)
        }
        switch b {
        case .quote:
            if bytes[i...].starts(with: [.quote, .quote, .quote]) {
                throw error("multi-line strings (\"\"\") are not supported; use \\n in a one-line string", key: key)
            }
            return TOMLValue(kind: .string(try parseBasicString(key: key)), position: start)
        case .apostrophe:
            if bytes[i...].starts(with: [.apostrophe, .apostrophe, .apostrophe]) {
                throw error("multi-line strings (''') are not supported; use \\n in a one-line string", key: key)
            }
            return TOMLValue(kind: .string(try parseLiteralString(key: key)), position: start)
        case .openBracket:
            guard depth < Self.maximumDepth else { throw error("arrays and inline tables nested more than \(Self.maximumDepth) deep", key: key) }
            return try parseArray(key: key, depth: depth + 1)
        case .openBrace:
            guard depth < Self.maximumDepth else { throw error("arrays and inline tables nested more than \(Self.maximumDepth) deep", key: key) }
            return try parseInlineTable(key: key, depth: depth + 1)
        default:
            return try parseScalarWord(key: key)
        }
    }

    /// `"..."` with escapes; the cursor is on the opening quote.
    private mutating func parseBasicString(key: [String]) throws(ConfigError) -> String {
        let open = position
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count, bytes[i] != .newline, bytes[i] != .carriageReturn else {
                throw error("unterminated string; a string must end on the line where it starts", at: open, key: key)
            }
            let b = bytes[i]
            if b == .quote { i += 1; return String(decoding: out, as: UTF8.self) }
            if (b < 0x20 && b != .tab) || b == 0x7F {
                throw error("\(found) in a string; write it as an escape such as \\n or \\u0000", key: key)
            }
            if b != .backslash { out.append(b); i += 1; continue }
            let escapeStart = position
            i += 1
            guard i < bytes.count else { throw error("unterminated string", key: key) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(.quote)
            case UInt8(ascii: "\\"): out.append(.backslash)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "t"): out.append(.tab)
            case UInt8(ascii: "n"): out.append(.newline)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "r"): out.append(.carriageReturn)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let count = e == UInt8(ascii: "u") ? 4 : 8
                var value: UInt32 = 0
                for _ in 0..<count {
                    guard i < bytes.count, let digit = hexValue(bytes[i]) else {
                        throw error("\\\(Character(Unicode.Scalar(e))) needs \(count) hexadecimal digits", at: escapeStart, key: key)
                    }
                    value = value << 4 | UInt32(digit)
                    i += 1
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw error("\\\(Character(Unicode.Scalar(e)))\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value", at: escapeStart, key: key)
                }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                i -= 1
                throw error("unknown escape \\\(found.dropFirst().dropLast()) in a string; use \\\" \\\\ \\b \\t \\n \\f \\r \\uXXXX or \\UXXXXXXXX", at: escapeStart, key: key)
            }
        }
    }

    /// `'...'`, taken as written; the cursor is on the opening apostrophe.
    private mutating func parseLiteralString(key: [String]) throws(ConfigError) -> String {
        let open = position
        i += 1
        let from = i
        while true {
            guard i < bytes.count, bytes[i] != .newline, bytes[i] != .carriageReturn else {
                throw error("unterminated string; a string must end on the line where it starts", at: open, key: key)
            }
            let b = bytes[i]
            if b == .apostrophe { i += 1; return String(decoding: bytes[from..<(i - 1)], as: UTF8.self) }
            if (b < 0x20 && b != .tab) || b == 0x7F { throw error("\(found) in a string", key: key) }
            i += 1
        }
    }

    private func hexValue(_ b: UInt8) -> UInt8? {
        if b.isDigit { return b - UInt8(ascii: "0") }
        let lower = b | 0x20
        if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") { return lower - UInt8(ascii: "a") + 10 }
        return nil
    }

    /// `[ v, v, ]`, across lines, with comments.
    private mutating func parseArray(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
        let start = position
        i += 1
        var items: [TOMLValue] = []
        while true {
            try skipBlankSpace()
            guard i < bytes.count else { throw error("unterminated array (opened at line \(start.line), column \(start.column))", key: key) }
            if peek == .closeBracket { i += 1; break }
            items.append(try parseValue(key: key, depth: depth))
            try skipBlankSpace()
            guard i < bytes.count else { throw error("unterminated array (opened at line \(start.line), column \(start.column))", key: key) }
            if peek == .comma { i += 1; continue }
            if peek == .closeBracket { i += 1; break }
            throw error("expected ',' or ']' in the array, found \(found)", key: key)
        }
        return TOMLValue(kind: .array(items), position: start)
    }

    /// `{ k = v, k = v }` on one line.
    private mutating func parseInlineTable(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
        let start = position
        i += 1
        let table = TOMLTable(origin: .inline, position: start)
        skipWhitespace()
        if peek == .closeBrace { i += 1; return TOMLValue(kind: .table(table), position: start) }
        while true {
            skipWhitespace()
            if i >= bytes.count || peek == .newline || peek == .carriageReturn {
                throw error("an inline table { ... } must close on the line where it opens", key: key)
            }
            if peek == .closeBrace { throw error("no trailing ',' is allowed before '}' in an inline table", key: key) }
            try parseKeyValue(into: table, path: key, depth: depth)
            skipWhitespace()
            if peek == .comma { i += 1; continue }
            if peek == .closeBrace { i += 1; break }
            if i >= bytes.count || peek == .newline || peek == .carriageReturn {
                throw error("an inline table { ... } must close on the line where it opens", key: key)
            }
            throw error("expected ',' or '}' in the inline table, found \(found)", key: key)
        }
        return TOMLValue(kind: .table(table), position: start)
    }

    /// true, false, numbers: one word of `[A-Za-z0-9_+-.:]`, classified.
    private mutating func parseScalarWord(key: [String]) throws(ConfigError) -> TOMLValue {
        let start = position
        let from = i
        while i < bytes.count {
            let b = bytes[i]
            guard b.isBareKey || b == UInt8(ascii: "+") || b == .dot || b == UInt8(ascii: ":") else { break }
            i += 1
        }
        let word = String(decoding: bytes[from..<i], as: UTF8.self)
        if word.isEmpty {
            throw error("expected a value (a \"string\", a number, true, false, [array] or { table }), found \(found)", key: key)
        }
        if word == "true" { return TOMLValue(kind: .boolean(true), position: start) }
        if word == "false" { return TOMLValue(kind: .boolean(false), position: start) }
        if let number = Self.number(word) {
            switch number {
            case .integer(let n): return TOMLValue(kind: .integer(n), position: start)
            case .float(let d): return TOMLValue(kind: .float(d, text: word), position: start)
            case .outOfRange: throw error("\(word) is out of range (integers must fit in 64 bits, decimals must be finite)", at: start, key: key)
            }
        }
        let w = Array(word.utf8)
        if w.contains(UInt8(ascii: ":")) || (w.count >= 5 && w[0..<4].allSatisfy { $0.isDigit } && w[4] == UInt8(ascii: "-")) {
            throw error("dates and times are not supported; write \(word) as a \"string\"", at: start, key: key)
        }
        if w.first.map({ $0.isLetter }) ?? false {
            throw error("\(word) is not a value; strings need quotes: \"\(word)\"", at: start, key: key)
        }
        throw error("\(word) is not a number", at: start, key: key)
    }

    enum Number: Equatable { case integer(Int), float(Double), outOfRange }

    /// TOML integers and floats; `nil` if `word` is neither.
    static func number(_ word: String) -> Number? {
        var w = Array(word.utf8)
        var negative = false
        if let first = w.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            w.removeFirst()
        }
        if w == Array("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if w == Array("nan".utf8) { return .float(.nan) }
        // Underscores only between two digits (or hex digits for 0x).
        func digitsWithUnderscores(_ part: ArraySlice<UInt8>, isDigit: (UInt8) -> Bool) -> [UInt8]? {
            guard let first = part.first, let last = part.last, isDigit(first), isDigit(last) else { return nil }
            var out: [UInt8] = []
            var previousWasDigit = false
            for b in part {
                if b == .underscore { guard previousWasDigit else { return nil }; previousWasDigit = false; continue }
                guard isDigit(b) else { return nil }
                out.append(b); previousWasDigit = true
            }
            return out
        }
        // 0x, 0o, 0b
        if w.count > 2, w[0] == UInt8(ascii: "0"), let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][w[1]] {
            let valid: (UInt8) -> Bool = { b in
                switch radix {
                case 16: return b.isDigit || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f"))
                case 8: return b >= UInt8(ascii: "0") && b <= UInt8(ascii: "7")
                default: return b == UInt8(ascii: "0") || b == UInt8(ascii: "1")
                }
            }
            guard let digits = digitsWithUnderscores(w[2...], isDigit: valid) else { return nil }
            guard let magnitude = Int(String(decoding: digits, as: UTF8.self), radix: radix) else { return .outOfRange }
            return .integer(negative ? -magnitude : magnitude)
        }
        // Decimal: int [. frac] [e exp]
        let exponentIndex = w.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = w[..<(exponentIndex ?? w.count)]
        let dotIndex = mantissa.firstIndex(of: .dot)
        let intPart = mantissa[..<(dotIndex ?? mantissa.endIndex)]
        guard let intDigits = digitsWithUnderscores(intPart, isDigit: { $0.isDigit }) else { return nil }
        if intDigits.count > 1 && intDigits[0] == UInt8(ascii: "0") { return nil }  // no leading zeros
        var text = (negative ? "-" : "") + String(decoding: intDigits, as: UTF8.self)
        var isFloat = false
        if let dotIndex {
            guard let frac = digitsWithUnderscores(mantissa[(dotIndex + 1)...], isDigit: { $0.isDigit }) else { return nil }
            text += "." + String(decoding: frac, as: UTF8.self)
            isFloat = true
        }
        if let exponentIndex {
            var exponent = w[(exponentIndex + 1)...]
            var sign = ""
            if let s = exponent.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
                sign = s == UInt8(ascii: "-") ? "-" : ""
                exponent = exponent.dropFirst()
            }
            guard let digits = digitsWithUnderscores(exponent, isDigit: { $0.isDigit }) else { return nil }
            text += "e" + sign + String(decoding: digits, as: UTF8.self)
            isFloat = true
        }
        if isFloat {
            guard let d = Double(text) else { return nil }
            return d.isFinite ? .float(d) : .outOfRange
        }
        guard let n = Int(text) else { return .outOfRange }
        return .integer(n)
    }
}
