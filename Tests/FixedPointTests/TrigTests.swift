import Foundation
import Testing
@testable import FixedPoint

/// Sine and cosine in turns against `Double` over every Q16.16 phase.
@Suite struct TrigTests {
    /// Stated in Trig.swift: ≤ 1.3 × 10⁻⁵ (< 1/75000).
    static let bound = 1.3e-5

    @Test func tableMatchesDouble() {
        #expect(Fixed.quarterSineQ30.count == 257)
        for (i, entry) in Fixed.quarterSineQ30.enumerated() {
            let exact = (sin(Double.pi / 2 * Double(i) / 256) * 1_073_741_824).rounded()
            #expect(abs(Double(entry) - exact) <= 1, "entry \(i)")
        }
    }

    @Test func sineAndCosineOverEveryPhase() {
        var worstSine = 0.0, worstCosine = 0.0
        for raw in Int32(-65536)...Int32(65536 + 7) {
            let turns = Fixed(raw: raw), angle = 2 * Double.pi * Double(raw) / 65536
            worstSine = max(worstSine, abs(Fixed.sine(turns: turns).double - sin(angle)))
            worstCosine = max(worstCosine, abs(Fixed.cosine(turns: turns).double - cos(angle)))
        }
        print("Trig: max |sine − sin| = \(worstSine), max |cosine − cos| = \(worstCosine)")
        #expect(worstSine <= Self.bound)
        #expect(worstCosine <= Self.bound)
    }

    @Test func q30SineOverDensePhases() {
        var worst = 0.0
        var phase: UInt32 = 0
        for _ in 0..<200_000 {
            let exact = sin(2 * Double.pi * Double(phase) / 4_294_967_296)
            worst = max(worst, abs(Double(Fixed.sineQ30(phase: phase)) / 1_073_741_824 - exact))
            phase = phase &+ 21_475_297  // ≈ 2³² / 200 000, odd so every table cell and offset is hit
        }
        print("Trig: max |sineQ30 − sin| = \(worst)")
        #expect(worst <= 4.8e-6)
    }

    @Test func exactValuesAndSymmetry() {
        #expect(Fixed.sine(turns: .zero) == .zero)
        #expect(Fixed.sine(turns: Fixed(1, over: 4)) == .one)
        #expect(Fixed.sine(turns: .half) == .zero)
        #expect(Fixed.sine(turns: Fixed(3, over: 4)) == -Fixed.one)
        #expect(Fixed.cosine(turns: .zero) == .one)
        #expect(Fixed.cosine(turns: .half) == -Fixed.one)
        #expect(Fixed.sine(turns: Fixed(1000)) == .zero)   // whole turns are exact, however many
        #expect(Fixed.sine(turns: .min) == .zero)
        for raw in stride(from: Int32(0), through: 65536, by: 97) {
            let a = Fixed(raw: raw)
            #expect(Fixed.sine(turns: -a) == -Fixed.sine(turns: a))          // odd
            #expect(Fixed.sine(turns: a + 7) == Fixed.sine(turns: a))         // periodic
            #expect(Fixed.cosine(turns: -a) == Fixed.cosine(turns: a))        // even
            #expect(Fixed.sine(turns: .half - a) == Fixed.sine(turns: a))     // mirrored
        }
    }
}
