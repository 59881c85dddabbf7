// libFuzzer target for the config file's TOML parser and the display spec parser
// (`--display TYPE:key=value,...`, also what each [[display]] becomes).
// Built by scripts/fuzz-config together with Sources/LoaderDaemon/Config/TOML.swift, TOMLParser+Document.swift,
// TOMLParser+Values.swift, TOMLValue.swift,
// ConfigError.swift and Sources/Displays/DisplaySpec.swift (standard library only), so the fuzzer
// runs the daemon's own code. Checks: no trap, no stack exhaustion (ASan reports it), bounded
// nesting, errors placed inside the text, a parsed tree equal to itself, a lookup for every key.

/// Depth of the table tree under `table` (1 for a table of scalars). Iterative, so the check
/// itself cannot be what overflows the stack.
func depth(_ root: TOMLTable) -> Int {
    var deepest = 0
    var stack: [(TOMLValue.Kind, Int)] = [(.table(root), 1)]
    while let (kind, level) = stack.popLast() {
        deepest = Swift.max(deepest, level)
        switch kind {
        case .table(let t):
            for entry in t.entries {
                precondition(t[entry.key] != nil, "a key of the table is not found by lookup")
                stack.append((entry.value.kind, level + 1))
            }
        case .tableArray(let list):
            for t in list { stack.append((.table(t), level + 1)) }
        case .array(let items):
            for item in items { stack.append((item.kind, level + 1)) }
        default: break
        }
    }
    return deepest
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The daemon refuses a file that is not UTF-8 before parsing (Config.decodeUTF8).
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let lines = 1 + bytes.lazy.filter { $0 == 0x0A }.count
    do throws(ConfigError) {
        let root = try TOML.parse(text, source: "fuzz.toml")
        // Arrays and inline tables add at most maximumDepth levels per key; keys maximumKeyDepth.
        precondition(depth(root) <= 2 * (TOMLParser.maximumKeyDepth + TOMLParser.maximumDepth) + 2, "nesting past the bounds")
        precondition(root == root, "a parsed tree differs from itself")
    } catch {
        precondition((error.line ?? 1) >= 1 && (error.line ?? 1) <= lines, "error line \(error.line ?? 0) outside 1...\(lines)")
        precondition((error.column ?? 1) >= 1 && (error.column ?? 1) <= size + 1, "error column outside the line")
        precondition(!error.message.isEmpty)
    }
    // Every line as a display spec.
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(64) {
        do throws(DisplaySpecError) {
            let spec = try DisplaySpec(parsing: String(line))
            var keys: [String] = []
            for option in spec.options {
                precondition(!keys.contains(option.key), "a key given twice was accepted")
                precondition(!option.key.isEmpty && !option.value.contains(","), "an option holds a separator")
                keys.append(option.key)
            }
            precondition(!spec.type.isEmpty)
        } catch {
            precondition(!error.message.isEmpty)
        }
    }
    return 0
}
