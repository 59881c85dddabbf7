import CLinux
import LinuxSystem

// spidev ioctls in swift-system's manner: public throwing methods over an internal
// `Result<_, Errno>` layer that makes exactly one shim call (one ioctl) each, with EINTR retry
// as an explicit parameter.

extension FileDescriptor {
    /// Sets the SPI mode (0...3: clock polarity and phase) for later messages.
    ///
    /// The corresponding C request is `SPI_IOC_WR_MODE`.
    public func spiSetMode(_ mode: UInt8, retryOnInterrupt: Bool = true) throws(Errno) {
        try _spiSetMode(mode, retryOnInterrupt: retryOnInterrupt).get()
    }

    /// Sets the word size in bits (8 for every chip loaderd drives).
    ///
    /// The corresponding C request is `SPI_IOC_WR_BITS_PER_WORD`.
    public func spiSetBitsPerWord(_ bits: UInt8, retryOnInterrupt: Bool = true) throws(Errno) {
        try _spiSetBitsPerWord(bits, retryOnInterrupt: retryOnInterrupt).get()
    }

    /// Sets the default clock of later messages.
    ///
    /// The corresponding C request is `SPI_IOC_WR_MAX_SPEED_HZ`.
    public func spiSetMaxSpeed(hertz: UInt32, retryOnInterrupt: Bool = true) throws(Errno) {
        try _spiSetMaxSpeed(hertz: hertz, retryOnInterrupt: retryOnInterrupt).get()
    }

    /// Sends `transfers` as one message (chip select held between them); returns the number of
    /// bytes transferred.
    ///
    /// The corresponding C request is `SPI_IOC_MESSAGE(n)`.
    public func spiMessage(_ transfers: UnsafeBufferPointer<spi_ioc_transfer>, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        try _spiMessage(transfers, retryOnInterrupt: retryOnInterrupt).get()
    }

    @usableFromInline internal func _spiSetMode(_ mode: UInt8, retryOnInterrupt: Bool) -> Result<Void, Errno> {
        valueOrErrno(retryOnInterrupt: retryOnInterrupt) { loaderd_spi_write_mode(rawValue, mode) }.map { _ in () }
    }

    @usableFromInline internal func _spiSetBitsPerWord(_ bits: UInt8, retryOnInterrupt: Bool) -> Result<Void, Errno> {
        valueOrErrno(retryOnInterrupt: retryOnInterrupt) { loaderd_spi_write_bits_per_word(rawValue, bits) }.map { _ in () }
    }

    @usableFromInline internal func _spiSetMaxSpeed(hertz: UInt32, retryOnInterrupt: Bool) -> Result<Void, Errno> {
        valueOrErrno(retryOnInterrupt: retryOnInterrupt) { loaderd_spi_write_max_speed_hz(rawValue, hertz) }.map { _ in () }
    }

    @usableFromInline internal func _spiMessage(_ transfers: UnsafeBufferPointer<spi_ioc_transfer>, retryOnInterrupt: Bool) -> Result<Int, Errno> {
        valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
            loaderd_spi_message(rawValue, transfers.baseAddress, UInt32(transfers.count))
        }.map { Int($0) }
    }
}

/// Runs `body` (a C call returning -1 with errno on failure) and turns the result into a
/// `Result`, retrying on EINTR when asked.
@usableFromInline internal func valueOrErrno(retryOnInterrupt: Bool, _ body: () -> Int32) -> Result<Int32, Errno> {
    while true {
        let result = body()
        if result != -1 { return .success(result) }
        let error = Errno.current
        if retryOnInterrupt && error == .interrupted { continue }
        return .failure(error)
    }
}
