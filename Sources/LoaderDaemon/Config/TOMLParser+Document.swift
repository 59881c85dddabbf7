import CompactText

/// The document level of the TOML parser: table headers, `[[arrays of tables]]`, dotted keys
/// and key/value lines, with the bounds on nesting (TOML.swift).
extension TOMLParser {
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
    mutating func parseHeader(root: TOMLTable) throws(ConfigError) -> (TOMLTable, [String]) {
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
            // Before `existing` is bound: a copy of the entry would keep a second reference to the
            // array, and appending would copy it (TOMLTable.appendToTableArray).
            if isArray, case .tableArray = table.entries[k].value.kind {
                let t = TOMLTable(origin: .header, position: start)
                table.appendToTableArray(at: k, t)
                return (t, path)
            }
            let existing = table.entries[k]
            switch existing.value.kind {
            case .table(let t) where !isArray && t.origin == .implicit:
                t.origin = .header
                t.position = start
                return (t, path)
            case .tableArray:
                throw error("'\(path.joined(separator: "."))' is an array of tables (line \(existing.keyPosition.line)): write [[\(path.joined(separator: "."))]] for another one", at: last.position)
            case .table(let t) where isArray && t.origin != .inline:
                throw error("'\(path.joined(separator: "."))' is a table (line \(existing.keyPosition.line)), not an array of tables: write [[\(path.joined(separator: "."))]] for each of them, or [\(path.joined(separator: "."))] once", at: last.position)
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
    mutating func parseKey(enclosingDepth: Int = 0) throws(ConfigError) -> [(key: String, position: SourcePosition)] {
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
    mutating func parseKeyValue(into table: TOMLTable, path: [String], depth: Int = 0) throws(ConfigError) -> [String] {
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
}
