// libFuzzer target for the control protocol's line splitter and request parser.
// Built by scripts/fuzz-protocol together with Sources/LoaderDaemon/Protocol/*.swift (standard
// library only), so the fuzzer runs the daemon's own parser code.

/// The obvious splitter over the whole input, to check the bounded one against.
func referenceLines(_ input: UnsafeRawBufferPointer, max: Int) -> [[UInt8]?] {
    var out: [[UInt8]?] = []  // nil: too long
    var line: [UInt8] = []
    var tooLong = false
    for b in input {
        if b == 0x0A {
            if !tooLong { out.append(line) }
            line = []; tooLong = false
        } else if !tooLong {
            line.append(b)
            if line.count > max { out.append(nil); tooLong = true; line = [] }
        }
    }
    return out
}

/// Whatever the bytes, the parser answers with one line, and what it accepts is in range.
func checkParse(_ bytes: UnsafeRawBufferPointer) {
    switch RequestParser.parse(bytes) {
    case .failure(let error):
        precondition(!error.reply.utf8.contains(0x0A), "an error reply holds a newline")
    case .success(let request):
        if case .progress(let p, _) = request {
            precondition((0...100_000).contains(p.thousandths))
            precondition(Percent(parsing: Substring(p.description)) == p, "percent does not round-trip")
        }
        if case .brightness(let b) = request { precondition((0...100).contains(b)) }
        if case .message(let m?) = request { precondition(m.count <= Request.maximumMessageLength) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    // First byte: chunk size and line limit; the rest is the stream.
    let control = Int(data[0])
    let chunk = control % 31 + 1
    let max = control / 31 + 8
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    var splitter = LineSplitter(maximumLineLength: max)
    var lines: [[UInt8]?] = []
    var offset = 0
    while offset < input.count {
        let end = Swift.min(input.count, offset + chunk)
        splitter.feed(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { event in
            switch event {
            case .tooLong: lines.append(nil)
            case .line(let bytes):
                precondition(bytes.count <= max, "a line over the limit was handed out")
                precondition(!bytes.contains(0x0A), "a line holds a newline")
                lines.append(Array(bytes))
                checkParse(bytes)
            }
        }
        precondition(splitter.bufferedByteCount <= max, "the buffer grew past the limit")
        offset = end
    }
    let expected = referenceLines(input, max: max)
    precondition(lines == expected, "the splitter disagrees with the reference")
    // The small limits above exercise the splitter; the parser also meets whole lines up to the
    // daemon's default limit (DaemonConfiguration.maxLine), so long messages and words reach it.
    for case let line? in referenceLines(input, max: 4096) { line.withUnsafeBytes { checkParse($0) } }
    return 0
}
