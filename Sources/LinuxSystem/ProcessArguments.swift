import CLinux
import CompactText

/// The words the program was started with, argv[0] first. `CommandLine.arguments` in ordinary
/// Swift; Embedded Swift has no `CommandLine`, so both builds read argv from the C shim.
public enum ProcessArguments {
    /// Every word, argv[0] first. A word that is not valid UTF-8 comes out repaired (each bad
    /// byte a U+FFFD): for what only looks at the words, e.g. `-h`; see `validated()`.
    public static var all: [String] {
        (0..<Int(loaderd_argument_count())).map { i in
            loaderd_argument(Int32(i)).map { String(cString: $0) } ?? ""
        }
    }

    /// The words after the program's name, each exactly as given. Swift would repair a word that
    /// is not valid UTF-8 and the program would act on other text than it was given (a message
    /// the daemon refuses raw shown with U+FFFD, a path naming another file), so such a word is
    /// an error naming it.
    public static func validated() throws(InvalidArgumentEncoding) -> [String] {
        var words: [String] = []
        for i in 1..<Swift.max(1, Int(loaderd_argument_count())) {
            guard let pointer = loaderd_argument(Int32(i)) else { words.append(""); continue }
            let start = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            var count = 0
            while start[count] != 0 { count += 1 }
            let bytes = UnsafeBufferPointer(start: start, count: count)
            guard let word = String(validating: bytes, as: UTF8.self) else {
                throw InvalidArgumentEncoding(position: i, bytes: Array(bytes))
            }
            words.append(word)
        }
        return words
    }

    /// Started in an initrd whose init is systemd (it has /etc/initrd-release, as dracut's and
    /// every systemd initrd has): systemd kills every process left from the initrd when it
    /// switches to the real root, sparing those whose argv[0] starts with '@' (systemd's
    /// "Storage Daemons for the Root File System"; plymouthd does the same). The splash must
    /// outlive the switch, so this marks argv[0]. Returns true when it did. Outside an initrd
    /// nothing changes: a process on the real root marked so would hold it at shutdown.
    public static func markAsInitrdSurvivor(releaseFile: String = "/etc/initrd-release") -> Bool {
        guard access(releaseFile, F_OK) == 0 else { return false }
        return loaderd_mark_argv0_at() == 0
    }

    /// An environment variable, or nil when unset.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// A command-line word that is not valid UTF-8: which one (1: the first after the program's
/// name) and its bytes.
public struct InvalidArgumentEncoding: Error, Sendable {
    public let position: Int
    public let bytes: [UInt8]

    /// `argument 2 ('ok\xFF\xFEend') is not valid UTF-8 ...`: the word with each byte that is
    /// not part of a UTF-8 character, and each control character, as \xHH, the rest as given
    /// (the standard library's decoder says which bytes those are).
    public var description: String {
        var text = "", parser = Unicode.UTF8.ForwardParser(), input = bytes.makeIterator(), at = 0
        func hex(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16, uppercase: true)
            return "\\x" + (digits.utf8.count == 1 ? "0" + digits : digits)  // ASCII digits: bytes, not Characters (for size)
        }
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar.value < 0x20 || scalar.value == 0x7F { text += hex(UInt8(scalar.value)) } else { text.unicodeScalars.append(scalar) }
                at += encoded.count
            case .error(let length):
                for byte in bytes[at..<(at + length)] { text += hex(byte) }
                at += length
            case .emptyInput:
                return filled("argument {} ('{}') is not valid UTF-8 (the bytes shown as \\xHH); arguments must be UTF-8 text", String(position), text)
            }
        }
    }
}
