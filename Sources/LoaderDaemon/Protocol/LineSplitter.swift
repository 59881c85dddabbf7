// Standard library only: this file is compiled into the protocol fuzzer as it is (Fuzz/).

/// What the splitter found in the bytes fed to it.
public enum LineEvent {
    /// A complete request line, without its `\n` (a `\r` before it is kept; the parser drops it).
    /// The bytes are valid only during the callback.
    case line(UnsafeRawBufferPointer)
    /// A line longer than the limit began; its bytes up to the next `\n` are discarded. Reported
    /// once per over-long line, as soon as the limit is passed.
    case tooLong
}

/// Splits a byte stream into `\n`-terminated lines with a bounded buffer.
///
/// Every input byte is looked at exactly once: bytes kept between reads are known to hold no
/// `\n`, so they are never scanned again. A line that arrives whole inside one chunk is handed
/// out straight from the chunk without being copied; only a partial line is kept, and never more
/// than `maximumLineLength` bytes of it. The buffer is allocated once, when the splitter is made.
public struct LineSplitter {
    /// The longest line accepted, not counting its `\n`.
    public let maximumLineLength: Int
    /// The start of a line that has not ended yet (at most `maximumLineLength` bytes).
    private var pending: [UInt8]
    /// Inside an over-long line: dropping bytes until the next `\n`.
    private var discarding = false

    public init(maximumLineLength: Int) {
        precondition(maximumLineLength > 0, "maximumLineLength must be positive")
        self.maximumLineLength = maximumLineLength
        pending = []
        pending.reserveCapacity(maximumLineLength)
    }

    /// Bytes of an unfinished line being kept.
    public var bufferedByteCount: Int { pending.count }

    /// Whether the stream is in the middle of a line (kept or being discarded).
    public var isInsideLine: Bool { !pending.isEmpty || discarding }

    /// The kept bytes dropped, the buffer kept: one out-of-line copy for its four places (for size).
    @inline(never)
    private mutating func clearPending() {
        pending.removeAll(keepingCapacity: true)
    }

    /// Bytes of an unfinished line added to the kept ones: one out-of-line copy for its two places (for size).
    @inline(never)
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
    }

    /// Feeds one chunk of the stream; `body` sees every event it completes, in order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (LineEvent) -> Void) {
        let count = chunk.count
        var start = 0  // first byte of the chunk not yet consumed
        var i = 0
        while i < count {
            if chunk[i] != 0x0A { i += 1; continue }
            // A line ends at i.
            if discarding {
                discarding = false
            } else if pending.isEmpty {
                if i - start > maximumLineLength {
                    body(.tooLong)
                } else {
                    body(.line(UnsafeRawBufferPointer(rebasing: chunk[start..<i])))
                }
            } else if pending.count + (i - start) > maximumLineLength {
                clearPending()
                body(.tooLong)
            } else {
                keep(UnsafeRawBufferPointer(rebasing: chunk[start..<i]))
                pending.withUnsafeBytes { body(.line($0)) }
                clearPending()
            }
            i += 1
            start = i
        }
        // The rest of the chunk is an unfinished line.
        let rest = count - start
        guard rest > 0, !discarding else { return }
        if pending.count + rest > maximumLineLength {
            clearPending()
            discarding = true
            body(.tooLong)
        } else {
            keep(UnsafeRawBufferPointer(rebasing: chunk[start..<count]))
        }
    }

    /// The stream ended: an unfinished line (no `\n`) is handed out as a last line.
    public mutating func finish(_ body: (LineEvent) -> Void) {
        defer { clearPending(); discarding = false }
        guard !discarding, !pending.isEmpty else { return }
        pending.withUnsafeBytes { body(.line($0)) }
    }
}
