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
        // an insertion, stable, and much less code than the standard library's sort.
        var sorted: [ConfigError] = []
        for error in errors {
            var i = sorted.count
            while i > 0, error.comesBefore(sorted[i - 1]) { i -= 1 }
            sorted.insert(error, at: i)
        }
        guard var first = sorted.first else { return nil }
        first.more = Array(sorted.dropFirst())
        return first
    }

    private func comesBefore(_ other: ConfigError) -> Bool {
        let (l, r) = (line ?? 0, other.line ?? 0)
        return l != r ? l < r : (column ?? 0) < (other.column ?? 0)
    }

    /// The first error only (`all` has each of them).
    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
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

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one
/// each (optimal string alignment), for "did you mean" suggestions: `fsp` is 1 from `fps`.
/// Short words only; O(n·m).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo.
func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = word.asciiLowercased()
    var best: (word: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(lowered, candidate)
        let limit = candidate.count <= 4 ? 1 : 2
        if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.word
}
