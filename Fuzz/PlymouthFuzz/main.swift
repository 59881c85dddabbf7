// libFuzzer target for the Plymouth request framing and reply encoding.
// Built by scripts/fuzz-plymouth together with Sources/LoaderDaemon/Plymouth/PlymouthFraming.swift
// (standard library only), so the fuzzer runs the daemon's own code.

func parse(_ input: UnsafeRawBufferPointer, chunk: Int) -> ([PlymouthRequest], PlymouthFramingError?, Bool) {
    var parser = PlymouthParser()
    var requests: [PlymouthRequest] = []
    var error: PlymouthFramingError?
    var offset = 0
    while offset < input.count {
        let end = Swift.min(input.count, offset + chunk)
        error = parser.feed(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { requests.append($0) }
        if error != nil { break }
        offset = end
    }
    return (requests, error, parser.isInsideRequest)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0]) % 37 + 1
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    let whole = parse(input, chunk: Swift.max(1, input.count))
    let chunked = parse(input, chunk: chunk)
    precondition(whole.0 == chunked.0 && whole.1 == chunked.1, "chunking changed the result")

    // What was parsed re-encodes to the input's prefix, and parses back to itself.
    var encoded: [UInt8] = []
    for r in whole.0 {
        precondition((r.argument?.count ?? 0) <= 254, "an argument over 254 bytes")
        encoded += r.bytes
    }
    precondition(encoded.elementsEqual(input.prefix(encoded.count)), "re-encoding differs from the input")
    let again = encoded.withUnsafeBytes { parse($0, chunk: 7) }
    precondition(again.0 == whole.0 && again.1 == nil && !again.2, "re-encoded requests do not parse back")

    // Replies: the length field matches the payload.
    for r in whole.0.prefix(4) {
        let answer = PlymouthReply.answer(r.argument ?? []).bytes
        let n = Int(answer[1]) | Int(answer[2]) << 8 | Int(answer[3]) << 16 | Int(answer[4]) << 24
        precondition(n == answer.count - 5)
        _ = r.text
    }
    return 0
}
