import CompactText
import Testing

/// Messages from templates (CompactText/Template.swift): the text `+` would have made.
struct TemplateTests {
    @Test func eachPlaceholderTakesTheNextValue() {
        #expect(filled("cannot open {}: {}", "/dev/fb0", "No such file") == "cannot open " + "/dev/fb0" + ": " + "No such file")
        #expect(filled("{}", "whole") == "whole")
        #expect(filled("{}{}", "a", "b") == "ab")
        #expect(filled("[{}] {} = {} ({})", "screen", "width", "800", "pixels") == "[screen] width = 800 (pixels)")
    }

    @Test func emptyValuesAndNonASCIIPassThrough() {
        #expect(filled("a{}b", "") == "ab")
        #expect(filled("größe {} → {}", "ß", "✓") == "größe ß → ✓")
        #expect(filled("{}: {}", "é", "e\u{301}").utf8.count == "é: e\u{301}".utf8.count)
    }

    /// A brace that is not a placeholder stays; placeholders are taken left to right.
    @Test func bracesThatAreNotPlaceholdersStay() {
        #expect(filled("{x} {} }{", "v") == "{x} v }{")
        #expect(filled("{{}}", "v") == "{v}")
        #expect(filled("{} ends in {", "v") == "v ends in {")
    }
}
