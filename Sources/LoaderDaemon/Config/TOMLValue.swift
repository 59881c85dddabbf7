// The standard library and CompactText only: compiled into the config fuzzer as it is
// (Fuzz/ConfigFuzz). The tree TOML.parse builds (TOML.swift).
import CompactText

/// A table: its entries in file order. A class, so that headers can reopen a table while it is
/// being built.
final class TOMLTable {
    /// How the table came to be, which decides what may extend it later.
    enum Origin {
        /// Made on the way to a deeper header (`[a]` when `[a.b]` is seen first); a later `[a]` may define it.
        case implicit
        /// Defined by a `[header]` or one element of `[[header]]`.
        case header
        /// Made by a dotted key (`a.b = 1` makes table `a`).
        case dotted
        /// `{ ... }`: complete as written.
        case inline
    }

    private(set) var entries: [TOMLEntry] = []
    /// Key → index in `entries`: a lookup per key keeps parsing linear in the number of keys
    /// (a scan per key made a file of many keys quadratic).
    private var indexByKey = KeyIndex()
    var origin: Origin
    /// Where the header or inline table starts.
    var position: SourcePosition

    /// Out of line: the parser makes tables at four places (for size).
    @inline(never)
    init(origin: Origin, position: SourcePosition) { self.origin = origin; self.position = position }

    func index(of key: String) -> Int? { indexByKey[key] }
    subscript(key: String) -> TOMLEntry? { index(of: key).map { entries[$0] } }

    /// Adds an entry whose key is not in the table yet (the parser checks first).
    func append(_ entry: TOMLEntry) {
        indexByKey.set(entry.key, entries.count)
        entries.append(entry)
    }

    /// Adds `table` to the array of tables at `index` (`[[name]]` once more), in place: taken out
    /// of the entry first, the list is the only reference to its storage and is not copied (a
    /// copy per header made a file of 40,000 `[[a]]` lines quadratic: 9 s, and on SIGHUP a
    /// frozen splash).
    func appendToTableArray(at index: Int, _ table: TOMLTable) {
        guard case .tableArray(var list) = entries[index].value.kind else { return }
        entries[index].value.kind = .boolean(false)
        list.append(table)
        entries[index].value.kind = .tableArray(list)
    }
}

/// `key = value`, with where each was written.
struct TOMLEntry {
    let key: String
    let keyPosition: SourcePosition
    var value: TOMLValue
}

struct TOMLValue {
    indirect enum Kind {
        case string(String)
        case integer(Int)
        /// The value and the text as written (`2.50` stays `2.50` when passed on as an option).
        case float(Double, text: String)
        case boolean(Bool)
        case array([TOMLValue])
        case table(TOMLTable)
        /// Made by `[[name]]` headers.
        case tableArray([TOMLTable])
    }

    var kind: Kind
    var position: SourcePosition

    /// What the value is, for "expected X, got Y": `"big"`, `300`, `true`, `an array`.
    var shown: String {
        switch kind {
        case .string(let s): return quoted(s)
        case .integer(let i): return String(i)
        case .float(_, let text): return text
        case .boolean(let b): return b ? "true" : "false"
        case .array: return "an array"
        case .table: return "a table"
        case .tableArray: return "an array of tables"
        }
    }

    /// The value as option text (`4`, `2.5`, `true`, the string itself); `nil` for arrays and tables.
    var scalarText: String? {
        switch kind {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .float(_, let text):
            // On the bytes (the word is ASCII), not by Character: for size.
            let digits = Array(text.utf8).filter { $0 != .underscore }
            return utf8Text(digits, 0, digits.count)
        case .boolean(let b): return b ? "true" : "false"
        case .array, .table, .tableArray: return nil
        }
    }
}

/// `bytes[from..<to]` as a String, as `String(decoding:as:)` reads it: one call, where each
/// site expanded the validation and the small-string paths in place.
@inline(never) func utf8Text(_ bytes: [UInt8], _ from: Int, _ to: Int) -> String {
    String(decoding: bytes[from..<to], as: UTF8.self)
}

/// `parts[range]` joined by `separator` (dotted keys, lists in messages): one call, where the
/// standard library's `joined(separator:)` expanded in place at each of a dozen sites.
@inline(never) func joined(_ parts: [String], separator: String, _ range: Range<Int>? = nil) -> String {
    let range = range ?? 0..<parts.count
    var out = ""
    for n in range {
        if n > range.lowerBound { out += separator }
        out += parts[n]
    }
    return out
}

/// `"text"` with `"`, `\` and control characters escaped as in TOML.
///
/// On the UTF-8 bytes: every byte escaped is ASCII, and the others are copied as they are.
func quoted(_ s: String) -> String {
    var out: [UInt8] = [.quote]
    for b in Array(s.utf8) {
        // What follows the backslash of an escape; 0: the byte as it is.
        var escape: UInt8 = 0
        switch b {
        case .quote, .backslash: escape = b
        case .newline: escape = UInt8(ascii: "n")
        case .tab: escape = UInt8(ascii: "t")
        case .carriageReturn: escape = UInt8(ascii: "r")
        default: if b < 0x20 || b == 0x7F { escape = UInt8(ascii: "u") }
        }
        // The byte, `\x`, or `\u00XX` with the hexadecimal digits in upper case: one append.
        let count = escape == 0 ? 1 : escape == UInt8(ascii: "u") ? 6 : 2
        for n in 0..<count {
            var c = n == 0 ? (escape == 0 ? b : .backslash) : n == 1 ? escape : UInt8(ascii: "0")
            if n >= 4 {
                let digit = n == 4 ? b >> 4 : b & 15
                c = digit < 10 ? digit + UInt8(ascii: "0") : digit - 10 + UInt8(ascii: "A")
            }
            out.append(c)
        }
    }
    out.append(.quote)
    return utf8Text(out, 0, out.count)
}

// Structural equality, for tests and for telling whether a reload changed anything.
extension TOMLValue.Kind: Equatable {
    static func == (a: TOMLValue.Kind, b: TOMLValue.Kind) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.float(let x, let tx), .float(let y, let ty)): return (x == y || (x.isNaN && y.isNaN)) && tx == ty
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.array(let x), .array(let y)): return x.map { $0.kind } == y.map { $0.kind }
        case (.table(let x), .table(let y)): return x == y
        case (.tableArray(let x), .tableArray(let y)): return x == y
        default: return false
        }
    }
}

extension TOMLTable: Equatable {
    /// Same keys in the same order with equal values (positions and origins are not compared).
    static func == (a: TOMLTable, b: TOMLTable) -> Bool {
        a === b || (a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value.kind == $1.value.kind })
    }
}
