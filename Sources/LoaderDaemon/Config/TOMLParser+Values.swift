import CompactText

/// Values for the TOML parser: strings and their escapes, numbers, booleans, arrays and inline
/// tables (TOML.swift).
extension TOMLParser {
    mutating func parseValue(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
        let start = position
        // The end of the file reads as the end of a line: "…, found end of file".
        let b = peek ?? .newline
        // One `throw` for the refusals below.
        let message: String
        switch b {
        case .newline, .carriageReturn, .hash:
            message = "expected a value after '=', found " + found
        case .quote, .apostrophe:
            if i + 2 < bytes.count && bytes[i + 1] == b && bytes[i + 2] == b {
                message = b == .quote ? "multi-line strings (\"\"\") are not supported; use \\n in a one-line string"
                                      : "multi-line strings (''') are not supported; use \\n in a one-line string"
            } else {
                let text = b == .quote ? try parseBasicString(key: key) : try parseLiteralString(key: key)
                return TOMLValue(kind: .string(text), position: start)
            }
        case .openBracket, .openBrace:
            if depth < Self.maximumDepth {
                return b == .openBracket ? try parseArray(key: key, depth: depth + 1) : try parseInlineTable(key: key, depth: depth + 1)
            }
            message = "arrays and inline tables nested more than 32 deep"
        default:
            return try parseScalarWord(key: key)
        }
        throw error(message, key: key)
    }

    /// `"..."` with escapes; the cursor is on the opening quote.
    mutating func parseBasicString(key: [String]) throws(ConfigError) -> String {
        let open = position
        i += 1
        var out: [UInt8] = []
        // Each refusal sets its message (and its place, nil for the cursor's) and leaves the loop
        // for the one `throw` after it.
        var message = "unterminated string; a string must end on the line where it starts"
        var place: SourcePosition? = open
        scan: while i < bytes.count && bytes[i] != .newline && bytes[i] != .carriageReturn {
            let b = bytes[i]
            if b == .quote { i += 1; return utf8Text(out, 0, out.count) }
            if (b < 0x20 && b != .tab) || b == 0x7F {
                message = found + " in a string; write it as an escape such as \\n or \\u0000"
                place = nil
                break
            }
            // The byte itself, or the one its escape stands for: one append for both.
            var c = b
            if b == .backslash {
                let escapeStart = position
                i += 1
                guard i < bytes.count else { message = "unterminated string"; place = nil; break }
                let e = bytes[i]
                switch e {
                case .quote, .backslash: c = e
                case UInt8(ascii: "b"): c = 0x08
                case UInt8(ascii: "t"): c = .tab
                case UInt8(ascii: "n"): c = .newline
                case UInt8(ascii: "f"): c = 0x0C
                case UInt8(ascii: "r"): c = .carriageReturn
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    i += 1
                    try parseUnicodeEscape(e, at: escapeStart, into: &out, key: key)
                    continue
                default:
                    // `found` without its quotes, on the bytes (not by Character: for size).
                    let shown = Array(found.utf8)
                    message = filled("unknown escape \\{} in a string; use \\\" \\\\ \\b \\t \\n \\f \\r \\uXXXX or \\UXXXXXXXX", utf8Text(shown, 1, shown.count - 1))
                    place = escapeStart
                    break scan
                }
            }
            out.append(c)
            i += 1
        }
        throw error(message, at: place, key: key)
    }

    /// The hexadecimal digits of `\uXXXX` or `\UXXXXXXXX` (`e` is the `u` or `U`; the cursor is on
    /// the first digit), as UTF-8 into `out`.
    mutating func parseUnicodeEscape(_ e: UInt8, at escapeStart: SourcePosition, into out: inout [UInt8], key: [String]) throws(ConfigError) {
        let count = e == UInt8(ascii: "u") ? 4 : 8
        var value: UInt32 = 0
        let escape = e == UInt8(ascii: "u") ? "\\u" : "\\U"
        var digits = 0
        while digits < count && i < bytes.count && Self.digitValue(bytes[i]) < 16 {
            value = value << 4 | UInt32(Self.digitValue(bytes[i]))
            i += 1
            digits += 1
        }
        // One `throw` for both refusals (for size).
        let problem: String
        if digits < count {
            problem = count == 4 ? " needs 4 hexadecimal digits" : " needs 8 hexadecimal digits"
        } else if Unicode.Scalar(value) == nil {
            problem = String(value, radix: 16, uppercase: true) + " is not a Unicode scalar value"
        } else {
            Self.appendUTF8(value, to: &out)
            return
        }
        throw error(escape + problem, at: escapeStart, key: key)
    }

    /// `'...'`, taken as written; the cursor is on the opening apostrophe.
    mutating func parseLiteralString(key: [String]) throws(ConfigError) -> String {
        let open = position
        i += 1
        let from = i
        var message = "unterminated string; a string must end on the line where it starts"
        var place: SourcePosition? = open
        while i < bytes.count && bytes[i] != .newline && bytes[i] != .carriageReturn {
            let b = bytes[i]
            if b == .apostrophe { i += 1; return utf8Text(bytes, from, i - 1) }
            if (b < 0x20 && b != .tab) || b == 0x7F {
                message = found + " in a string"
                place = nil
                break
            }
            i += 1
        }
        throw error(message, at: place, key: key)
    }

    /// The value of a digit in any radix up to 16 (`a`-`f` either case); 99 for any other byte.
    static func digitValue(_ b: UInt8) -> Int {
        if b.isDigit { return Int(b - UInt8(ascii: "0")) }
        let lower = b | 0x20
        if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") { return Int(lower - UInt8(ascii: "a")) + 10 }
        return 99
    }

    /// A Unicode scalar value's UTF-8 bytes (the caller checked it is one).
    static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        let count = v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4
        // The lead byte's marker (none, 110, 1110, 11110), then 10xxxxxx for each byte after it.
        let lead: UInt32 = count == 1 ? 0 : count == 2 ? 0xC0 : count == 3 ? 0xE0 : 0xF0
        for n in 0..<count {
            let shift = UInt32(6 * (count - 1 - n))
            out.append(UInt8(n == 0 ? lead | v >> shift : 0x80 | (v >> shift) & 0x3F))
        }
    }

    /// `[ v, v, ]`, across lines, with comments.
    mutating func parseArray(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
        let start = position
        i += 1
        var items: [TOMLValue] = []
        var afterValue = false
        let message: String
        while true {
            try skipBlankSpace()
            guard i < bytes.count else { message = filled("unterminated array (opened at line {}, column {})", String(start.line), String(start.column)); break }
            if peek == .closeBracket { i += 1; return TOMLValue(kind: .array(items), position: start) }
            if afterValue {
                guard peek == .comma else { message = "expected ',' or ']' in the array, found " + found; break }
                i += 1
                afterValue = false
                continue
            }
            items.append(try parseValue(key: key, depth: depth))
            afterValue = true
        }
        throw error(message, key: key)
    }

    /// `{ k = v, k = v }` on one line.
    mutating func parseInlineTable(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
        let start = position
        i += 1
        let table = TOMLTable(origin: .inline, position: start)
        // 0 before the first key, 1 after a ',', 2 after a value.
        var state = 0
        let message: String
        while true {
            skipWhitespace()
            if i >= bytes.count || peek == .newline || peek == .carriageReturn {
                message = "an inline table { ... } must close on the line where it opens"
                break
            }
            if peek == .closeBrace {
                if state == 1 { message = "no trailing ',' is allowed before '}' in an inline table"; break }
                i += 1
                return TOMLValue(kind: .table(table), position: start)
            }
            if state == 2 {
                guard peek == .comma else { message = "expected ',' or '}' in the inline table, found " + found; break }
                i += 1
                state = 1
                continue
            }
            try parseKeyValue(into: table, path: key, depth: depth)
            state = 2
        }
        throw error(message, key: key)
    }

    /// true, false, numbers: one word of `[A-Za-z0-9_+-.:]`, classified. (A call: inlined into
    /// `parseValue` with the number reader, it was 0.3 KB larger.)
    @inline(never) mutating func parseScalarWord(key: [String]) throws(ConfigError) -> TOMLValue {
        let start = position
        let from = i
        while i < bytes.count {
            let b = bytes[i]
            guard b.isBareKey || b == UInt8(ascii: "+") || b == .dot || b == UInt8(ascii: ":") else { break }
            i += 1
        }
        let word = utf8Text(bytes, from, i)
        if word.isEmpty {
            throw unexpected("expected a value (a \"string\", a number, true, false, [array] or { table })", key: key)
        }
        if word == "true" { return TOMLValue(kind: .boolean(true), position: start) }
        if word == "false" { return TOMLValue(kind: .boolean(false), position: start) }
        let w = Array(bytes[from..<i])
        // One `throw` for the four refusals.
        let message: String
        if let number = Self.number(w) {
            switch number {
            case .integer(let n): return TOMLValue(kind: .integer(n), position: start)
            case .float(let d): return TOMLValue(kind: .float(d, text: word), position: start)
            case .outOfRange: message = word + " is out of range (integers must fit in 64 bits, decimals must be finite)"
            }
        } else if w.contains(UInt8(ascii: ":")) || (w.count >= 5 && w[0].isDigit && w[1].isDigit && w[2].isDigit && w[3].isDigit && w[4] == UInt8(ascii: "-")) {
            // A template, not interpolated: for size, as below.
            message = filled("dates and times are not supported; write {} as a \"string\"", word)
        } else if w[0].isLetter {
            message = filled("{} is not a value; strings need quotes: \"{}\"", word, word)
        } else {
            message = word + " is not a number"
        }
        throw error(message, at: start, key: key)
    }

    enum Number: Equatable { case integer(Int), float(Double), outOfRange }

    /// TOML integers and floats; `nil` if `word` is neither.
    static func number(_ word: String) -> Number? { number(Array(word.utf8)) }

    /// The same, on the word's bytes.
    static func number(_ w: [UInt8]) -> Number? {
        var s = 0
        var negative = false
        if let first = w.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            s = 1
        }
        if w.count - s == 3 {
            // "inf" and "nan" as one number each, not three comparisons of strings apiece.
            let letters = UInt32(w[s]) << 16 | UInt32(w[s + 1]) << 8 | UInt32(w[s + 2])
            if letters == 0x69_6E66 { return .float(negative ? -.infinity : .infinity) }  // inf
            if letters == 0x6E_616E { return .float(.nan) }  // nan
        }
        // The digits without their underscores, into one buffer read as a number at the end.
        var text: [UInt8] = []
        // 0x, 0o, 0b
        if w.count - s > 2, w[s] == UInt8(ascii: "0") {
            var radix = 0
            switch w[s + 1] {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: break
            }
            if radix != 0 {
                guard appendDigits(w, s + 2, w.count, radix: radix, to: &text) else { return nil }
                guard let magnitude = integer(text, from: 0, radix: radix, negative: false) else { return .outOfRange }
                return .integer(negative ? -magnitude : magnitude)
            }
        }
        // Decimal: int [. frac] [e exp]
        var exponent = w.count
        var dot: Int?
        for k in s..<w.count {
            if w[k] | 0x20 == UInt8(ascii: "e") { exponent = k; break }
            if w[k] == .dot && dot == nil { dot = k }
        }
        if negative { text.append(UInt8(ascii: "-")) }
        let intStart = text.count
        guard appendDigits(w, s, dot ?? exponent, radix: 10, to: &text) else { return nil }
        if text.count - intStart > 1 && text[intStart] == UInt8(ascii: "0") { return nil }  // no leading zeros
        if let dot {
            text.append(.dot)
            guard appendDigits(w, dot + 1, exponent, radix: 10, to: &text) else { return nil }
        }
        if exponent < w.count {
            text.append(UInt8(ascii: "e"))
            var from = exponent + 1
            if from < w.count, w[from] == UInt8(ascii: "+") || w[from] == UInt8(ascii: "-") {
                if w[from] == UInt8(ascii: "-") { text.append(w[from]) }
                from += 1
            }
            guard appendDigits(w, from, w.count, radix: 10, to: &text) else { return nil }
        }
        if dot != nil || exponent < w.count {
            guard let d = Double(utf8Text(text, 0, text.count)) else { return nil }
            return d.isFinite ? .float(d) : .outOfRange
        }
        guard let n = integer(text, from: intStart, radix: 10, negative: negative) else { return .outOfRange }
        return .integer(n)
    }

    /// The digits `digits[from...]` in `radix` as an Int, negated when `negative`; nil when it does
    /// not fit. (On the bytes: `Int(String)` needed the digits made a String first, for size.)
    static func integer(_ digits: [UInt8], from: Int, radix: Int, negative: Bool) -> Int? {
        var n = 0
        for k in from..<digits.count {
            let (shifted, overflow) = n.multipliedReportingOverflow(by: radix)
            let (next, carry) = negative ? shifted.subtractingReportingOverflow(digitValue(digits[k]))
                                         : shifted.addingReportingOverflow(digitValue(digits[k]))
            if overflow || carry { return nil }
            n = next
        }
        return n
    }

    /// The digits of `w[from..<to]` in `radix`, without their underscores, appended to `out`;
    /// false unless it is digits with underscores only between two of them.
    static func appendDigits(_ w: [UInt8], _ from: Int, _ to: Int, radix: Int, to out: inout [UInt8]) -> Bool {
        guard from < to, digitValue(w[from]) < radix, digitValue(w[to - 1]) < radix else { return false }
        var previousWasDigit = false
        for k in from..<to {
            let b = w[k]
            if b == .underscore {
                guard previousWasDigit else { return false }
                previousWasDigit = false
                continue
            }
            guard digitValue(b) < radix else { return false }
            out.append(b)
            previousWasDigit = true
        }
        return true
    }
}
