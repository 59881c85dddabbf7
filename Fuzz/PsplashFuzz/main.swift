// libFuzzer target for the psplash FIFO's command splitter and parser.
// Built by scripts/fuzz-psplash together with Sources/LoaderDaemon/Psplash/PsplashCommands.swift
// (standard library only), so the fuzzer runs the daemon's own code.

/// The obvious splitter over the whole input (nil: an over-long command).
func referenceCommands(_ input: UnsafeRawBufferPointer, max: Int) -> [[UInt8]?] {
    var out: [[UInt8]?] = []
    var current: [UInt8] = []
    var tooLong = false
    for b in input {
        if b == 0x0A || b == 0 {
            if !tooLong && !current.isEmpty { out.append(current) }
            current = []; tooLong = false
        } else if !tooLong {
            current.append(b)
            if current.count > max { out.append(nil); tooLong = true; current = [] }
        }
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    // First byte: chunk size and command limit; the rest is the FIFO's stream.
    let control = Int(data[0])
    let chunk = control % 31 + 1
    let max = control / 31 + 4
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    var splitter = PsplashSplitter(maximumLength: max)
    var commands: [[UInt8]?] = []
    var offset = 0
    while offset < input.count {
        let end = Swift.min(input.count, offset + chunk)
        splitter.feed(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { bytes in
            guard let bytes else { commands.append(nil); return }
            precondition(!bytes.isEmpty && bytes.count <= max, "a command of \(bytes.count) bytes was handed out")
            precondition(!bytes.contains(0x0A) && !bytes.contains(0), "a command holds a separator")
            commands.append(Array(bytes))
            switch PsplashCommand.parse(bytes) {
            case .progress(let n): precondition((-100...100).contains(n))
            case .message(let text), .ignored(let text):
                precondition(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control character kept")
            case .quit: break
            }
        }
        precondition(splitter.bufferedByteCount <= max, "the buffer grew past the limit")
        offset = end
    }
    precondition(commands == referenceCommands(input, max: max), "the splitter disagrees with the reference")
    // atoi over the raw input never traps and stays in range.
    precondition((-100...100).contains(PsplashCommand.atoi(input)))
    return 0
}
