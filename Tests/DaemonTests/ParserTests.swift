import LoaderDaemon
import Testing

@Suite struct LineSplitterTests {
    /// The obvious splitter: whole input in memory.
    static func reference(_ input: [UInt8], max: Int) -> [String] {
        var out: [String] = []
        var line: [UInt8] = []
        var tooLong = false
        for b in input {
            if b == 0x0A {
                if !tooLong { out.append("L:" + String(decoding: line, as: UTF8.self)) }
                line = []; tooLong = false
            } else if !tooLong {
                line.append(b)
                if line.count > max { out.append("T"); tooLong = true; line = [] }
            }
        }
        return out
    }

    static func split(_ input: [UInt8], max: Int, chunk: Int) -> [String] {
        var splitter = LineSplitter(maximumLineLength: max)
        var out: [String] = []
        var offset = 0
        while offset < input.count {
            let end = Swift.min(input.count, offset + chunk)
            input[offset..<end].withUnsafeBytes { bytes in
                splitter.feed(bytes) { event in
                    switch event {
                    case .line(let l): out.append("L:" + String(decoding: l, as: UTF8.self))
                    case .tooLong: out.append("T")
                    }
                }
            }
            #expect(splitter.bufferedByteCount <= max)
            offset = end
        }
        return out
    }

    @Test func everyChunkSizeMatchesTheReference() {
        var inputs: [[UInt8]] = []
        // Lines of every length around the limit, empty lines, and a long run without newline.
        let max = 16
        var text = ""
        for n in 0...40 { text += String(repeating: Character(UnicodeScalar(UInt8(97 + n % 26))), count: n) + "\n" }
        text += "\n\n" + String(repeating: "q", count: 100) + "\nend\npartial"
        inputs.append(Array(text.utf8))
        var g = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            inputs.append((0..<Int.random(in: 0...400, using: &g)).map { _ in
                UInt8.random(in: 0...9, using: &g) == 0 ? 0x0A : UInt8.random(in: 32...126, using: &g)
            })
        }
        for input in inputs {
            let expected = Self.reference(input, max: max)
            for chunk in 1...(input.count + 1) {
                #expect(Self.split(input, max: max, chunk: chunk) == expected, "chunk size \(chunk)")
            }
        }
    }

    @Test func finishHandsOutTheUnterminatedLine() {
        var s = LineSplitter(maximumLineLength: 8)
        var out: [String] = []
        Array("ab\ncd".utf8).withUnsafeBytes { s.feed($0) { if case .line(let l) = $0 { out.append(String(decoding: l, as: UTF8.self)) } } }
        s.finish { if case .line(let l) = $0 { out.append(String(decoding: l, as: UTF8.self)) } }
        #expect(out == ["ab", "cd"])
    }
}

@Suite struct RequestParserTests {
    func parse(_ s: String) -> Result<Request, ProtocolError> {
        Array(s.utf8).withUnsafeBytes { RequestParser.parse($0) }
    }

    @Test func percents() {
        let good: [(String, Int)] = [("0", 0), ("100", 100_000), ("42.5", 42_500), (".5", 500), ("5.", 5_000),
                                      ("33.3333", 33_333), ("33.3335", 33_334), ("99.9999", 100_000), ("007", 7_000)]
        for (text, value) in good { #expect(Percent(parsing: Substring(text))?.thousandths == value, "\(text)") }
        for text in ["", ".", "-1", "+1", "101", "100.0001", "1e2", "nan", "inf", "1,5", " 1", "1..2", "99999999999999999999"] {
            #expect(Percent(parsing: Substring(text)) == nil, "\(text)")
        }
        #expect(Percent(thousandths: 42_500).description == "42.5")
        #expect(Percent(thousandths: 40_000).jsonDescription == "40.0")
        #expect(Percent(thousandths: 1_005).description == "1.005")
    }

    @Test func requests() {
        #expect(parse("ping") == .success(.ping))
        #expect(parse("  ping  \r") == .success(.ping))
        #expect(parse("start bar  fill=red ") == .success(.start(name: "bar", assignments: [Assignment(key: "fill", value: "red")])))
        #expect(parse("stop now") == .success(.stop(.now)))
    }

    /// A value in double quotes may hold spaces (a shimmer's `text`); `\"` and `\\` inside stand
    /// for a quote and a backslash; an unquoted value is its word, quotes and all, as before.
    @Test func startValuesInQuotes() {
        func start(_ pairs: [(String, String)]) -> Result<Request, ProtocolError> {
            .success(.start(name: "shimmer", assignments: pairs.map { Assignment(key: $0.0, value: $0.1) }))
        }
        #expect(parse(#"start shimmer text="Hello  world" textColor=red"#) == start([("text", "Hello  world"), ("textColor", "red")]))
        #expect(parse(#"start shimmer text="say \"hi\" \\ \n""#) == start([("text", #"say "hi" \ \n"#)]))
        #expect(parse(#"start shimmer text="""#) == start([("text", "")]))
        #expect(parse(#"start shimmer text=a"b"#) == start([("text", #"a"b"#)]))
        #expect(parse(#"start shimmer a=b=c"#) == start([("a", "b=c")]))
        for (line, said) in [(#"start shimmer text="Hello"#, "the value of 'text' has no closing quote"),
                             (#"start shimmer text="a"b"#, "the quoted value of 'text' is followed by more than a space"),
                             (#"start shimmer text="a\""#, "the value of 'text' has no closing quote"),
                             (#"start shimmer =x"#, "'=x' is not key=value"),
                             (#"start shimmer text="a" text=b"#, "parameter 'text' is given twice")] {
            guard case .failure(let error) = parse(line) else { Issue.record("\(line) was accepted"); continue }
            #expect(error.code == .badParameter && error.message.hasPrefix(said), "\(line): \(error.message)")
        }
        // A value is one line of printable text, as a message is (loaderctl refuses it too).
        for line in ["start shimmer text=a\u{1B}[31m", "start shimmer text=\"tab\there\""] {
            guard case .failure(let error) = parse(line) else { Issue.record("\(line) was accepted"); continue }
            #expect(error.code == .encoding && error.message.hasPrefix("the value of 'text' is one line of printable text; control character"), "\(error.message)")
        }
        #expect(parse("start") == .failure(ProtocolError(.usage, #"usage: start NAME [key=value]... (a value with spaces in double quotes: text="Hello world")"#)))
        #expect(parse("progress 5 force") == .success(.progress(Percent(thousandths: 5000), force: true)))
        #expect(parse("message  two  spaces ") == .success(.message("two  spaces ")))
        #expect(parse("message   ") == .success(.message(nil)))
        #expect(parse("brightness 0") == .success(.brightness(0)))
        #expect((try? parse("ping\u{0}").get()) == nil)
    }
}
