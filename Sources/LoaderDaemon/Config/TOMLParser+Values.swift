import CompactText

/// Values for the TOML parser: strings and their escapes, numbers, booleans, arrays and inline
/// tables (TOML.swift).
extension TOMLParser {
    mutating func parseValue(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
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
    mutating func parseBasicString(key: [String]) throws(ConfigError) -> String {
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
    mutating func parseLiteralString(key: [String]) throws(ConfigError) -> String {
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

    func hexValue(_ b: UInt8) -> UInt8? {
        if b.isDigit { return b - UInt8(ascii: "0") }
        let lower = b | 0x20
        if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") { return lower - UInt8(ascii: "a") + 10 }
        return nil
    }

    /// `[ v, v, ]`, across lines, with comments.
    mutating func parseArray(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
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
    mutating func parseInlineTable(key: [String], depth: Int) throws(ConfigError) -> TOMLValue {
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
    mutating func parseScalarWord(key: [String]) throws(ConfigError) -> TOMLValue {
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
