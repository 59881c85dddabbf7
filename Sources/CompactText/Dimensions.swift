/// `WIDTHxHEIGHT` (`64x32`; `X` too): two whole numbers of decimal digits around one `x`, read
/// over the text's bytes. nil for anything else, `64xx32`, `+64x32` and `64x` included; each side
/// at most 9 digits, so it cannot overflow. The range a side may take is the caller's to check.
///
/// One function for the six places that read a size (the fb, drm, LED and image displays, a drm
/// mode, loaderctl's `--size`), which each split the text into substrings and parsed two integers
/// in place (docs/PERFORMANCE.md, "Shared readers").
@inline(never) public func parseDimensions(_ text: String) -> (width: Int, height: Int)? {
    var sides = (0, 0), digits = 0, onHeight = false
    for byte in text.utf8 {
        if byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") {
            guard !onHeight, digits > 0 else { return nil }
            onHeight = true
            digits = 0
            continue
        }
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return nil }
        let digit = Int(byte - UInt8(ascii: "0"))
        if onHeight { sides.1 = sides.1 * 10 + digit } else { sides.0 = sides.0 * 10 + digit }
        digits += 1
    }
    guard onHeight, digits > 0 else { return nil }
    return (width: sides.0, height: sides.1)
}
