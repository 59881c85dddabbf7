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
            if UTF8Check.firstInvalid(bytes) != nil { throw InvalidArgumentEncoding(position: i, bytes: Array(bytes)) }
            words.append(String(cString: pointer))
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
    /// not part of a UTF-8 character as \xHH, the rest as given.
    public var description: String {
        "argument \(position) ('\(UTF8Check.shown(bytes))') is not valid UTF-8 (the bytes shown as \\xHH); arguments must be UTF-8 text"
    }
}

/// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing above U+10FFFF.
enum UTF8Check {
    /// The length of the valid character starting at `bytes[i]`, or nil when none starts there.
    static func characterLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let lead = bytes[i]
        if lead < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard i + length <= bytes.count, bytes[i + 1] >= low, bytes[i + 1] <= high else { return nil }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The offset of the first byte that starts no valid character, or nil when all is UTF-8.
    static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < bytes.count {
            guard let length = characterLength(bytes, at: i) else { return i }
            i += length
        }
        return nil
    }

    /// The bytes as text, each one outside a valid character (and each control character) as \xHH.
    static func shown(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            var text = ""
            var i = 0
            while i < buffer.count {
                if let length = characterLength(buffer, at: i), length > 1 || buffer[i] >= 0x20 && buffer[i] != 0x7F {
                    text += String(decoding: UnsafeBufferPointer(rebasing: buffer[i..<(i + length)]), as: UTF8.self)
                    i += length
                } else {
                    let hex = String(buffer[i], radix: 16, uppercase: true)
                    text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                    i += 1
                }
            }
            return text
        }
    }
}
