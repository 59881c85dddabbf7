import Foundation
import Testing
@testable import FixedPoint

/// e^(−x), 2^(−x) and x^p against `Double` over dense sweeps.
@Suite struct ExponentialTests {
    @Test func tablesMatchDouble() {
        #expect(Fixed.exp2NegativeQ30Table.count == 257)
        #expect(Fixed.log2Q30Table.count == 257)
        for i in 0...256 {
            let e = (pow(2, -Double(i) / 256) * 1_073_741_824).rounded()
            let l = (log2(1 + Double(i) / 256) * 1_073_741_824).rounded()
            #expect(abs(Double(Fixed.exp2NegativeQ30Table[i]) - e) <= 1, "exp2 entry \(i)")
            #expect(abs(Double(Fixed.log2Q30Table[i]) - l) <= 1, "log2 entry \(i)")
        }
        #expect(Fixed.log2eQ32 == Int64((log2(M_E) * 4_294_967_296).rounded()))
    }

    @Test func expNegativeWithinBound() {
        var worst = 0.0
        for raw in stride(from: Int32(0), through: 13 << 16, by: 3) {
            let x = Fixed(raw: raw)
            worst = max(worst, abs(Fixed.expNegative(x).double - exp(-x.double)))
        }
        print("Exponential: max |expNegative − exp(−x)| = \(worst)")
        #expect(worst <= 1e-5)
    }

    @Test func expNegativeRangeAndEdges() {
        #expect(Fixed.expNegative(.zero) == .one)
        #expect(Fixed.expNegative(Fixed(-5)) == .one)
        #expect(Fixed.expNegative(Fixed(12)) == .zero)
        #expect(Fixed.expNegative(Fixed(30)) == .zero)
        #expect(Fixed.expNegative(.max) == .zero)
        #expect(Fixed.expNegative(.epsilon).raw == 65535)
        // Monotonic non-increasing over the whole useful range.
        var previous = Fixed.one
        for raw in stride(from: Int32(0), through: 13 << 16, by: 5) {
            let v = Fixed.expNegative(Fixed(raw: raw))
            #expect(v <= previous)
            previous = v
        }
    }

    @Test func exp2NegativeWithinBound() {
        var worst = 0.0
        for raw in stride(from: Int32(0), through: 18 << 16, by: 5) {
            let x = Fixed(raw: raw)
            worst = max(worst, abs(Fixed.exp2Negative(x).double - pow(2, -x.double)))
        }
        print("Exponential: max |exp2Negative − 2^(−x)| = \(worst)")
        #expect(worst <= 1e-5)
        #expect(Fixed.exp2Negative(Fixed(3)) == Fixed(1, over: 8))
        #expect(Fixed.exp2Negative(Fixed(-3)) == .one)
        #expect(Fixed.exp2Negative(.max) == .zero)
    }

    @Test(arguments: [0.25, 0.5, 1.0, 1.2, 1.5, 2.0, 3.0, 4.0, 8.0])
    func powUnitWithinBound(exponent: Double) {
        let p = Fixed(exponent)
        let bound = 1.0 / 65536 + 2e-6 * exponent
        var worst = 0.0
        for raw in stride(from: Int32(0), through: 65536, by: 3) {
            let x = Fixed(raw: raw)
            worst = max(worst, abs(Fixed.powUnit(x, p).double - pow(x.double, p.double)))
        }
        print("Exponential: max |powUnit(x, \(exponent)) − x^p| = \(worst) (bound \(bound))")
        #expect(worst <= bound)
    }

    @Test func powUnitEdges() {
        #expect(Fixed.powUnit(.zero, .zero) == .one)
        #expect(Fixed.powUnit(.half, .zero) == .one)
        #expect(Fixed.powUnit(.half, Fixed(-2)) == .one)
        #expect(Fixed.powUnit(.zero, Fixed(1.2)) == .zero)
        #expect(Fixed.powUnit(Fixed(-1), Fixed(1.2)) == .zero)
        #expect(Fixed.powUnit(.one, Fixed(1.2)) == .one)
        #expect(Fixed.powUnit(Fixed(3), Fixed(1.2)) == .one)
        #expect(Fixed.powUnit(.half, .one) == .half)
        #expect(Fixed.powUnit(.half, Fixed(2)) == Fixed(1, over: 4))
        #expect(Fixed.powUnit(.half, .max) == .zero)
        #expect(Fixed.powUnit(.epsilon, .max) == .zero)
        #expect(abs(Fixed.powUnit(Fixed(raw: 65535), .max).double - pow(65535.0 / 65536, Fixed.max.double)) <= 1.0 / 65536 + 2e-6 * Fixed.max.double)  // ≈ e^(−1/2); the stated bound
        #expect(abs(Fixed.powUnit(.epsilon, Fixed(1, over: 16)).double - pow(1.0 / 65536, 1.0 / 16)) <= 2e-5)
    }

    /// The worm loader: overlay opacity n^1.2 for n = 1 − d / trailLength.
    @Test func wormTrailOpacity() {
        let trail = Fixed(2.8), exponent = Fixed(1.2)
        for raw in stride(from: Int32(0), through: Int32(trail.raw), by: 101) {
            let d = Fixed(raw: raw)
            let n = Fixed.one - d / trail
            let expected = pow(n.double, 1.2)
            #expect(abs(Fixed.powUnit(n, exponent).double - expected) <= 1.0 / 50000)
        }
    }
}
