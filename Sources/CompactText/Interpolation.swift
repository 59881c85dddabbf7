/// String interpolation as calls rather than inlined code.
///
/// Every `"… \(x) …"` is compiled into one `appendLiteral` or `appendInterpolation` call per
/// segment, and the standard library marks those `@inlinable`: in an Embedded Swift `-Osize` build
/// each segment expanded in place into ~120 bytes of string-growing code (an integer segment
/// ~270), and the board binaries interpolate in hundreds of error and log messages. These
/// overloads, more specific than the standard library's generic ones (and shadowing its
/// `appendLiteral`), are the same operations kept out of line, so a segment is a call: 23 % of
/// loaderd's x86_64 binary (measured with `scripts/cross-build`; docs/PERFORMANCE.md).
///
/// The result is the same string; only where the code lives changes. A board source file that
/// interpolates imports this module (the Embedded build names any file that relies on it without
/// the import, and `scripts/cross-build` fails on that warning).
extension DefaultStringInterpolation {
    @inline(never) public mutating func appendLiteral(_ literal: String) { write(literal) }

    @inline(never) public mutating func appendInterpolation(_ value: String) { write(value) }
    @inline(never) public mutating func appendInterpolation(_ value: Substring) { write(String(value)) }

    @inline(never) public mutating func appendInterpolation(_ value: Int) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: Int32) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: Int64) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: UInt8) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: UInt16) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: UInt32) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: UInt64) { write(String(value)) }
    @inline(never) public mutating func appendInterpolation(_ value: Double) { write(value.decimalText) }

    /// `\(error)`: the value's `description`, appended by the call above rather than in place.
    public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) { appendInterpolation(value.description) }
}

/// Appending one String to another as a call. `text += part`, `text.append(part)` and
/// `a + b` are `@inlinable` in the standard library, and each site expanded into ~200 bytes of
/// small-string and growth checks. The same operations, kept out of line (as the interpolation
/// segments above). `+` alone, at its ~150 sites in board code: x86_64 loaderd −5.9 KB.
extension String {
    @inline(never) public static func += (lhs: inout String, rhs: String) { lhs.append(contentsOf: rhs) }
    @inline(never) public mutating func append(_ other: String) { append(contentsOf: other) }
    @inline(never) public static func + (lhs: String, rhs: String) -> String {
        var joined = lhs
        joined.append(contentsOf: rhs)
        return joined
    }
}
