import Testing
import PropertyBased
@testable import FixedPoint

/// isqrt is exact (the largest r with r² ≤ n); the Fixed helpers built on it do not overflow.
@Suite struct SquareRootTests {
    static func isExactRoot(_ r: UInt64, of n: UInt64) -> Bool {
        let (square, overflow) = r.multipliedReportingOverflow(by: r)
        guard !overflow, square <= n else { return false }
        let (next, nextOverflow) = (r + 1).multipliedReportingOverflow(by: r + 1)
        return nextOverflow || next > n
    }

    @Test func edgeCases() {
        let cases: [(UInt64, UInt64)] = [
            (0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (8, 2), (9, 3), (15, 3), (16, 4),
            (UInt64.max, 4_294_967_295),
            (4_294_967_295 * 4_294_967_295, 4_294_967_295),
            (4_294_967_295 * 4_294_967_295 - 1, 4_294_967_294),
            (1 << 62, 1 << 31), ((1 << 62) - 1, (1 << 31) - 1), (1 << 63, 3_037_000_499),
            (1 << 32, 1 << 16), ((1 << 32) - 1, 65535),
        ]
        for (n, r) in cases { #expect(isqrt(n) == r, "isqrt(\(n))") }
    }

    /// The digit-by-digit routine isqrt used to be: the new one must agree with it everywhere.
    static func referenceRoot(_ n: UInt64) -> UInt64 {
        var remainder = n, root: UInt64 = 0, bit: UInt64 = 1 << 62
        while bit > remainder { bit >>= 2 }
        while bit != 0 {
            if remainder >= root + bit { remainder -= root + bit; root = (root >> 1) + bit } else { root >>= 1 }
            bit >>= 2
        }
        return root
    }

    @Test func estimateTable() {
        #expect(isqrtEstimates.count == 256)
        for m in 0..<256 { #expect(UInt64(isqrtEstimates[m]) == Self.referenceRoot(UInt64(256 * m + 128))) }
    }

    @Test func agreesWithDigitByDigitRoot() {
        // Every input below 2²⁰, every perfect square's neighbours, and a spread at every bit length.
        for n in UInt64(0)..<(1 << 20) where isqrt(n) != Self.referenceRoot(n) { Issue.record("isqrt(\(n))"); return }
        var r: UInt64 = 1
        while r <= 0xFFFF_FFFF {
            for n in [r * r - 1, r * r, r &* r &+ 1, r * r + 2 * r] where isqrt(n) != Self.referenceRoot(n) {
                Issue.record("isqrt(\(n))"); return
            }
            r = r < 4096 ? r + 1 : r + r / 613 + 1
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200_000 {
            // splitmix64, then keep a random number of low bits so every magnitude is covered.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let n = z >> (z & 63)
            if isqrt(n) != Self.referenceRoot(n) { Issue.record("isqrt(\(n))"); return }
        }
    }

    @Test func exactForRandomInputs() async {
        await propertyCheck(count: 5000, input: Gen.uint64()) { n in
            #expect(Self.isExactRoot(isqrt(n), of: n), "isqrt(\(n)) = \(isqrt(n))")
        }
        await propertyCheck(count: 2000, input: Gen.uint64(in: 0...(1 << 32))) { n in
            #expect(Self.isExactRoot(isqrt(n), of: n))
            #expect(Self.isExactRoot(isqrt(n * n), of: n * n) && isqrt(n * n) == n)
        }
    }

    @Test func fixedSquareRoot() {
        #expect(Fixed(4).squareRoot == Fixed(2))
        #expect(Fixed(2).squareRoot.raw == 92681)  // √2 · 65536 = 92681.9, truncated
        #expect(Fixed(-4).squareRoot == .zero)
        #expect(Fixed.zero.squareRoot == .zero)
        #expect(Fixed.max.squareRoot.raw == 11_863_283)  // √32768 · 65536 = 11863283.2
        #expect(Fixed.epsilon.squareRoot.raw == 256)
    }

    @Test func hypot() {
        #expect(Fixed.hypot(Fixed(3), Fixed(4)) == Fixed(5))
        #expect(Fixed.hypot(Fixed(-3), Fixed(-4)) == Fixed(5))
        #expect(Fixed.hypot(.zero, .zero) == .zero)
        // Int32.min² · 2 = 2⁶³ does not fit an Int64: this used to trap.
        #expect(Fixed.hypot(.min, .min) == .max)
        #expect(Fixed.hypot(.min, .zero) == .max)
        #expect(Fixed.hypot(.max, .zero) == .max)
        #expect(Fixed.hypot(Fixed(20000), Fixed(20000)).raw == 1_853_638_000)  // ⌊20000·√2·65536⌋
        #expect(Fixed.hypot(Fixed(30000), Fixed(-30000)) == .max)
    }
}
