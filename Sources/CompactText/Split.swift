/// `text.split(separator: ",")` on a String or a Substring as a call. The standard library's is a
/// generic `Collection` method, `@inlinable`, and board code splits option values, /proc and /sys
/// files, protocol lines and paths at a dozen sites, each of which held its own copy. The same
/// method (reached through the generic function below, so the overloads do not call themselves),
/// out of line: x86_64 loaderd −8.3 KB, loaderctl −4.9 KB (docs/PERFORMANCE.md).
extension String {
    @inline(never) public func split(separator: Character, maxSplits: Int = Int.max, omittingEmptySubsequences: Bool = true) -> [Substring] {
        collectionSplit(self, separator, maxSplits, omittingEmptySubsequences)
    }
}

extension Substring {
    @inline(never) public func split(separator: Character, maxSplits: Int = Int.max, omittingEmptySubsequences: Bool = true) -> [Substring] {
        collectionSplit(self, separator, maxSplits, omittingEmptySubsequences)
    }
}

@inline(__always) func collectionSplit<C: Collection>(_ c: C, _ separator: C.Element, _ maxSplits: Int, _ omitting: Bool) -> [C.SubSequence] where C.Element: Equatable {
    c.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
}
