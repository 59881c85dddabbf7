/// Numbers read from text as calls rather than inlined code.
///
/// `Int(text)`, `UInt32(text)` and `Double(text)` are the standard library's generic
/// `@inlinable` initialisers: in an Embedded Swift `-Osize` build each site in board
/// code (option values, config values, /proc and /sys files, command lines) expanded the generic
/// parser's set-up in place. These concrete overloads, more specific than the generic ones, are
/// the same parsers behind one call each: x86_64 loaderd −9.0 KB, loaderctl −6.0 KB
/// (docs/PERFORMANCE.md, "String `+` and numbers from text as calls"). They accept and refuse
/// exactly what the standard library's do, in a parser of their own (below). As for the interpolation
/// overloads, a board file that reads numbers this way imports this module (the Embedded build
/// names a file that does not).
extension Int {
    @inline(never) public init?(_ text: String) { self.init(text[...]) }
    @inline(never) public init?(_ text: Substring) {
        guard let (negative, magnitude) = decimalInteger(text, positiveLimit: UInt64(Int.max), negativeLimit: UInt64(Int.max) + 1) else { return nil }
        self = negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude)
    }
}

extension Int32 {
    @inline(never) public init?(_ text: String) {
        guard let (negative, magnitude) = decimalInteger(text[...], positiveLimit: UInt64(Int32.max), negativeLimit: UInt64(Int32.max) + 1) else { return nil }
        self = negative ? Int32(truncatingIfNeeded: 0 &- magnitude) : Int32(magnitude)
    }
}

extension UInt32 {
    @inline(never) public init?(_ text: String) { self.init(text[...]) }
    @inline(never) public init?(_ text: Substring) {
        guard let (_, magnitude) = decimalInteger(text, positiveLimit: UInt64(UInt32.max), negativeLimit: 0) else { return nil }
        self = UInt32(magnitude)
    }
}

/// An optional `+` or `-`, then one or more ASCII digits, and nothing else, as `Int(text, radix: 10)`
/// reads them: the sign and the magnitude, nil when the magnitude is over the sign's limit (`-0`
/// is 0 for every type). On the bytes' buffer (every String here is native, so there is one): the
/// standard library's generic parser, specialised for each type, was 2-3 KB of 32-bit ARM loaderd,
/// whose 64-bit arithmetic it spells out (for size).
@inline(never) func decimalInteger(_ text: Substring, positiveLimit: UInt64, negativeLimit: UInt64) -> (negative: Bool, magnitude: UInt64)? {
    text.utf8.withContiguousStorageIfAvailable { bytes -> (Bool, UInt64)? in
        var i = 0, negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        if i == bytes.count { return nil }
        let limit = negative ? negativeLimit : positiveLimit
        var n: UInt64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            if digit > 9 { return nil }
            let (shifted, over) = n.multipliedReportingOverflow(by: 10)
            if over || shifted > limit || limit - shifted < UInt64(digit) { return nil }
            n = shifted + UInt64(digit)
            i += 1
        }
        return (negative, n)
    } ?? nil
}

// `Double(text)`: DecimalNumbers.swift, without the C library's strtod.
