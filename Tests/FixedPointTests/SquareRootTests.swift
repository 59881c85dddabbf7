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
