/// A message made from a template: each `{}` in `template` is replaced by the next value.
///
/// `filled("cannot open {}: {}", path, reason)` is the same text as
/// `"cannot open " + path + ": " + reason`. The reason is size: at each site the `+` form makes a
/// String of every literal piece and calls `+` once per piece, releasing each intermediate result
/// after the next call; a template is one static string and one call. In scratch builds of eight of
/// the daemon's messages, 1,100 → 613 bytes of x86_64 code and 888 → 444 of Thumb-1
/// (docs/PERFORMANCE.md, session 50). Board code writes its messages this way.
///
/// A template has exactly as many `{}` as values (checked in debug builds, which the host tests
/// run); a `{` or `}` that is not a placeholder is kept as it is, so a message that must show a
/// literal `{}` is written with `+`.
@inline(never) public func filled(_ template: StaticString, _ a: String) -> String {
    fill(template, a, "", "", "", count: 1)
}

@inline(never) public func filled(_ template: StaticString, _ a: String, _ b: String) -> String {
    fill(template, a, b, "", "", count: 2)
}

@inline(never) public func filled(_ template: StaticString, _ a: String, _ b: String, _ c: String) -> String {
    fill(template, a, b, c, "", count: 3)
}

@inline(never) public func filled(_ template: StaticString, _ a: String, _ b: String, _ c: String, _ d: String) -> String {
    fill(template, a, b, c, d, count: 4)
}

/// The template's bytes with the first `count` placeholders replaced by `a`, `b`, `c` and `d` in
/// turn, built in one byte array sized for the whole text.
@inline(never) func fill(_ template: StaticString, _ a: String, _ b: String, _ c: String, _ d: String, count: Int) -> String {
    let bytes = UnsafeBufferPointer(start: template.utf8Start, count: template.utf8CodeUnitCount)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count + a.utf8.count + b.utf8.count + c.utf8.count + d.utf8.count)
    var used = 0, i = 0
    while i < bytes.count {
        if bytes[i] == UInt8(ascii: "{"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "}"), used < count {
            text.append(contentsOf: (used == 0 ? a : used == 1 ? b : used == 2 ? c : d).utf8)
            used += 1
            i += 2
        } else {
            text.append(bytes[i])
            i += 1
        }
    }
    assert(used == count, "a template's {} and its values differ in number")
    return String(decoding: text, as: UTF8.self)
}
