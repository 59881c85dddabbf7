import CompactText
import Glibc
import Testing

/// The board programs' own decimal reading and printing (CompactText/DecimalNumbers.swift),
/// against the C library's `strtod` and the standard library's `description`: the same double
/// and the same text for every number of up to 15 significant digits, which is every number a
/// config file or a command line holds.
struct DecimalNumberTests {
    /// The C library's reading of `text`: nil unless all of it is one number.
    func strtodValue(_ text: String) -> Double? {
        text.withCString { start in
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(start, &end)
            return end.map { $0 != UnsafeMutablePointer(mutating: start) && $0.pointee == 0 } == true ? value : nil
        }
    }

    @Test(arguments: ["0", "5", "-1", "0.1", "2.2", "1e-10", "6.02E+2", "86400", ".5", "5.", "-0.5", "+3.25", "1e22", "1e23",
                      "0.30000000000000004", "2.5e-5", "0.1e1", "00012", "1e-400", "46753539e26", "0.000932478206935126"])
    func readsAsStrtodReads(_ text: String) {
        #expect(Double(text) == strtodValue(text), "\(text)")
    }

    /// Refused: what is not one decimal number (strtod's hexadecimal, inf and nan among them,
    /// which no setting here accepts).
    @Test(arguments: ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "1_000", "0x10", "inf", "nan", " 1", "1 ", "1,5", "--1"])
    func refusesWhatIsNotADecimal(_ text: String) {
        #expect(Double(text) == nil, "\(text)")
    }

    @Test(arguments: [1e-10, 1e-7, 1.5e-7, 1e20, 1e16, 1e15, 0.0001, 1e-5, 5.0, -1.0, 0.1, 2.2, 86400.0, -0.0, 0.0, 1e23,
                      1.0 / 3.0, 9007199254740992.0, 0.000932478206935126, 7905907898054100.0, .infinity, -.infinity])
    func printsAsTheStandardLibraryPrints(_ value: Double) {
        #expect(value.decimalText == value.description)
        #expect("\(value)" == value.description)
    }

    /// Random decimals of 1 to 15 significant digits with powers of ten from -22 to 7: read as
    /// strtod reads them, and printed back as the standard library prints the double.
    @Test func shortDecimalsMatchStrtodAndDescription() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...15, using: &generator)
            var digits = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<count { digits += String(Int.random(in: 0...9, using: &generator)) }
            let text = digits + "e" + String(Int.random(in: -22...7, using: &generator))
            guard let expected = strtodValue(text) else { Issue.record("strtod refused \(text)"); continue }
            #expect(Double(text) == expected, "\(text)")
            #expect(expected.decimalText == expected.description, "\(text)")
        }
    }

    /// The integer readers (CompactText/NumberParsing.swift) against the standard library's
    /// `init(_:radix:)`: the same value, or nil, for each text.
    @Test(arguments: ["-0", "+0", "-", "+", "", "007", "-9223372036854775808", "9223372036854775808", "9223372036854775807",
                      "4294967295", "4294967296", "2147483647", "2147483648", "-2147483648", "-2147483649", "-1", " 1", "1 ",
                      "1_0", "+-1", "\u{663}", "12a", "99999999999999999999999"])
    func integersReadAsTheStandardLibraryReads(_ text: String) {
        #expect(Int(text) == Int(text, radix: 10), "\(text)")
        #expect(Int(text[...]) == Int(text, radix: 10), "\(text)")
        #expect(Int32(text) == Int32(text, radix: 10), "\(text)")
        #expect(UInt32(text) == UInt32(text, radix: 10), "\(text)")
        #expect(UInt32(text[...]) == UInt32(text, radix: 10), "\(text)")
    }
}
