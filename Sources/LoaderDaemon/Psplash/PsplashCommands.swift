// Standard library only: this file is compiled into the psplash fuzzer as it is (Fuzz/PsplashFuzz).
// docs/PROTOCOL.md ("psplash front end") is the specification; keep the two in step.

/// One command read from psplash's FIFO.
public enum PsplashCommand: Equatable, Sendable {
    /// `PROGRESS n`: −100…100 (atoi, clamped); negative fills from the right, as psplash does.
    case progress(Int)
    /// `MSG text`: the message line (text after `MSG` and its spaces; empty clears).
    case message(String)
    /// `QUIT`: end as on SIGTERM.
    case quit
    /// Anything else: ignored, as psplash does (the daemon logs it at debug level).
    case ignored(String)

    /// Longest command kept, in bytes; a longer one is dropped whole (up to its separator).
    public static let maximumLength = 1024

    /// Parses one command (without its separator), psplash's way: the first space-delimited word
    /// is the command, the rest after its spaces the argument.
    public static func parse(_ bytes: some Collection<UInt8>) -> PsplashCommand {
        // The command word is packed into an integer with its length rather than collected into
        // an array and compared with arrays of the names: that was most of this function's code.
        // The names are at most 8 bytes; a longer word (its first bytes shifted out) matches none
        // by its length.
        var word: UInt64 = 0
        var length = 0
        var index = bytes.startIndex
        // strtok(" ") skips leading spaces before the command word too.
        while index != bytes.endIndex, bytes[index] == 0x20 { index = bytes.index(after: index) }
        while index != bytes.endIndex, bytes[index] != 0x20 {
            word = word << 8 | UInt64(bytes[index]); length += 1; index = bytes.index(after: index)
        }
        while index != bytes.endIndex, bytes[index] == 0x20 { index = bytes.index(after: index) }
        let argument = bytes[index...]
        // psplash ignores PROGRESS without an argument (it falls through to `ignored`, made at
        // one place, for size).
        if length == 8, word == 0x5052_4F47_5245_5353, !argument.isEmpty { return .progress(atoi(argument)) }  // PROGRESS
        if length == 3, word == 0x4D_5347 { return .message(text(argument)) }  // MSG
        if length == 4, word == 0x5155_4954 { return .quit }  // QUIT
        return .ignored(text(bytes))
    }

    /// C's `atoi` without its undefined overflow: leading blanks, a sign, digits; stops at the
    /// first other byte; no digits is 0. Saturates, then clamps to −100…100.
    public static func atoi(_ bytes: some Collection<UInt8>) -> Int {
        var index = bytes.startIndex
        // C's isspace: a space, \t \n \v \f \r (a range, not an array literal built to search).
        while index != bytes.endIndex, bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) {
            index = bytes.index(after: index)
        }
        var negative = false
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index = bytes.index(after: index)
        }
        var value = 0
        while index != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = Swift.min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000)
            index = bytes.index(after: index)
        }
        return Swift.max(-100, Swift.min(100, negative ? -value : value))
    }

    /// Bytes as text: invalid UTF-8 is replaced, each control character a space (one line).
    static func text(_ bytes: some Collection<UInt8>) -> String { spacingControls(Array(bytes)) }

    /// Control characters (a tab, a stray CR) become spaces, so words stay apart on screen. Done on
    /// the bytes before decoding, not scalar by scalar on a String (several times the code): a C0
    /// control or DEL is one ASCII byte, never part of a multi-byte sequence, and a C1 control
    /// (U+0080…U+009F) is always the pair C2 80…9F, C2 never being a continuation byte; so
    /// decoding afterwards replaces the same invalid sequences as decoding first did. Out of line:
    /// `text` is specialised for each kind of collection.
    @inline(never)
    static func spacingControls(_ input: [UInt8]) -> String {
        var out = input
        var read = 0
        var write = 0
        while read < input.count {
            var byte = input[read]
            read += 1
            if byte < 0x20 || byte == 0x7F {
                byte = 0x20
            } else if byte == 0xC2, read < input.count, input[read] & 0xE0 == 0x80 {
                byte = 0x20
                read += 1
            }
            out[write] = byte
            write += 1
        }
        return String(decoding: out[..<write], as: UTF8.self)
    }
}

/// Splits psplash's FIFO stream into commands: separated by `\n` or `\0`, empty ones skipped,
/// several per read, a command split across reads joined. The buffer is bounded: a command longer
/// than `maximumLength` is dropped whole (reported once as `nil`), up to its separator. What is
/// left without a separator when the FIFO has nothing more to read is a command too (`flush`), as
/// psplash takes it: `echo -n 'MSG x' > psplash_fifo` and `printf 'PROGRESS 40'` work there.
public struct PsplashSplitter {
    public let maximumLength: Int
    private var pending: [UInt8] = []
    private var discarding = false

    public init(maximumLength: Int = PsplashCommand.maximumLength) {
        precondition(maximumLength > 0)
        self.maximumLength = maximumLength
        pending.reserveCapacity(maximumLength)
    }

    /// Bytes of an unfinished command being kept (never more than `maximumLength`).
    public var bufferedByteCount: Int { pending.count }

    /// Feeds one chunk; `body` gets each complete command's bytes (valid during the call only),
    /// or nil once for each over-long command that was dropped.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) -> Void) {
        var start = 0
        for i in 0..<chunk.count where chunk[i] == 0x0A || chunk[i] == 0x00 {
            emit(UnsafeRawBufferPointer(rebasing: chunk[start..<i]), body)
            start = i + 1
        }
        let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
        guard !discarding, !rest.isEmpty else { return }
        if pending.count + rest.count > maximumLength {
            pending.removeAll(keepingCapacity: true)
            discarding = true
            body(nil)
        } else {
            pending.append(contentsOf: rest)
        }
    }

    private mutating func emit(_ tail: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) -> Void) {
        if discarding {
            discarding = false
            return
        }
        if pending.isEmpty {
            if tail.count > maximumLength { body(nil); return }
            if !tail.isEmpty { body(tail) }
            return
        }
        if pending.count + tail.count > maximumLength {
            pending.removeAll(keepingCapacity: true)
            body(nil)
            return
        }
        pending.append(contentsOf: tail)
        pending.withUnsafeBytes { body($0) }
        pending.removeAll(keepingCapacity: true)
    }

    /// The end of what was written: the bytes kept since the last separator are a command (an
    /// over-long one was reported when it passed the limit, and ends here).
    /// `emit` with an empty tail does just that (one copy of the code, for size).
    public mutating func flush(_ body: (UnsafeRawBufferPointer?) -> Void) {
        emit(UnsafeRawBufferPointer(start: nil, count: 0), body)
    }
}
