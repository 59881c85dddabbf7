import CGpiod
import CLinux
import LinuxSystem
import CompactText

/// A set of output lines requested together, set all at once: bit i of `values` is line i.
public protocol GPIOOutputLines: AnyObject {
    var name: String { get }
    /// How many lines (at most 64).
    var count: Int { get }
    /// Drives every line at once (one ioctl for the real chip).
    func set(_ values: UInt64) throws(TransportError)
}

/// Output lines of a real GPIO chip through libgpiod (v1.6 API; the C shim in CGpiod also builds
/// against 2.x). The chip is given by path, name, number or label; the lines are requested in one
/// bulk request with consumer "loaderd" and released, with the chip closed, in `deinit`.
public final class GPIOChipLines: GPIOOutputLines {
    public let name: String
    public let chip: String
    public let offsets: [UInt32]
    private var handle: UnsafeMutablePointer<loaderd_gpio_lines>?
    private var values: [Int32]

    /// The consumer name other programs (gpioinfo) see on our lines.
    public static let consumer = "loaderd"

    /// Opens `chip` and requests `offsets` as outputs with the given initial values (bit i for
    /// line i). `lineNames` name the lines' roles in errors ("clock", "data").
    public init(chip: String, offsets: [UInt32], lineNames: [String], initial: UInt64) throws(TransportError) {
        precondition(offsets.count == lineNames.count && !offsets.isEmpty && offsets.count <= 64)
        self.chip = chip
        self.offsets = offsets
        // One pass makes the name ("gpiochip0 clock=11 data=10"), the initial values and the
        // check for a line given twice; the one failure is thrown at the end (for size).
        var name = chip
        var values: [Int32] = []
        var duplicate: String?
        for i in offsets.indices {
            name += filled(" {}={}", lineNames[i], String(offsets[i]))
            values.append(Int32(truncatingIfNeeded: (initial >> UInt64(i)) & 1))
            if duplicate == nil {
                for j in 0..<i where offsets[j] == offsets[i] {
                    duplicate = filled("{} and {} are both line {}; give each its own line", lineNames[j], lineNames[i], String(offsets[i]))
                    break
                }
            }
        }
        self.name = name
        self.values = values
        let failure: TransportError
        if let duplicate {
            failure = TransportError(device: chip, message: duplicate)
        } else {
            var request = loaderd_gpio_failure()
            handle = offsets.withUnsafeBufferPointer { offs in
                values.withUnsafeBufferPointer { vals in
                    loaderd_gpio_request_output(chip, offs.baseAddress, UInt32(offs.count), GPIOChipLines.consumer, vals.baseAddress, &request)
                }
            }
            if handle != nil { return }
            failure = GPIOChipLines.requestError(chip: chip, offsets: offsets, lineNames: lineNames, failure: request)
        }
        throw failure
    }

    deinit { release() }

    /// Releases the lines and closes the chip; later sets fail. Safe to call twice.
    public func release() {
        if let h = handle { loaderd_gpio_release(h); handle = nil }
    }

    public var count: Int { offsets.count }

    public func set(_ bits: UInt64) throws(TransportError) {
        guard let h = handle else { throw TransportError(device: chip, message: "lines were released") }
        let result = values.withUnsafeMutableBufferPointer { vals -> Int32 in
            for i in 0..<vals.count { vals[i] = Int32(truncatingIfNeeded: (bits >> UInt64(i)) & 1) }
            return loaderd_gpio_set_values(h, vals.baseAddress)
        }
        if result != 0 {
            let errno = Errno.current
            throw TransportError(device: name, message: filled("setting line values failed: {}", errno.description), errno: errno)
        }
    }

    /// "1.6.3" (v1) or the 2.x version: what this build links.
    public static var libraryVersion: String { String(cString: loaderd_gpiod_version()) }
    /// 1 or 2: the libgpiod API this build was compiled against.
    public static var libraryAPI: Int { Int(loaderd_gpiod_api()) }

    /// The error for a failed request, with the fix for the usual causes. Each message is made
    /// in the switch and the error once at the end (for size). Out of line: inlined into `init`,
    /// parts of it were copied onto more than one path (for size).
    @inline(never) static func requestError(chip: String, offsets: [UInt32], lineNames: [String], failure: loaderd_gpio_failure) -> TransportError {
        var f = failure
        let errno = Errno(rawValue: f.error)
        // Out of line: inlined, it was a UTF-8 decoder for each of its three calls (for size).
        // The shim ends each field with a zero byte (loaderd_gpio_copy), so it is a C string.
        @inline(never) func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(cString: $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        }
        let chipName = text(&f.chip_name), label = text(&f.chip_label)
        let described = chipName.isEmpty ? chip : chipName + (label.isEmpty ? "" : filled(" [{}]", label))
        let role = offsets.firstIndex(of: f.offset).map { lineNames[$0] + " " } ?? ""
        let message: String
        switch Int(f.step) {
        case Int(LOADERD_GPIO_STEP_OPEN_CHIP.rawValue):
            switch errno {
            case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice:
                let present = listDevices(prefix: "gpiochip")
                let here = present.isEmpty
                    ? "no GPIO chips on this machine"
                    : filled("chips here: {} (gpiodetect lists their labels)", present.joined(separator: ", "))
                message = filled("no such GPIO chip '{}' (by path, name, number or label): {}", chip, here)
            case .permissionDenied, .notPermitted:
                message = "permission denied opening the GPIO chip: add the user to the 'gpio' group (usermod -aG gpio USER, then log in again) or run loaderd as root"
            default:
                message = filled("cannot open the GPIO chip: {}", errno.description)
            }
        case Int(LOADERD_GPIO_STEP_GET_LINE.rawValue):
            message = filled("no {}line {} on {}: {}", role, String(f.offset), described, filled("it has {} lines (0...{})", String(f.num_lines), String(Int(f.num_lines) - 1)))
        case Int(LOADERD_GPIO_STEP_REQUEST.rawValue):
            switch errno {
            case .resourceBusy:
                let consumer = text(&f.consumer)
                let holder = consumer.isEmpty ? "another consumer (unnamed, possibly the kernel)" : filled("'{}'", consumer)
                message = filled("{}line {} on {} is busy: held by {}; stop it or pick another line (gpioinfo shows who holds what)", role, String(f.offset), described, holder)
            case .permissionDenied, .notPermitted:
                message = "permission denied requesting lines: add the user to the 'gpio' group or run loaderd as root"
            default:
                message = filled("cannot request lines {} on {}: {}", offsets.map(String.init).joined(separator: ","), described, errno.description)
            }
        default:
            message = filled("cannot request {} lines: {}", String(offsets.count), errno.description)
        }
        return TransportError(device: chip, message: message, errno: errno)
    }
}
