/// Prefixes, suffixes, separators and single characters found in a String's UTF-8 bytes.
///
/// The standard library does these by `Character`: the first use of any Character walk in a
/// binary brings its grapheme-breaking code and Unicode tables (~15-20 KB of x86_64 loaderd; size
/// is the only reason for these overloads, which shadow the standard library's). Every text here
/// is compared or cut where the bytes say: for ASCII text (every name, option, path and keyword
/// the programs look for) the results are the standard library's, a `"\r\n"` pair included (one
/// `Character`, so never split at its `"\n"` or `"\r"`). They differ only where a combining mark
/// or joiner follows a matched byte, which a Character walk would have taken as one whole.
extension String {
    @inline(never) public func hasPrefix(_ prefix: String) -> Bool { bytesMatch(Substring(self), prefix, atEnd: false) }
    @inline(never) public func hasSuffix(_ suffix: String) -> Bool { bytesMatch(Substring(self), suffix, atEnd: true) }

    public func split(separator: Character, maxSplits: Int = Int.max, omittingEmptySubsequences: Bool = true) -> [Substring] {
        byteSplit(Substring(self), separator, maxSplits, omittingEmptySubsequences)
    }

    /// The index of the first `character` (found by its bytes), as the standard library's.
    public func firstIndex(of character: Character) -> Index? { byteIndex(Substring(self), character, last: false) }
    public func lastIndex(of character: Character) -> Index? { byteIndex(Substring(self), character, last: true) }
    public func contains(_ character: Character) -> Bool { byteIndex(Substring(self), character, last: false) != nil }
}

extension Substring {
    @inline(never) public func hasPrefix(_ prefix: String) -> Bool { bytesMatch(self, prefix, atEnd: false) }
    @inline(never) public func hasSuffix(_ suffix: String) -> Bool { bytesMatch(self, suffix, atEnd: true) }

    public func split(separator: Character, maxSplits: Int = Int.max, omittingEmptySubsequences: Bool = true) -> [Substring] {
        byteSplit(self, separator, maxSplits, omittingEmptySubsequences)
    }

    public func firstIndex(of character: Character) -> Index? { byteIndex(self, character, last: false) }
    public func lastIndex(of character: Character) -> Index? { byteIndex(self, character, last: true) }
    public func contains(_ character: Character) -> Bool { byteIndex(self, character, last: false) != nil }
}

/// Whether `text`'s bytes start (or, `atEnd`, end) with `part`'s. On the bytes' buffers, not the
/// views' indices, whose walks were a generic `starts(with:)` of 1 KB (for size); every String
/// here is native, so the buffers are there.
@inline(never) func bytesMatch(_ text: Substring, _ part: String, atEnd: Bool) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { t in
        part.utf8.withContiguousStorageIfAvailable { p in
            guard t.count >= p.count else { return false }
            let start = atEnd ? t.count - p.count : 0
            for k in 0..<p.count where t[start + k] != p[k] { return false }
            return true
        } ?? false
    } ?? false
}

/// Where `separator`'s bytes start at `i` in `bytes`, and the index just past them; nil where
/// they do not, or where they are the `"\r"` or `"\n"` of a `"\r\n"` pair (one Character).
func separatorEnd(_ bytes: Substring.UTF8View, at i: String.Index, _ separator: String.UTF8View) -> String.Index? {
    var j = i
    for byte in separator {
        guard j < bytes.endIndex, bytes[j] == byte else { return nil }
        j = bytes.index(after: j)
    }
    let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    if separator.first == lf, i > bytes.startIndex, bytes[bytes.index(before: i)] == cr { return nil }
    if separator.last == cr, j < bytes.endIndex, bytes[j] == lf { return nil }
    return j
}

@inline(never) func byteIndex(_ text: Substring, _ character: Character, last: Bool) -> String.Index? {
    let bytes = text.utf8, pattern = String(character).utf8
    var found: String.Index? = nil
    var i = bytes.startIndex
    while i < bytes.endIndex {
        if separatorEnd(bytes, at: i, pattern) != nil {
            found = i
            if !last { break }
        }
        i = bytes.index(after: i)
    }
    return found
}

/// `Collection.split(separator:maxSplits:omittingEmptySubsequences:)`, step for step, on bytes.
@inline(never) func byteSplit(_ text: Substring, _ separator: Character, _ maxSplits: Int, _ omitting: Bool) -> [Substring] {
    precondition(maxSplits >= 0, "Must take zero or more splits")
    let bytes = text.utf8, pattern = String(separator).utf8
    var result: [Substring] = []
    var start = bytes.startIndex, i = start
    if maxSplits > 0 {
        while i < bytes.endIndex {
            guard let end = separatorEnd(bytes, at: i, pattern) else { i = bytes.index(after: i); continue }
            let appended = !(omitting && start == i)
            if appended { result.append(text[start..<i]) }
            start = end
            i = end
            if appended && result.count == maxSplits { break }
        }
    }
    if start != bytes.endIndex || !omitting { result.append(text[start..<bytes.endIndex]) }
    return result
}

extension Substring {
    /// The first `limit` Unicode scalars, cut on a scalar's boundary. The renderers draw one glyph
    /// a scalar, so this is the text as drawn; and cutting by scalars rather than by Characters
    /// keeps the standard library's grapheme breaking, its code and tables, out of the binary
    /// (for size).
    @inline(never) public func prefix(scalars limit: Int) -> Substring {
        let scalars = unicodeScalars
        var end = scalars.startIndex
        var taken = 0
        while taken < limit, end < scalars.endIndex {
            scalars.formIndex(after: &end)
            taken += 1
        }
        return self[..<end]
    }
}
