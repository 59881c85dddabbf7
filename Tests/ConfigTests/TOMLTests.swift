import Testing
@testable import LoaderDaemon

/// The TOML subset, feature by feature, and its syntax errors with line:column.
@Suite("TOML subset parser")
struct TOMLTests {
    private func parse(_ text: String) throws(ConfigError) -> TOMLTable { try TOML.parse(text, source: "t.toml") }

    private func value(_ text: String, _ path: String...) throws -> TOMLValue.Kind {
        var table = try parse(text)
        for key in path.dropLast() {
            switch table[key]?.value.kind {
            case .table(let t)?: table = t
            case .tableArray(let list)?: table = list[list.count - 1]
            default: Issue.record("no table \(key)"); throw ConfigError(source: "", message: "no table")
            }
        }
        guard let kind = table[path.last!]?.value.kind else { throw ConfigError(source: "", message: "no key \(path.last!)") }
        return kind
    }

    private func string(_ text: String, _ path: String...) throws -> String? {
        var table = try parse(text)
        for key in path.dropLast() { guard case .table(let t)? = table[key]?.value.kind else { return nil }; table = t }
        guard case .string(let s)? = table[path.last!]?.value.kind else { return nil }
        return s
    }

    /// The error's `line:column: [key: ]message`, without the file name.
    private func failure(_ text: String) -> String {
        do { _ = try parse(text); return "no error" } catch { return String(error.description.dropFirst("t.toml:".count)) }
    }

    @Test func commentsBlankLinesAndCRLF() throws {
        let t = try parse("# top\n\n  a = 1 # trailing\r\nb = 'x#y' # not a comment inside\n# end")
        #expect(t.entries.map(\.key) == ["a", "b"])
        #expect(try string("b = 'x#y' # c", "b") == "x#y")
        #expect(try parse("\u{FEFF}a = 1").entries.count == 1)
    }

    @Test func basicStringEscapes() throws {
        #expect(try string(#"s = "q\" b\\ n\n t\t u\u00e9 U\U0001F600 \b\f\r""#, "s") == "q\" b\\ n\n t\t u\u{e9} U\u{1F600} \u{8}\u{C}\r")
        #expect(try string(#"s = """#, "s") == "")
        #expect(try string("s = \"tab\there ünïcödé\"", "s") == "tab\there ünïcödé")
    }

    @Test func literalStringsAreTakenAsWritten() throws {
        #expect(try string(#"s = 'C:\path\n "q"'"#, "s") == #"C:\path\n "q""#)
    }

    @Test func integers() throws {
        #expect(try value("n = 42", "n") == .integer(42))
        #expect(try value("n = -17", "n") == .integer(-17))
        #expect(try value("n = +3", "n") == .integer(3))
        #expect(try value("n = 1_000_000", "n") == .integer(1_000_000))
        #expect(try value("n = 0", "n") == .integer(0))
        #expect(try value("n = 0xff", "n") == .integer(255))
        #expect(try value("n = 0o17", "n") == .integer(15))
        #expect(try value("n = 0b1010", "n") == .integer(10))
        #expect(try value("n = 9223372036854775807", "n") == .integer(Int.max))
    }

    @Test func floats() throws {
        #expect(try value("f = 1.5", "f") == .float(1.5, text: "1.5"))
        #expect(try value("f = -0.25", "f") == .float(-0.25, text: "-0.25"))
        #expect(try value("f = 1e3", "f") == .float(1000, text: "1e3"))
        #expect(try value("f = 6.02E+2", "f") == .float(602, text: "6.02E+2"))
        #expect(try value("f = 1_0.5", "f") == .float(10.5, text: "1_0.5"))
        #expect(try value("f = inf", "f") == .float(.infinity, text: "inf"))
        #expect(try value("f = -inf", "f") == .float(-.infinity, text: "-inf"))
        guard case .float(let nan, _) = try value("f = nan", "f") else { Issue.record("nan"); return }
        #expect(nan.isNaN)
    }

    @Test func booleans() throws {
        #expect(try value("a = true", "a") == .boolean(true))
        #expect(try value("a = false", "a") == .boolean(false))
    }

    @Test func arraysSpanLinesWithCommentsAndATrailingComma() throws {
        let kind = try value("a = [\n  1, # one\n  2.5,\n  \"three\", [true],\n]", "a")
        guard case .array(let items) = kind else { Issue.record("not an array"); return }
        #expect(items.count == 4)
        #expect(items[0].kind == .integer(1))
        #expect(items[2].kind == .string("three"))
        #expect(try value("a = []", "a") == .array([]))
    }

    @Test func inlineTables() throws {
        let t = try parse(##"p = { fill = "#fff", n = 2, deep.key = 'x' }"##)
        guard case .table(let p)? = t["p"]?.value.kind else { Issue.record("not a table"); return }
        #expect(p.entries.map(\.key) == ["fill", "n", "deep"])
        #expect(p["n"]?.value.kind == .integer(2))
        #expect(try value("p = {}", "p") == .table(TOMLTable(origin: .inline, position: .init(line: 1, column: 5))))
    }

    @Test func tablesSubtablesAndArraysOfTables() throws {
        let t = try parse("""
            top = 1
            [a]
            x = 1
            [a.b]
            y = 2
            [[list]]
            n = 1
            [[list]]
            n = 2
            [list.sub]
            z = 3
            """)
        #expect(t.entries.map(\.key) == ["top", "a", "list"])
        #expect(try value("[a]\n[a.b]\ny = 2", "a", "b", "y") == .integer(2))
        guard case .tableArray(let list)? = t["list"]?.value.kind else { Issue.record("not a table array"); return }
        #expect(list.count == 2)
        #expect(list[1]["n"]?.value.kind == .integer(2))
        #expect(list[1]["sub"] != nil && list[0]["sub"] == nil)
        // A table made on the way to a deeper one may be defined later.
        #expect(try value("[x.y]\nq = 1\n[x]\nr = 2", "x", "r") == .integer(2))
    }

    @Test func dottedAndQuotedKeys() throws {
        #expect(try value("a.b.c = 1", "a", "b", "c") == .integer(1))
        #expect(try value("a . b = 1\na.c = 2", "a", "c") == .integer(2))
        #expect(try value(#""key with spaces" = 1"#, "key with spaces") == .integer(1))
        #expect(try value("'lit.key' = 1", "lit.key") == .integer(1))
        #expect(try value("[\"q t\"]\nk = 1", "q t", "k") == .integer(1))
    }

    @Test(arguments: [
        ("a = 1\nb = \"open", "2:5: b: unterminated string; a string must end on the line where it starts"),
        ("x = 1\na = 1\na = 2", "3:1: duplicate key 'a' (first set at line 2)"),
        ("a = ", "1:5: a: expected a value after '=', found end of file"),
        ("a 1", "1:3: expected '=' after the key 'a', found '1'"),
        ("a = 1 2", "1:7: a: expected the end of the line after the value, found '2'"),
        ("a = hello", #"1:5: a: hello is not a value; strings need quotes: "hello""#),
        ("a = 1979-05-27", #"1:5: a: dates and times are not supported; write 1979-05-27 as a "string""#),
        ("a = 07", "1:5: a: 07 is not a number"),
        ("a = 1__0", "1:5: a: 1__0 is not a number"),
        ("a = 1.", "1:5: a: 1. is not a number"),
        ("a = 99999999999999999999", "1:5: a: 99999999999999999999 is out of range (integers must fit in 64 bits, decimals must be finite)"),
        (#"a = "\x""#, #"1:6: a: unknown escape \x in a string; use \" \\ \b \t \n \f \r \uXXXX or \UXXXXXXXX"#),
        (#"a = "\u12""#, #"1:6: a: \u needs 4 hexadecimal digits"#),
        (#"a = "\uD800""#, #"1:6: a: \uD800 is not a Unicode scalar value"#),
        ("a = \"\"\"x\"\"\"", #"1:5: a: multi-line strings (""") are not supported; use \n in a one-line string"#),
        ("a = [1, 2", "1:10: a: unterminated array (opened at line 1, column 5)"),
        ("a = [1 2]", "1:8: a: expected ',' or ']' in the array, found '2'"),
        ("a = { b = 1,\n c = 2 }", "1:13: a: an inline table { ... } must close on the line where it opens"),
        ("a = { b = 1, }", "1:14: a: no trailing ',' is allowed before '}' in an inline table"),
        ("[a]\n[a]", "2:2: [a] is defined twice (first at line 1)"),
        ("[[a]]\n[a]", "2:2: 'a' is an array of tables (line 1): write [[a]] for another one"),
        ("[a]\n[[a]]", "2:3: 'a' is a table (line 1), not an array of tables: write [[a]] for each of them, or [a] once"),
        ("a = 1\n[a]", "2:2: 'a' is already a value (line 1), not a table"),
        ("[a\n", "1:3: expected ']' to close the table header, found end of line"),
        ("[[a]\n", "1:5: expected ']]' to close the array-of-tables header, found end of line"),
        ("= 1", "1:1: expected a key (letters, digits, '_', '-', or a quoted key), found '='"),
        ("a = 1\r", "1:6: a carriage return must be followed by a newline"),
        ("a = \"bell\u{7}\"", #"1:10: a: control character U+7 in a string; write it as an escape such as \n or \u0000"#),
        ("a.b = 1\n[a]\nc = 2", "2:2: [a] is defined twice (first at line 1)"),
        ("a = 1\na.b = 2", "2:1: 'a' is already defined (line 1); it cannot be extended with a dotted key"),
        ("[t]\nk = \"é\" x", "2:9: t.k: expected the end of the line after the value, found 'x'"),
    ])
    func syntaxErrorsNameTheLineAndColumn(text: String, expected: String) {
        #expect(failure(text) == expected)
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = "a = " + String(repeating: "[", count: 10_000)
        #expect(failure(deep).contains("nested more than 32 deep"))
        let deepTables = "a = " + String(repeating: "{ b = ", count: 10_000)
        #expect(failure(deepTables).contains("nested more than 32 deep"))
    }

    @Test func numberClassification() {
        #expect(TOMLParser.number("12") == .integer(12))
        #expect(TOMLParser.number("-0") == .integer(0))
        #expect(TOMLParser.number("1e999") == .outOfRange)
        #expect(TOMLParser.number("0x") == nil)
        #expect(TOMLParser.number("_1") == nil)
        #expect(TOMLParser.number("1_") == nil)
        #expect(TOMLParser.number(".5") == nil)
        #expect(TOMLParser.number("1e") == nil)
        #expect(TOMLParser.number("0xG") == nil)
    }
}

