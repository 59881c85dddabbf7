import Raster
import CompactText
/// Why a config file was refused, in a form a person can act on and an editor can jump to:
/// `loaderd.toml:12:9: display.scale: expected an integer from 1 to 64, got "big"`.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file name as given (or the `source` passed to `Config.parse`).
    public var source: String
    /// 1-based line and column (in characters) of the offending text; `nil` for whole-file errors
    /// (cannot read the file).
    public var line: Int?
    public var column: Int?
    /// The dotted key the error is about (`daemon.max_clients`, `display.type`), when there is one.
    public var key: String?
    /// What was wrong and what is accepted.
    public var message: String
    /// The file's other errors, after this one in the file's order: a file is checked whole, so
    /// that one run of `loaderd --check-config` (or one refused start) names everything to fix.
    public var more: [ConfigError] = []

    /// Out of line: inlined, each of its seven callers stored every field itself (for size).
    @inline(never)
    public init(source: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.source = source; self.line = line; self.column = column; self.key = key; self.message = message
    }

    /// This error and the ones after it, each on its own.
    public var all: [ConfigError] {
        var first = self
        first.more = []
        return [first] + more
    }

    /// Several errors as one to throw, in the file's order (whole-file errors first); nil for none.
    static func combined(_ errors: [ConfigError]) -> ConfigError? {
        // Nearly in order already (a loader's parameters are checked after its other keys):
        // an insertion sort in place, stable, and much less code than the standard library's sort.
        var sorted = errors
        guard !sorted.isEmpty else { return nil }
        for k in 1..<sorted.count {
            var i = k
            while i > 0, sorted[i].comesBefore(sorted[i - 1]) { sorted.swapAt(i, i - 1); i -= 1 }
        }
        var first = sorted.removeFirst()
        first.more = sorted
        return first
    }

    private func comesBefore(_ other: ConfigError) -> Bool {
        let (l, r) = (line ?? 0, other.line ?? 0)
        return l != r ? l < r : (column ?? 0) < (other.column ?? 0)
    }

    /// The first error only (`all` has each of them).
    public var description: String {
        var text = source
        if let line { text += filled(":{}", String(line)) }
        if let column { text += filled(":{}", String(column)) }
        text += ": "
        if let key, !key.isEmpty { text += key + ": " }
        return text + message
    }
}

/// A place in the source: 1-based line and column (characters, not bytes).
struct SourcePosition: Sendable, Equatable {
    var line: Int
    var column: Int
}
