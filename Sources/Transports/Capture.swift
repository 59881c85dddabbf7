/// How much a capture transport keeps.
public enum CaptureRecording: Sendable, Equatable {
    /// Every message (or line state) since the last `removeAll()`: for tests that decode it.
    case everything
    /// Only the most recent `n`: bounded memory for `dry-run=true` in a long-running daemon.
    case last(Int)
    /// Nothing but counts: benchmarks (no allocation per frame).
    case countOnly
}

/// An SPI bus that records the bytes instead of sending them: for tests (decoders turn them back
/// into pixels) and for displays opened with `dry-run=true`.
public final class SPICapture: SPIBus {
    public let name: String
    public var maximumMessageLength: Int
    public var recording: CaptureRecording
    /// The recorded messages (see `recording`; with `.last(n)` a ring: `recentMessages` is in order).
    public private(set) var messages: [[UInt8]] = []
    /// Messages and bytes sent since creation or the last `removeAll()`, recorded or not.
    public private(set) var messageCount = 0
    public private(set) var byteCount = 0

    public init(name: String = "capture", maximumMessageLength: Int = Int.max, recording: CaptureRecording = .everything) {
        self.name = name
        self.maximumMessageLength = maximumMessageLength
        self.recording = recording
    }

    public func send(_ message: UnsafeRawBufferPointer) throws(TransportError) {
        if message.count > maximumMessageLength {
            throw SPIDevice.messageTooLong(device: name, length: message.count, bufsiz: maximumMessageLength)
        }
        messageCount += 1
        byteCount += message.count
        switch recording {
        case .countOnly: return
        case .everything: messages.append(Array(message))
        case .last(let n):
            let keep = Swift.max(1, n)
            if messages.count < keep {
                // Filling the ring: every slot's storage was made with the first message
                // (`prepareSlots`), so a frame that adds a slot allocates nothing either.
                if messages.isEmpty { prepareSlots(keep, capacity: message.count) }
                var slot = spareSlots.popLast() ?? []
                slot.append(contentsOf: message)
                messages.append(slot)
            } else {
                // A ring: the oldest message's storage takes the new one in place, so once every
                // slot has held a frame a long-running dry-run daemon allocates nothing per frame.
                messages[oldest].removeAll(keepingCapacity: true)
                messages[oldest].append(contentsOf: message)
                oldest = (oldest + 1) % keep
            }
        }
    }

    /// Where the ring of `.last(n)` starts: the oldest recorded message.
    private var oldest = 0
    /// The ring's empty slots, made all at once with its first message: the messages of an LED
    /// frame are of one length, so slots as long as the first one are not grown later, and the
    /// daemon's frames allocate nothing while the ring fills (`scripts/measure-mallocs`).
    private var spareSlots: [[UInt8]] = []

    private func prepareSlots(_ keep: Int, capacity: Int) {
        messages.reserveCapacity(keep)
        spareSlots.reserveCapacity(keep)
        while spareSlots.count < keep {
            var slot: [UInt8] = []
            slot.reserveCapacity(capacity)
            spareSlots.append(slot)
        }
    }

    /// The recorded messages, oldest first, trimmed to what `recording` promises.
    public var recentMessages: ArraySlice<[UInt8]> {
        if oldest == 0 { return messages[...] }
        return (Array(messages[oldest...]) + messages[..<oldest])[...]
    }

    /// Forgets everything recorded and resets the counts.
    public func removeAll() { messages.removeAll(); spareSlots.removeAll(); oldest = 0; messageCount = 0; byteCount = 0 }
}

/// Output GPIO lines that record each state written (bit i = line i) instead of driving pins.
public final class GPIOCapture: GPIOOutputLines {
    public let name: String
    public let lineNames: [String]
    public var recording: CaptureRecording
    /// Every state written, oldest first, starting with the initial state given at request time.
    public private(set) var states: [UInt64] = []
    public private(set) var writeCount = 0

    public init(name: String = "capture", lineNames: [String], initial: UInt64, recording: CaptureRecording = .everything) {
        self.name = name
        self.lineNames = lineNames
        self.recording = recording
        record(initial)
    }

    public var count: Int { lineNames.count }

    public func set(_ values: UInt64) throws(TransportError) {
        writeCount += 1
        record(values)
    }

    private func record(_ values: UInt64) {
        switch recording {
        case .countOnly: return
        case .everything: states.append(values)
        case .last(let n):
            states.append(values)
            if states.count > 2 * Swift.max(1, n) { states.removeFirst(states.count - n) }
        }
    }

    public func removeAll() { states.removeAll(); writeCount = 0 }
}
