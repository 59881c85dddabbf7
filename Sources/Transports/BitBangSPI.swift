/// SPI mode 0 driven by hand over GPIO output lines: line 0 is the clock, line 1 the data (MOSI),
/// and an optional line 2 a latch / chip select (active low: low while a message shifts, rising
/// after it, which is when a MAX7219 latches). Bits go most significant first; each bit is two
/// writes of all lines at once (clock low with the new data, then clock high), so a byte costs 16
/// line writes — about 0.1 ms per byte at libgpiod's ~150 k writes per second.
public final class BitBangSPI: SPIBus {
    public let lines: any GPIOOutputLines
    public let hasLatch: Bool
    public var name: String { lines.name }
    /// No kernel buffer limits a bit-banged message.
    public var maximumMessageLength: Int { Int.max }

    public static let clockBit: UInt64 = 1 << 0
    public static let dataBit: UInt64 = 1 << 1
    public static let latchBit: UInt64 = 1 << 2

    /// The state the lines should be requested in: clock and data low, latch (if any) high.
    public static func idleState(hasLatch: Bool) -> UInt64 { hasLatch ? latchBit : 0 }

    /// The lines' roles, as errors and a dry run's capture name them (constant arrays, not
    /// appended to: for size).
    public static func lineNames(hasLatch: Bool) -> [String] { hasLatch ? ["clock", "data", "latch"] : ["clock", "data"] }

    public init(lines: any GPIOOutputLines, hasLatch: Bool) {
        precondition(lines.count == (hasLatch ? 3 : 2), "bit-banged SPI needs clock, data and optionally latch lines")
        self.lines = lines
        self.hasLatch = hasLatch
    }

    /// Requests clock, data and (if given) latch on a real chip through libgpiod.
    public convenience init(chip: String, clock: UInt32, data: UInt32, latch: UInt32?) throws(TransportError) {
        self.init(lines: try BitBangSPI.requestLines(chip: chip, clock: clock, data: data, latch: latch), hasLatch: latch != nil)
    }

    /// Clock, data and (if given) latch requested on a real chip, in their idle state.
    public static func requestLines(chip: String, clock: UInt32, data: UInt32, latch: UInt32?) throws(TransportError) -> GPIOChipLines {
        let offsets = latch.map { [clock, data, $0] } ?? [clock, data]
        return try GPIOChipLines(chip: chip, offsets: offsets, lineNames: lineNames(hasLatch: latch != nil), initial: idleState(hasLatch: latch != nil))
    }

    public func send(_ message: UnsafeRawBufferPointer) throws(TransportError) {
        if message.isEmpty { return }
        let lines = self.lines
        let hold: UInt64 = 0  // latch low while shifting (when there is a latch)
        if hasLatch { try lines.set(hold) }
        var data: UInt64 = 0
        for byte in message {
            var bit = 7
            while bit >= 0 {
                data = (byte >> UInt8(bit)) & 1 == 1 ? BitBangSPI.dataBit : 0
                try lines.set(hold | data)
                try lines.set(hold | data | BitBangSPI.clockBit)
                bit -= 1
            }
        }
        try lines.set(hold | data)
        if hasLatch { try lines.set(BitBangSPI.latchBit) }
    }
}
