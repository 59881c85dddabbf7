/// Decimal numbers to and from text, for the few values the board programs read and print as
/// `Double`: seconds, percentages, a gamma, a range's ends in a message.
///
/// The standard library's `Double(text)` calls the C library's `strtod` (musl's, in the static
/// build: its arbitrary-precision decimal code and tables), and `Double.description` its
/// shortest-digits printer (Swift's dtoa and its tables of powers of ten): together ~11 KB of
/// x86_64 loaderd for numbers that are a few digits long (docs/PERFORMANCE.md, session 48,
/// "Decimal numbers").
///
/// Reading: `[+|-] digits [. digits] [(e|E) [+|-] digits]`, or with no digits before or after
/// the point (`.5`, `5.`), as `strtod` reads them; not its hexadecimal, `inf` or `nan` (no value
/// read here means any of those). A number of up to 15 significant digits times a power of ten
/// within ±22, which is every number in a config file or on a command line here, is exact: both
/// the digits and the power are exact doubles, and one multiplication or division rounds once
/// (Clinger's fast path). Longer numbers, or larger powers, are within a few units in the last place.
///
/// Printing: the fewest digits that read back as the same double, in the standard library's
/// layout (`5.0`, `0.05`, `1e-10`, `1.5e+20`), so the messages read as they did.
extension Double {
    @inline(never) public init?(_ text: String) {
        guard let value = text.utf8.withContiguousStorageIfAvailable(Double.decimal) ?? nil else { return nil }
        self = value
    }
    @inline(never) public init?(_ text: Substring) {
        guard let value = text.utf8.withContiguousStorageIfAvailable(Double.decimal) ?? nil else { return nil }
        self = value
    }

    /// The decimal number `bytes` spell (see above); nil when they spell none. On the bytes'
    /// buffer (every String here is native, so there is one), not the view's indices (for size).
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let end = bytes.count
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        // The first 19 significant digits (they fit a UInt64); the power of ten of the last one
        // kept; whether a non-zero digit was dropped. The digits also as a double, exact while
        // below 2^53: a UInt64 converted to a double is a library call on 32-bit ARM, which
        // brings libgcc's soft-float addition with it.
        var digits: UInt64 = 0, approximate = 0.0, kept = 0, scale = 0, seen = 0, pointSeen = false
        var dropped = false
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: ".") {
                if pointSeen { return nil }
                pointSeen = true
            } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                seen += 1
                let d = UInt64(b &- UInt8(ascii: "0"))
                if kept < 19 {
                    if digits != 0 || d != 0 { kept += 1 }
                    digits = digits &* 10 &+ d
                    approximate = approximate * 10 + Double(Int32(truncatingIfNeeded: d))
                    if pointSeen { scale -= 1 }
                } else {
                    if d != 0 { dropped = true }
                    if !pointSeen { scale += 1 }
                }
            } else {
                break
            }
            i += 1
        }
        if seen == 0 { return nil }
        if i < end {
            guard bytes[i] | 0x20 == UInt8(ascii: "e") else { return nil }
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var exponent = 0, exponentDigits = 0
            while i < end, bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") {
                // Past 100 000 every power is 0 or infinity: the digits stop counting there.
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                exponentDigits += 1
                i += 1
            }
            if exponentDigits == 0 || i < end { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        // Digits times 10 while they stay exact (below 2^53), for a power past 10^22: 46e26 is
        // 46 000 × 10^22, one rounding rather than two.
        while scale > 22 && digits != 0 && digits < (1 << 53) / 10 { digits *= 10; approximate *= 10; scale -= 1 }
        var value = approximate
        // A dropped digit past the 19th: the value lies just above the kept ones (a sticky bit,
        // so a number that falls halfway between two doubles is not read as the halfway point).
        if dropped { value = value.nextUp }
        if digits == 0 {
            value = 0
        } else if digits < 1 << 53 && scale >= -22 && scale <= 22 {
            value = scale < 0 ? value / Double.exactPowerOfTen(-scale) : value * Double.exactPowerOfTen(scale)
        } else {
            value = Double.scaled(value, byPowerOfTen: scale)
        }
        return negative ? -value : value
    }

    /// 10^n for 0 ≤ n ≤ 22: exact as a double.
    @inline(never) static func exactPowerOfTen(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// `value` × 10^scale, by exact powers of ten at most 10^22 at a time (each step rounds).
    @inline(never) static func scaled(_ value: Double, byPowerOfTen scale: Int) -> Double {
        var v = value, s = scale
        while s > 0 && v.isFinite { let step = Swift.min(s, 22); v *= exactPowerOfTen(step); s -= step }
        while s < 0 && v != 0 { let step = Swift.min(-s, 22); v /= exactPowerOfTen(step); s += step }
        return v
    }

    /// The fewest digits that read back (with `Double(text)`) as this double, laid out as the
    /// standard library's `description` lays them out: fixed from 0.0001 to 2^53, both included,
    /// otherwise with an exponent of at least two digits (`1e-05`, `1.5e+20`).
    @inline(never) public var decimalText: String {
        if isNaN { return "nan" }
        let minus = self < 0 || (self == 0 && sign == .minus)
        var magnitude = Swift.abs(self)
        var text: [UInt8] = minus ? [UInt8(ascii: "-")] : []
        if magnitude.isInfinite { return String(decoding: text + Array("inf".utf8), as: UTF8.self) }
        var exponent = 0
        let fixed = magnitude == 0 || (magnitude >= 0.0001 && magnitude <= 9_007_199_254_740_992)
        if fixed && magnitude == magnitude.rounded() {
            // A whole number is exact in a UInt64: its digits and ".0".
            Double.appendDigits(UInt64(magnitude), to: &text)
            return String(decoding: text + Array(".0".utf8), as: UTF8.self)
        }
        if !fixed {
            // d.ddd × 10^exponent: the exponent first (from the value; checked by reading back).
            var probe = magnitude
            while probe >= 10 { probe /= 10; exponent += 1 }
            while probe < 1 { probe *= 10; exponent -= 1 }
            magnitude = Double.scaled(magnitude, byPowerOfTen: -exponent)
        }
        // Fraction digits 1, 2, ... (fixed) or 0, 1, ... (with an exponent): the first that reads back.
        var candidate: [UInt8] = []
        for places in (fixed ? 1 : 0)...(fixed ? 18 : 16) {
            // Past 2^63 (a UInt64's digits) there is nothing more to try: the last one stands.
            if !candidate.isEmpty && magnitude * Double.exactPowerOfTen(places) >= 9.2e18 { break }
            candidate = text
            var e = exponent
            if !Double.appendFixed(magnitude, places: places, significand: !fixed, to: &candidate) {
                // 9.99… rounded up to 10: one more in the exponent.
                candidate = text
                e += 1
                _ = Double.appendFixed(magnitude / 10, places: places, significand: true, to: &candidate)
            }
            if !fixed {
                candidate.append(UInt8(ascii: "e"))
                candidate.append(UInt8(ascii: e < 0 ? "-" : "+"))
                if e.magnitude < 10 { candidate.append(UInt8(ascii: "0")) }
                Double.appendDigits(UInt64(e.magnitude), to: &candidate)
            }
            let written = String(decoding: candidate, as: UTF8.self)
            if magnitude == 0 || Double(written).map(Swift.abs) == Swift.abs(self) { return written }
        }
        return String(decoding: candidate, as: UTF8.self)
    }

    /// `value` (0 ≤ value < 2^53) rounded to `places` fraction digits, appended as `whole.fraction`
    /// with the fraction's trailing zeros dropped (one kept), or as `whole` alone for 0 places
    /// (the significand of `1e-10`). False, with nothing appended, when a `significand` (1 ≤ value
    /// < 10) rounds up to 10 (the caller's exponent then grows).
    static func appendFixed(_ value: Double, places: Int, significand: Bool, to text: inout [UInt8]) -> Bool {
        let unit = exactPowerOfTen(places)
        let scaledValue = (value * unit).rounded()
        let n = UInt64(Swift.min(scaledValue, 9.2e18))
        let whole = n / UInt64(unit)
        if significand && whole >= 10 { return false }
        appendDigits(whole, to: &text)
        if places == 0 { return true }
        text.append(UInt8(ascii: "."))
        var fraction = n % UInt64(unit), width = places
        while width > 1 && fraction % 10 == 0 { fraction /= 10; width -= 1 }
        var digits: [UInt8] = []
        for _ in 0..<width { digits.append(UInt8(ascii: "0") + UInt8(fraction % 10)); fraction /= 10 }
        text.append(contentsOf: digits.reversed())
        return true
    }

    /// The decimal digits of `n`, appended.
    static func appendDigits(_ n: UInt64, to text: inout [UInt8]) {
        var digits: [UInt8] = [], rest = n
        repeat { digits.append(UInt8(ascii: "0") + UInt8(rest % 10)); rest /= 10 } while rest != 0
        text.append(contentsOf: digits.reversed())
    }
}
