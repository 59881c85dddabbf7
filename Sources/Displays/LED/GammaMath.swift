/// `x^gamma` for the gamma table, in plain double arithmetic: the C library's `exp` and `log` were
/// the board binaries' only reason to load libm.so.6 (a library mapping at every start and ~380 KB
/// of resident pages; docs/PERFORMANCE.md). Within a few units in the last place of libm's result,
/// which a table of bytes cannot see (LEDTests compares the tables for gammas 0.1 to 5 with libm's
/// `pow`); every architecture computes the same bits, so the LED frames stay equal everywhere.
enum GammaMath {
    /// ln 2 in two parts, the first with its low bits zero, so `k × ln2High` is exact for the `k`
    /// used here (|k| < 2^11).
    static let ln2High = 6.93147180369123816490e-01
    static let ln2Low = 1.90821492927058770002e-10

    /// `x^gamma` for x in (0, 1] and gamma in (0, 5]: exp(gamma × ln x).
    static func power(_ x: Double, _ gamma: Double) -> Double { exponential(gamma * logarithm(x)) }

    /// ln x for x > 0: x = m × 2^e with m in [√½, √2), and ln m = 2 atanh(s), s = (m − 1)/(m + 1),
    /// |s| < 0.172, by its series (the 20th term is below 1e-30).
    static func logarithm(_ x: Double) -> Double {
        var m = x, e = 0.0
        while m < 0.70710678118654752 { m *= 2; e -= 1 }  // exact: powers of two
        while m >= 1.41421356237309505 { m *= 0.5; e += 1 }
        let s = (m - 1) / (m + 1), s2 = s * s
        var term = s, sum = 0.0, n = 1.0
        for _ in 0..<20 { sum += term / n; term *= s2; n += 2 }
        return e * ln2High + (e * ln2Low + 2 * sum)
    }

    /// e^y for -700 < y ≤ 0: y = k ln 2 + r with |r| ≤ ½ ln 2, e^r by its Taylor series (the 20th
    /// term is below 1e-25), then 2^k by exact halvings.
    static func exponential(_ y: Double) -> Double {
        let k = (y / (ln2High + ln2Low)).rounded()
        let r = (y - k * ln2High) - k * ln2Low
        var term = 1.0, sum = 1.0, n = 1.0
        for _ in 0..<20 { term *= r / n; sum += term; n += 1 }
        var scaled = sum
        if k < 0 { for _ in 0..<Int(-k) { scaled *= 0.5 } } else { for _ in 0..<Int(k) { scaled *= 2 } }
        return scaled
    }
}
