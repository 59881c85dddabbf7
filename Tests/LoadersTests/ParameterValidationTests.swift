@testable import Loaders
import Testing

/// Refused parameters name the loader, the key, the value and what is accepted.
@Suite struct ParameterValidationTests {
    static func error(_ name: String, _ key: String, _ value: String) -> ParameterError? {
        do {
            _ = try Catalog.make(name, assignments: [(key, value)])
            return nil
        } catch {
            guard case .parameter(let e) = error else { return nil }
            return e
        }
    }

    /// `Catalog.validate` (a settings check) parses only the values given: it relies on every
    /// default parsing, and refuses exactly what `make` refuses.
    @Test func everyDefaultParsesAndValidateAgreesWithMake() throws {
        for kind in Catalog.loaders {
            for spec in kind.parameters {
                #expect(throws: Never.self, "\(kind.name).\(spec.key) default \(spec.defaultValue)") {
                    _ = try spec.parse(spec.defaultValue, loader: kind.name)
                }
            }
        }
        let cases: [(String, [(key: String, value: String)])] = [
            ("linkedin", []), ("linkedin", [("duration", "0.01")]), ("linkedin", [("speed", "3")]),
            ("shimmer", [("preset", "grok"), ("duration", "2")]), ("shimmer", [("preset", "nosuch")]),
            ("shimmer", [("preset", "calm")]), ("bar", [("preset", "calm")]), ("worm", [("screen.background", "#000000")]),
            ("worm", [("screen.background", "nope")]), ("nosuch", []),
        ]
        for (name, assignments) in cases {
            let made: String? = { do { _ = try Catalog.make(name, assignments: assignments); return nil } catch { return "\(error)" } }()
            let checked: String? = { do { try Catalog.validate(name, assignments: assignments); return nil } catch { return "\(error)" } }()
            #expect(made == checked, "\(name) \(assignments)")
        }
    }

    @Test func catalogOrder() {
        #expect(Catalog.names.first == "linkedin")
        #expect(Catalog.names.dropFirst().first == "pagedots")
        #expect(Catalog.names.last == "bar")
    }

    @Test(arguments: ["linkedin", "pagedots", "bar"])
    func unknownKey(loader: String) throws {
        let e = try #require(Self.error(loader, "speed", "2"))
        #expect(e.loader == loader && e.key == "speed" && e.value == "2")
        #expect(e.description.contains("speed=2"))
        #expect(e.description.contains("unknown parameter"))
        let keys = Catalog.type(named: loader)!.parameters.map(\.key)
        #expect(e.description.contains(keys.joined(separator: ", ")), "\(e.description)")
    }

    @Test(arguments: [("linkedin", "fill"), ("linkedin", "track"), ("pagedots", "color"), ("bar", "fill")])
    func badColour(loader: String, key: String) throws {
        for value in ["#12G456", "blu", "#12345", "white@2"] {
            let e = try #require(Self.error(loader, key, value))
            #expect(e.key == key && e.value == value)
            #expect(e.description.contains("\(key)=\(value)"))
            #expect(e.description.contains("#RRGGBB") && e.description.contains("blue"), "\(e.description)")
        }
    }

    @Test func durationOutOfRange() throws {
        for value in ["0", "-1", "1000", "fast", "nan"] {
            let e = try #require(Self.error("linkedin", "duration", value))
            #expect(e.key == "duration" && e.value == value)
            #expect(e.description.contains("duration=\(value)"))
            #expect(e.description.contains("seconds from 0.05 to 60"), "\(e.description)")
        }
        #expect(Self.error("linkedin", "duration", "0.85") == nil)
    }

    @Test func pagedotsRanges() throws {
        let count = try #require(Self.error("pagedots", "count", "0"))
        #expect(count.description.contains("a whole number from 1 to 32"))
        let page = try #require(Self.error("pagedots", "pageDuration", "0"))
        #expect(page.key == "pageDuration" && page.description.contains("seconds from"))
        let opacity = try #require(Self.error("pagedots", "seenOpacity", "1.5"))
        #expect(opacity.description.contains("a number from 0 to 1"))
    }

    @Test func badCurve() throws {
        let e = try #require(Self.error("linkedin", "curve", "1.5,0,0.4,1"))
        #expect(e.key == "curve" && e.description.contains("cubic-bezier"))
        #expect(Self.error("linkedin", "curve", "0.25,0.1,0.25,1") == nil)
    }
}
