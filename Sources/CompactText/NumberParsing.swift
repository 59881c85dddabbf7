/// Numbers read from text as calls rather than inlined code.
///
/// `Int(text)`, `UInt32(text)` and `Double(text)` are the standard library's generic
/// `@inlinable` initialisers: in an Embedded Swift `-Osize` build each site in board
/// code (option values, config values, /proc and /sys files, command lines) expanded the generic
/// parser's set-up in place. These concrete overloads, more specific than the generic ones, are
/// the same parsers behind one call each: x86_64 loaderd −9.0 KB, loaderctl −6.0 KB
/// (docs/PERFORMANCE.md, "String `+` and numbers from text as calls"). The integer ones accept
/// and refuse exactly what the standard library's do: they call those functions. As for the interpolation
/// overloads, a board file that reads numbers this way imports this module (the Embedded build
/// names a file that does not).
extension Int {
    @inline(never) public init?(_ text: String) { self.init(text, radix: 10) }
    @inline(never) public init?(_ text: Substring) { self.init(text, radix: 10) }
}

extension Int32 {
    @inline(never) public init?(_ text: String) { self.init(text, radix: 10) }
}

extension UInt32 {
    @inline(never) public init?(_ text: String) { self.init(text, radix: 10) }
    @inline(never) public init?(_ text: Substring) { self.init(text, radix: 10) }
}

// `Double(text)`: DecimalNumbers.swift, without the C library's strtod.
