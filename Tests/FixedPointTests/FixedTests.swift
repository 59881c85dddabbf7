import Testing
import PropertyBased
@testable import FixedPoint

/// Q16.16 arithmetic: saturation instead of wrapping or trapping, rounding rules, conversions.
@Suite struct FixedTests {
    @Test func additionAndSubtractionSaturate() {
        #expect(Fixed.max + .epsilon == .max)
        #expect(Fixed.min - .epsilon == .min)
        #expect(Fixed.max + .max == .max)
        #expect(Fixed.min + .min == .min)
        #expect(Fixed.max - .min == .max)
        #expect(Fixed.min - .max == .min)
        #expect(-Fixed.min == .max)
        #expect(-Fixed.max == Fixed(raw: -Int32.max))
        #expect(Fixed(3) + Fixed(4) == Fixed(7))
        #expect(Fixed(3) - Fixed(4) == Fixed(-1))
    }

    @Test func multiplicationSaturatesAndRounds() {
        #expect(Fixed(200) * Fixed(200) == .max)
        #expect(Fixed(-200) * Fixed(200) == .min)
        #expect(Fixed(-200) * Fixed(-200) == .max)
        #expect(Fixed.min * Fixed.min == .max)
        #expect(Fixed(3) / 2 * Fixed(2) == Fixed(3))
        // 1/65536 × 1/2 = half a step: rounds to nearest, halves up.
        #expect(Fixed.epsilon * Fixed.half == .epsilon)
        #expect(Fixed(raw: -1) * Fixed.half == .zero)
        // Fixed × Int used to trap on Int64 overflow for huge integers.
        #expect(Fixed.max * Int.max == .max)
        #expect(Fixed.min * Int.max == .min)
        #expect(Fixed.one * Int.min == .min)
        #expect(Fixed(-1) * Int.min == .max)
        #expect(Int.max * Fixed.one == .max)
        #expect(Fixed(1000) * 40 == .max)
        #expect(Fixed(3) * -2 == Fixed(-6))
        #expect(Fixed.zero * Int.max == .zero)
    }

    @Test func divisionSaturatesAndHandlesZero() {
        #expect(Fixed(30000) / Fixed.epsilon == .max)
        #expect(Fixed(-30000) / Fixed.epsilon == .min)
        #expect(Fixed.min / Fixed(-1) == .max)
        #expect(Fixed.one / .zero == .max)
        #expect(Fixed(-1) / .zero == .min)
        #expect(Fixed.zero / .zero == .zero)
        #expect(Fixed(7) / Fixed(2) == Fixed(7, over: 2))
        // Truncates towards zero.
        #expect(Fixed.one / Fixed(3) == Fixed(raw: 21845))
        #expect(Fixed(-1) / Fixed(3) == Fixed(raw: -21845))
        #expect(Fixed.one / 0 == .max)
        #expect(Fixed(-1) / 0 == .min)
        #expect(Fixed.zero / 0 == .zero)
        #expect(Fixed.min / -1 == .max)
        #expect(Fixed(5) / Int.min == .zero)
        #expect(Fixed(9) / 3 == Fixed(3))
    }

    @Test func ratioRoundsToNearestHalvesAwayFromZero() {
        #expect(Fixed.ratio(1, 3).raw == 21845)   // 21845.33
        #expect(Fixed.ratio(2, 3).raw == 43691)   // 43690.67
        #expect(Fixed.ratio(-1, 3).raw == -21845)
        #expect(Fixed.ratio(-2, 3).raw == -43691)
        #expect(Fixed.ratio(2, -3).raw == -43691)
        #expect(Fixed.ratio(-2, -3).raw == 43691)
        #expect(Fixed.ratio(1, 131_072).raw == 1)    // exactly half a step
        #expect(Fixed.ratio(-1, 131_072).raw == -1)
        #expect(Fixed.ratio(1, -131_072).raw == -1)
        #expect(Fixed.ratio(1, 131_073).raw == 0)
        #expect(Fixed.ratio(1, 0) == .max)
        #expect(Fixed.ratio(-1, 0) == .min)
        #expect(Fixed.ratio(0, 0) == .zero)
        #expect(Fixed.ratio(0, -5) == .zero)
        #expect(Fixed.ratio(Int64.max, 1) == .max)
        #expect(Fixed.ratio(Int64.min, 1) == .min)
        #expect(Fixed.ratio(Int64.max, -1) == .min)
        #expect(Fixed.ratio(Int64.min, -1) == .max)
        // These used to trap: a·2¹⁶ ± b/2 overflowed, and Int64.min / −1.
        #expect(Fixed.ratio((1 << 47) - 1, Int64.max).raw == 1)
        #expect(Fixed.ratio(-(1 << 47), -1) == .max)
        #expect(Fixed.ratio(-(1 << 47), Int64.min).raw == 1)
        #expect(Fixed.ratio(1, Int64.min) == .zero)
        // |a| ≥ 2⁴⁷ with a large b used to saturate although the quotient is in range.
        #expect(Fixed.ratio(1 << 47, 1 << 33) == Fixed(16384))
        #expect(Fixed.ratio(1 << 47, 1 << 32) == .max)
        #expect(Fixed.ratio(-(1 << 47), 3 << 32).raw == -715_827_883)  // −10922.67
        #expect(Fixed.ratio(Int64.max, Int64.max) == .one)
        #expect(Fixed.ratio(Int64.min, Int64.max) == Fixed(-1))
        #expect(Fixed.ratio(Int64.min, Int64.min) == .one)
        #expect(Fixed.ratio(Int64.max / 2, Int64.max).raw == 32768)
        #expect(Fixed.ratio(850_000, 1_700_000) == .half)
        #expect(Fixed(1, over: 4) == Fixed(raw: 16384))
    }

    @Test func ratioMatchesExactRounding() async {
        await propertyCheck(count: 2000, input: Gen.int64(), Gen.int64(in: -(1 << 40)...(1 << 40))) { a, b in
            guard b != 0 else { return }
            let (q, r) = (Int128(a) << 16).quotientAndRemainder(dividingBy: Int128(b))
            var rounded = q
            if 2 * r.magnitude >= Int128(b).magnitude { rounded += (a < 0) == (b < 0) ? 1 : -1 }
            let expected = rounded > Int128(Int32.max) ? Int32.max : (rounded < Int128(Int32.min) ? Int32.min : Int32(rounded))
            #expect(Fixed.ratio(a, b).raw == expected, "ratio(\(a), \(b))")
        }
        await propertyCheck(count: 2000, input: Gen.int64(), Gen.int64()) { a, b in
            guard b != 0 else { return }
            let (q, r) = (Int128(a) << 16).quotientAndRemainder(dividingBy: Int128(b))
            var rounded = q
            if 2 * r.magnitude >= Int128(b).magnitude { rounded += (a < 0) == (b < 0) ? 1 : -1 }
            let expected = rounded > Int128(Int32.max) ? Int32.max : (rounded < Int128(Int32.min) ? Int32.min : Int32(rounded))
            #expect(Fixed.ratio(a, b).raw == expected, "ratio(\(a), \(b))")
        }
    }

    @Test func integerConversionsRoundAsDocumentedForNegatives() {
        let cases: [(raw: Int32, floor: Int, ceil: Int, rounded: Int)] = [
            (-98304, -2, -1, -1),  // −1.5: halves round up
            (-81920, -2, -1, -1),  // −1.25
            (-114688, -2, -1, -2), // −1.75
            (-32768, -1, 0, 0),    // −0.5
            (-1, -1, 0, 0),
            (-65536, -1, -1, -1),
            (0, 0, 0, 0),
            (1, 0, 1, 0),
            (98304, 1, 2, 2),      // 1.5
            (Int32.min, -32768, -32768, -32768),
            (Int32.max, 32767, 32768, 32768),
        ]
        for c in cases {
            let f = Fixed(raw: c.raw)
            #expect(f.floor == c.floor, "floor \(f)")
            #expect(f.ceil == c.ceil, "ceil \(f)")
            #expect(f.rounded == c.rounded, "rounded \(f)")
            #expect(Int64(f.floor) * 65536 + Int64(f.fraction.raw) == Int64(c.raw), "fraction \(f)")
        }
        #expect(Fixed(raw: -81920).fraction == Fixed(3, over: 4))
        #expect(Fixed(40000) == .max)
        #expect(Fixed(-40000) == .min)
        #expect(Fixed(-32768) == .min)
        #expect(Fixed(Int.max) == .max)
    }

    @Test func doubleInputBoundary() {
        #expect(Fixed(Double.nan) == .zero)
        #expect(Fixed(Double.infinity) == .max)
        #expect(Fixed(-Double.infinity) == .min)
        #expect(Fixed(1e10) == .max)
        #expect(Fixed(-1e10) == .min)
        #expect(Fixed(0.1).raw == 6554)
        #expect(Fixed(-0.1).raw == -6554)
        #expect(Fixed(1.5) == Fixed(3, over: 2))
        #expect(Fixed(0.75).double == 0.75)
    }

    @Test func description() {
        #expect(Fixed.zero.description == "0")
        #expect(Fixed.one.description == "1")
        #expect(Fixed(-1).description == "-1")
        #expect(Fixed(1.5).description == "1.5")
        #expect(Fixed(-1.5).description == "-1.5")
        #expect(Fixed(0.25).description == "0.25")
        #expect(Fixed(0.1).description == "0.10001")  // raw 6554 = 0.1000061: five digits, rounded
        #expect(Fixed.epsilon.description == "0.00002")
        #expect(Fixed(raw: -1).description == "-0.00002")
        #expect(Fixed.max.description == "32767.99998")
        #expect(Fixed.min.description == "-32768")
        #expect(Fixed(1, over: 3).description == "0.33333")
        #expect("\(Fixed(-2.125))" == "-2.125")
    }

    @Test func unitBytes() {
        #expect(Fixed.zero.unitByte == 0)
        #expect(Fixed(-1).unitByte == 0)
        #expect(Fixed.one.unitByte == 255)
        #expect(Fixed(2).unitByte == 255)
        #expect(Fixed.half.unitByte == 128)
        for b in UInt8.min...UInt8.max { #expect(Fixed(unitByte: b).unitByte == b) }
    }

    @Test func clampingAndLerp() {
        #expect(Fixed(-2).unitClamped == .zero)
        #expect(Fixed(2).unitClamped == .one)
        #expect(Fixed.half.unitClamped == .half)
        #expect(Fixed.lerp(Fixed(10), Fixed(20), Fixed(1, over: 4)) == Fixed(25, over: 2))
        #expect(Fixed.min.magnitude == .max)
        #expect(Fixed(-3).magnitude == Fixed(3))
    }
}
