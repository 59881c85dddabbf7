import CLinux
import CommandLineKit
import CompactText

// A verb of loaderctl as data: its help page (which lists its options) and what it does with
// the parsed words. Board code has no reflection, so each verb reads its own options and
// positionals from `ParsedArguments`; `LoaderCtl.main` does the rest (help, errors, exit).

/// Why a verb did not finish: a usage error (exit 2, nothing sent) or a runtime failure (1 or 3).
enum CommandError: Error {
    case usage(UsageError)
    case failure(RuntimeFailure)

    static func usage(_ message: String) -> CommandError { .usage(UsageError(message: message)) }
}

struct Verb: Sendable {
    let name: String
    let page: HelpPage
    /// Options taken besides the page's, not listed there: the connection options of the
    /// offline verbs, which mean nothing to them but come in a script's fixed prefix.
    var unlistedOptions: [OptionSpec] = []
    let run: @Sendable (ParsedArguments) throws(CommandError) -> Void
}

extension ParsedArguments {
    /// The positionals for a verb taking `required` of them and up to `optional` more (nil: any
    /// number more); a missing one or an unknown option or an extra argument is a usage error.
    func verbArguments(required: [String], optional: Int?, options: [OptionSpec]) throws(CommandError) -> [String] {
        if positionals.count < required.count {
            throw .usage("Missing expected argument '\(required[positionals.count])'")
        }
        if let error = ArgumentSyntax.leftovers(self, options: options, expected: optional.map { required.count + $0 } ?? Int.max) {
            throw .usage(error)
        }
        return positionals
    }

    /// The last value of a numeric option, converted; nil when not given.
    func number<T>(_ option: OptionSpec, _ convert: (String) -> T?) throws(CommandError) -> T? {
        do throws(UsageError) {
            return try ArgumentSyntax.convert(self, option, convert)
        } catch {
            throw .usage(error)
        }
    }
}

/// Plain decimal notation as the protocol takes it: `D+[.D*]` or `.D+` (no sign, no exponent,
/// no inf or nan).
func isPlainDecimal(_ text: Substring) -> Bool {
    let bytes = Array(text.utf8)
    let digit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    let dots = bytes.filter { $0 == UInt8(ascii: ".") }.count
    return !bytes.isEmpty && dots <= 1 && bytes.allSatisfy { digit($0) || $0 == UInt8(ascii: ".") } && bytes.contains(where: digit)
}

func hexCode(_ scalar: Unicode.Scalar) -> String { "U+" + String(scalar.value, radix: 16, uppercase: true) }

/// `5`, `0.25`: seconds without a needless `.0`.
func formatSeconds(_ s: Double) -> String {
    s == s.rounded() && abs(s) < 1e15 ? String(Int(s)) : "\(s)"
}
