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

    /// `[a.b]` or `[[a.b]]`: returns the table that the following key/values go into. (A call:
    /// inlined into `parseDocument`, the two were 0.3 KB larger.)
    @inline(never) mutating func parseHeader(root: TOMLTable) throws(ConfigError) -> (TOMLTable, [String]) {
        let start = position
        i += 1
        let isArray = peek == .openBracket
        if isArray { i += 1 }
        skipWhitespace()
        let (path, positions) = try parseKey()
        skipWhitespace()
        guard peek == .closeBracket else { throw unexpected(isArray ? "expected ']]' to close the table header" : "expected ']' to close the table header") }
        i += 1
        if isArray {
            guard peek == .closeBracket else { throw unexpected("expected ']]' to close the array-of-tables header") }
            i += 1
        }
        // The header as written, once: each message below names it.
        let dotted = joined(path, separator: ".")
        let shownHeader = isArray ? filled("[[{}]]", dotted) : filled("[{}]", dotted)
        try expectEndOfLine(after: "the table header " + shownHeader)

        var table = root
        for n in 0..<(path.count - 1) {
            let part = (key: path[n], position: positions[n])
            if let k = table.index(of: part.key) {
                switch table.entries[k].value.kind {
                case .table(let t) where t.origin != .inline:
                    table = t
                case .tableArray(let list):
                    table = list[list.count - 1]
                default:
                    throw error(filled("'{}' is already a value (line {}), not a table", joined(path, separator: ".", 0..<(n + 1)), String(table.entries[k].keyPosition.line)), at: part.position)
                }
            } else {
                table = Self.appendTable(to: table, .implicit, part)
            }
        }
        let last = (key: path[path.count - 1], position: positions[path.count - 1])
        if let k = table.index(of: last.key) {
            // Before `existing` is bound: a copy of the entry would keep a second reference to the
            // array, and appending would copy it (TOMLTable.appendToTableArray).
            if isArray, case .tableArray = table.entries[k].value.kind {
                let t = TOMLTable(origin: .header, position: start)
                table.appendToTableArray(at: k, t)
                return (t, path)
            }
            let existing = table.entries[k]
            let line = existing.keyPosition.line
            // One `throw` for the four refusals (each was code of its own).
            let message: String
            switch existing.value.kind {
            case .table(let t) where !isArray && t.origin == .implicit:
                t.origin = .header
                t.position = start
                return (t, path)
            case .tableArray:
                message = filled("'{}' is an array of tables (line {}): write [[{}]] for another one", dotted, String(line), dotted)
            case .table(let t) where isArray && t.origin != .inline:
                message = filled("'{}' is a table (line {}), not an array of tables: write [[{}]] for each of them, or [{}] once", dotted, String(line), dotted, dotted)
            case .table:
                message = filled("{} is defined twice (first at line {})", shownHeader, String(line))
            default:
                message = filled("'{}' is already a value (line {}), not a table", dotted, String(line))
            }
            throw error(message, at: last.position)
        }
        let t = TOMLTable(origin: .header, position: start)
        let value = isArray ? TOMLValue.Kind.tableArray([t]) : .table(t)
        table.append(TOMLEntry(key: last.key, keyPosition: last.position, value: TOMLValue(kind: value, position: start)))
        return (t, path)
    }

    /// A new table `part.key` in `table`, made on the way to a deeper key (by a header or a dotted key).
    @inline(never) static func appendTable(to table: TOMLTable, _ origin: TOMLTable.Origin, _ part: (key: String, position: SourcePosition)) -> TOMLTable {
        let t = TOMLTable(origin: origin, position: part.position)
        table.append(TOMLEntry(key: part.key, keyPosition: part.position, value: TOMLValue(kind: .table(t), position: part.position)))
        return t
    }

    // MARK: Keys

    /// `a`, `"a b"`, `'a'`, `a.b."c"`: the parts and where each starts.
    mutating func parseKey(enclosingDepth: Int = 0) throws(ConfigError) -> (keys: [String], positions: [SourcePosition]) {
        // Two arrays, not one of (key, position) pairs: the callers take the keys as they are
        // (a `map` over the pairs was 0.25 KB).
        var parts: [String] = [], positions: [SourcePosition] = []
        while true {
            let start = position
            guard enclosingDepth + parts.count < Self.maximumKeyDepth else {
                throw error("a key may be at most 64 tables deep (counting the table header, the dotted key's parts and enclosing inline tables); this one is deeper")
            }
            guard let b = peek else { throw error("expected a key, found end of file") }
            if b == .quote {
                parts.append(try parseBasicString(key: []))
            } else if b == .apostrophe {
                parts.append(try parseLiteralString(key: []))
            } else if b.isBareKey {
                let from = i
                while i < bytes.count && bytes[i].isBareKey { i += 1 }
                parts.append(utf8Text(bytes, from, i))
            } else {
                throw unexpected("expected a key (letters, digits, '_', '-', or a quoted key)")
            }
            positions.append(start)
            skipWhitespace()
            guard peek == .dot else { return (parts, positions) }
            i += 1
            skipWhitespace()
        }
    }

    /// `key = value` into `table`; dotted keys make (or extend) dotted tables.
    @discardableResult
    mutating func parseKeyValue(into table: TOMLTable, path: [String], depth: Int = 0) throws(ConfigError) -> [String] {
        let (keys, positions) = try parseKey(enclosingDepth: path.count)
        let fullPath = path + keys
        skipWhitespace()
        guard peek == .equals else {
            throw unexpected(filled("expected '=' after the key '{}'", joined(fullPath, separator: ".", path.count..<fullPath.count)), key: path)
        }
        i += 1
        skipWhitespace()
        var target = table
        for n in 0..<(keys.count - 1) {
            let part = (key: keys[n], position: positions[n])
            if let k = target.index(of: part.key) {
                guard case .table(let t) = target.entries[k].value.kind, t.origin == .dotted else {
                    throw error(filled("'{}' is already defined (line {}); it cannot be extended with a dotted key", joined(fullPath, separator: ".", 0..<(path.count + n + 1)), String(target.entries[k].keyPosition.line)), at: part.position)
                }
                target = t
            } else {
                target = Self.appendTable(to: target, .dotted, part)
            }
        }
        let last = (key: keys[keys.count - 1], position: positions[keys.count - 1])
        if let existing = target[last.key] {
            throw error(filled("duplicate key '{}' (first set at line {})", last.key, String(existing.keyPosition.line)), at: last.position,
                        dottedKey: fullPath.count > 1 ? joined(fullPath, separator: ".", 0..<(fullPath.count - 1)) : nil)
        }
        let value = try parseValue(key: fullPath, depth: depth)
        target.append(TOMLEntry(key: last.key, keyPosition: last.position, value: value))
        return fullPath
    }
}
