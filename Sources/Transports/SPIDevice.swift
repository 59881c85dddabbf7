import CLinux
import LinuxSystem
import CompactText

/// Hardware SPI through the kernel's spidev (`/dev/spidevB.C`). Mode, word size and clock are set
/// once when the device opens; each message is one `SPI_IOC_MESSAGE(1)` ioctl with a transfer
/// prepared at open (only its buffer and length change), so sending allocates nothing. The file
/// descriptor is closed in `deinit` (or by `close()`).
public final class SPIDevice: SPIBus {
    public let name: String
    public let mode: UInt8
    /// The clock requested at open.
    public let speedHz: UInt32
    /// spidev's `bufsiz` (bytes per message), read at open.
    public let maximumMessageLength: Int
    private var descriptor: FileDescriptor?
    private var transfer = spi_ioc_transfer()

    /// Where spidev publishes its per-message limit.
    public static let bufsizPath = "/sys/module/spidev/parameters/bufsiz"
    /// spidev's default when the parameter cannot be read.
    public static let defaultBufsiz = 4096

    /// Opens `path` and sets `mode`, 8 bits per word and `speedHz`.
    public init(path: String, mode: UInt8 = 0, speedHz: UInt32) throws(TransportError) {
        self.name = path
        self.mode = mode
        self.speedHz = speedHz
        self.maximumMessageLength = SPIDevice.readBufsiz()
        descriptor = try SPIDevice.openConfigured(path: path, mode: mode, speedHz: speedHz)
        transfer.speed_hz = speedHz
        transfer.bits_per_word = 8
    }

    /// Opens `path` and sets the mode, 8 bits per word and the clock; on failure the descriptor is
    /// closed and the error says which step failed. The message is chosen where the step failed
    /// and the error thrown once (for size).
    private static func openConfigured(path: String, mode: UInt8, speedHz: UInt32) throws(TransportError) -> FileDescriptor {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec])
        } catch {
            throw SPIDevice.openError(path: path, errno: error)
        }
        var step = 0
        do throws(Errno) {
            try fd.spiSetMode(mode)
            step = 1
            try fd.spiSetBitsPerWord(8)
            step = 2
            try fd.spiSetMaxSpeed(hertz: speedHz)
            return fd
        } catch {
            try? fd.close()
            let message: String
            switch step {
            case 0:
                message = error == .inappropriateIOCTLForDevice || error == .invalidArgument
                    ? filled("not an spidev device (SPI_IOC_WR_MODE refused: {}); use a /dev/spidevB.C node", error.description)
                    : filled("cannot set SPI mode {}: {}", String(mode), error.description)
            case 1: message = filled("cannot set 8 bits per word: {}", error.description)
            default: message = filled("cannot set the SPI clock to {} Hz: {} (try a lower speed=)", String(speedHz), error.description)
            }
            throw TransportError(device: path, message: message, errno: error)
        }
    }

    deinit { close() }

    /// Closes the device; later sends fail. Safe to call twice.
    public func close() {
        if let fd = descriptor { try? fd.close(); descriptor = nil }
    }

    public func send(_ message: UnsafeRawBufferPointer) throws(TransportError) {
        guard let fd = descriptor else { throw TransportError(device: name, message: "device is closed") }
        if message.isEmpty { return }
        if message.count > maximumMessageLength {
            throw SPIDevice.messageTooLong(device: name, length: message.count, bufsiz: maximumMessageLength)
        }
        transfer.tx_buf = UInt64(UInt(bitPattern: message.baseAddress))
        transfer.len = UInt32(message.count)
        let result = withUnsafePointer(to: &transfer) { pointer in
            fd._spiMessage(UnsafeBufferPointer(start: pointer, count: 1), retryOnInterrupt: true)
        }
        transfer.tx_buf = 0
        switch result {
        case .success: return
        case .failure(let errno):
            if errno == .messageTooLong {
                throw SPIDevice.messageTooLong(device: name, length: message.count, bufsiz: maximumMessageLength)
            }
            throw TransportError(device: name, message: filled("SPI transfer of {} bytes failed: {}", String(message.count), errno.description), errno: errno)
        }
    }

    /// spidev's bufsiz from sysfs, or the default 4096 when it cannot be read.
    public static func readBufsiz(path: String = bufsizPath) -> Int {
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec]) else { return defaultBufsiz }
        defer { try? fd.close() }
        guard let bytes = try? fd.readToEnd(limit: 64) else { return defaultBufsiz }
        // The decimal digits in it, in order, as one number (the file is "4096\n"): one pass over
        // the bytes rather than Characters filtered into a String (for size). Digits that would
        // overflow an Int (32 bits on armv7 and armv6) are no bufsiz, as `Int(_:)` said before.
        var value = 0
        for byte in bytes where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            if value > (Int.max - 9) / 10 { return defaultBufsiz }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value > 0 ? value : defaultBufsiz
    }

    /// The error for a frame longer than spidev's per-message limit, with the fix.
    public static func messageTooLong(device: String, length: Int, bufsiz: Int) -> TransportError {
        TransportError(device: device,
                       message: filled("frame is {} bytes, spidev bufsiz is {}: add spidev.bufsiz=65536 to the kernel command line (/boot/firmware/cmdline.txt) and reboot", String(length), String(bufsiz)),
                       errno: .messageTooLong)
    }

    /// What makes a Raspberry Pi's spidev nodes appear (the usual reason one is missing).
    public static let enableHint = "enable SPI (dtparam=spi=on in /boot/firmware/config.txt, /boot/config.txt before bookworm, then reboot) or load spidev (modprobe spidev)"

    /// The error for a failed open, with the fix for the usual causes.
    static func openError(path: String, errno: Errno) -> TransportError {
        let message: String
        switch errno {
        case .noSuchFileOrDirectory:
            let present = listDevices(prefix: "spidev")
            let here = present.isEmpty ? "" : filled(" (SPI devices here: {})", present.map { "/dev/" + $0 }.joined(separator: ", "))
            message = filled("no {}: {}{}", path, enableHint, here)
        case .permissionDenied, .notPermitted:
            message = "permission denied: add the user to the 'spi' group (usermod -aG spi USER, then log in again) or run loaderd as root"
        case .resourceBusy:
            message = "device busy: another program holds it"
        default:
            message = filled("cannot open: {}", errno.description)
        }
        return TransportError(device: path, message: message, errno: errno)
    }
}

/// Names in /dev starting with `prefix`, sorted (for error messages only). By insertion, in the
/// order `sorted()` gives: a handful of names, and the standard library's merge sort, specialised
/// for each of the two callers it was inlined into, was 3.5 KB of x86_64 loaderd (for size).
@inline(never) func listDevices(prefix: String) -> [String] {
    var names = DirectoryEntries.names(in: "/dev", prefix: prefix)
    for i in names.indices.dropFirst() {
        var j = i
        while j > 0 && names[j] < names[j - 1] { names.swapAt(j, j - 1); j -= 1 }
    }
    return names
}
