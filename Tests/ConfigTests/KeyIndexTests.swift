import CompactText
import Testing

/// The board code's string-keyed index (CompactText/KeyIndex.swift): what a Dictionary kept.
struct KeyIndexTests {
    @Test func keepsAndFindsManyKeys() {
        var index = KeyIndex()
        #expect(index.isEmpty && index["a"] == nil)
        for k in 0..<5_000 { index.set("key\(k)", k * 3) }
        #expect(index.count == 5_000)
        for k in 0..<5_000 { #expect(index["key\(k)"] == k * 3) }
        #expect(index["key5000"] == nil && index[""] == nil && index["key"] == nil)
    }

    @Test func aSecondValueReplacesTheFirst() {
        var index = KeyIndex()
        index.set("unit.service", 1)
        index.set("unit.service", 2)
        index.set("", 7)
        #expect(index.count == 2 && index["unit.service"] == 2 && index[""] == 7)
    }

    /// Keys are their bytes: the precomposed é and e + combining acute are two keys (TOML's and
    /// the file system's view), where a Dictionary took them for one.
    @Test func keysAreComparedByTheirBytes() {
        var index = KeyIndex()
        index.set("caf\u{E9}", 1)
        index.set("cafe\u{301}", 2)
        #expect(index.count == 2 && index["caf\u{E9}"] == 1 && index["cafe\u{301}"] == 2)
    }
}
