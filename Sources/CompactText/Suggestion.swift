// "Did you mean": the config's keys and sections, the loaders' names, loaderctl's commands
// and both programs' options.

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one
/// each (optimal string alignment), for "did you mean" suggestions: `fsp` is 1 from `fps`.
/// Short words only; O(n·m).
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Three rows of the table: the one before the last (for a swap), the last, this one.
    var older = [Int](repeating: 0, count: b.count + 1), previous = Array(0...b.count), current = older
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            var d = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = Swift.min(d, older[j - 2] + 1) }
            current[j] = d
        }
        (older, previous, current) = (previous, current, older)
    }
    return previous[b.count]
}

/// The closest of `candidates` to `word` (in ASCII lower case), if it is close enough to be a
/// likely typo: one edit from a candidate of up to four letters, two from a longer one.
public func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = String(decoding: word.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)  // A–Z to a–z
    var best: (word: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(lowered, candidate)
        let limit = candidate.unicodeScalars.count <= 4 ? 1 : 2  // scalars, as editDistance counts (for size: no Character walk)
        if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.word
}
