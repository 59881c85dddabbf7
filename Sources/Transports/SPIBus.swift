/// Something that sends SPI messages: the kernel's spidev, SPI bit-banged over GPIO lines, or a
/// capture that records the bytes. A message is a run of bytes with chip select held for its
/// whole length; between messages chip select is released (that is when a MAX7219 latches).
public protocol SPIBus: AnyObject {
    /// A short human name, e.g. `/dev/spidev0.0` or `gpiochip0 clock=11 data=10`.
    var name: String { get }
    /// The longest message this bus sends in one piece (spidev's `bufsiz`). Protocols that may be
    /// split (APA102: no chip select, no timing) use `sendSplitting`; the others check their frame
    /// size against it when they open and refuse with the fix.
    var maximumMessageLength: Int { get }
    /// Sends one message. `message.count` must not exceed `maximumMessageLength`.
    func send(_ message: UnsafeRawBufferPointer) throws(TransportError)
    // The two below are requirements (with the default implementations in the extension) rather
    // than extension methods only: the displays call them on `any SPIBus`, and Embedded Swift
    // cannot compile an extension method for an unknown Self. It emitted a trap in its place (the
    // shipped loaderd died with SIGILL on the first MAX7219 frame); a requirement's witness is
    // specialised for each conforming class instead.
    func sendSplitting(_ bytes: UnsafeRawBufferPointer) throws(TransportError)
    func send(_ array: [UInt8]) throws(TransportError)
    /// Told after the last message of a frame (or of a display's set-up or clearing): a bus
    /// that shows what it was sent (`dry-run=FILE`) shows whole frames, not a frame half sent.
    /// Does nothing on a real bus.
    func frameSent()
}

extension SPIBus {
    /// Sends `bytes` as consecutive messages of at most `maximumMessageLength` bytes each. Only
    /// for protocols where the pause (and chip select toggling) between pieces is harmless.
    @inlinable public func sendSplitting(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        let limit = maximumMessageLength
        if bytes.count <= limit { try send(bytes); return }
        var start = 0
        while start < bytes.count {
            let end = Swift.min(bytes.count, start + limit)
            try send(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
    }

    @inlinable public func frameSent() {}

    /// Sends the bytes of `array` as one message.
    @inlinable public func send(_ array: [UInt8]) throws(TransportError) {
        let result: Result<Void, TransportError> = array.withUnsafeBytes { raw in
            do throws(TransportError) { try send(raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }
}
