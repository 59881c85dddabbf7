import CLinux
import LinuxSystem
import CompactText

/// One boot as the Plymouth front end saw it: when each unit became active (PID 1's `U`
/// messages), in microseconds since loaderd started, and when the boot ended (`Q`).
///
/// Saved at quit, read at the next start: the file is small text, one unit per line, written
/// atomically (a temporary file in the same directory, fsync, rename):
/// ```
/// loaderd-boot-timeline 1
/// total 3.012
/// 0.051 systemd-udevd.service
/// 0.140 systemd-journald.service
/// ```
/// Seconds have three decimals. A unit appears once (its first activation).
public struct BootTimeline: Equatable, Sendable {
    public static let defaultPath = "/var/lib/loaderd/boot-timeline"
    static let header = "loaderd-boot-timeline 1"
    /// Most units kept (a big server boots a few hundred).
    public static let maximumUnits = 4096

    public var total: Int64
    public var units: [(name: String, at: Int64)]

    public init(total: Int64, units: [(name: String, at: Int64)]) { self.total = total; self.units = units }

    public static func == (a: BootTimeline, b: BootTimeline) -> Bool {
        a.total == b.total && a.units.count == b.units.count
            && zip(a.units, b.units).allSatisfy { $0.name == $1.name && $0.at == $1.at }
    }

    // MARK: Text

    public var text: String {
        var out = filled("loaderd-boot-timeline 1\ntotal {}\n", Self.seconds(total))  // `header` (one literal, for size)
        for unit in units { out += filled("{} {}\n", Self.seconds(unit.at), unit.name) }
        return out
    }

    @inline(never)  // one copy: `text`'s loop had one of its own (for size)
    static func seconds(_ us: Int64) -> String {
        let ms = Swift.max(0, us) / 1000
        let frac = ms % 1000
        return filled("{}.{}{}", String(ms / 1000), frac < 10 ? "00" : frac < 100 ? "0" : "", String(frac))
    }

    /// `S[.fff]` to microseconds (no sign, no exponent): 1–9 digits, then optionally a dot and
    /// 1–6 digits. Read byte by byte in one pass rather than split into Substrings and checked
    /// Character by Character (several times the code). The same texts pass: any byte that is
    /// neither an ASCII digit nor the one dot fails both ways, and with only those bytes Characters
    /// and bytes are the same.
    static func microseconds(_ text: ArraySlice<UInt8>) -> Int64? {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var wholeDigits = 0
        var fractionDigits = -1  // -1: no dot yet
        for byte in text {
            if byte == UInt8(ascii: "."), fractionDigits < 0 {
                fractionDigits = 0
            } else if byte >= 0x30, byte <= 0x39, fractionDigits < 0 {
                guard wholeDigits < 9 else { return nil }  // before it could overflow
                whole = whole * 10 + Int64(byte - 0x30)
                wholeDigits += 1
            } else if byte >= 0x30, byte <= 0x39 {
                guard fractionDigits < 6 else { return nil }
                fraction = fraction * 10 + Int64(byte - 0x30)
                fractionDigits += 1
            } else {
                return nil
            }
        }
        guard wholeDigits > 0, fractionDigits != 0 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<(6 - Swift.max(fractionDigits, 0)) { scale *= 10 }
        return whole * 1_000_000 + fraction * scale
    }

    /// A literal's bytes, compared without walking a String's UTF-8 view (for size).
    static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Parses the file's text; the error says which line is wrong and why.
    public static func parse(_ text: String) -> Result<BootTimeline, BootTimelineError> {
        parse(utf8: Array(text.utf8))
    }

    /// The same on the text's UTF-8 bytes, read line by line in one pass (splitting the String into
    /// Substrings and searching them by Character was twice the code), with the same verdicts:
    /// the lines are those `split(separator: "\n")` gave, a last empty one dropped (a `\r\n`, one
    /// Character, was no separator there; a line holding one fails either way, at its number); the
    /// header and `total ` are ASCII, so bytes compare as Characters did.
    static func parse(utf8 bytes: [UInt8]) -> Result<BootTimeline, BootTimelineError> {
        var units: [(name: String, at: Int64)] = []
        var total: Int64 = 0
        var number = 1  // the line being read
        var start = 0
        var problem: String? = nil
        // A line past the text's end reads as empty: a missing header or total line fails its check.
        while problem == nil, start < bytes.count || number <= 2 {
            let rest = bytes[Swift.min(start, bytes.count)...]
            let line = rest[..<(rest.firstIndex(of: 0x0A) ?? rest.endIndex)]
            start = line.endIndex + 1
            if number == 1 {
                // The messages name `header` and `maximumUnits` written out (no interpolation, for size).
                if !line.elementsEqual(Self.bytes("loaderd-boot-timeline 1")) { problem = "expected 'loaderd-boot-timeline 1'" }
            } else if number == 2 {
                if line.starts(with: Self.bytes("total ")), let t = microseconds(line.dropFirst(6)), t > 0 {
                    total = t
                } else {
                    problem = "expected 'total SECONDS' with SECONDS more than 0"
                }
            } else if units.count >= maximumUnits {
                problem = "more than 4096 units"
            } else if let space = line.firstIndex(of: 0x20), let at = microseconds(line[..<space]), at <= total {
                let name = line[(space + 1)...]
                if name.isEmpty || name.contains(where: { $0 <= 0x20 }) {
                    problem = "expected a unit name without spaces"
                } else {
                    units.append((name: String(decoding: name, as: UTF8.self), at: at))
                }
            } else {
                problem = "expected 'SECONDS UNIT' with SECONDS at most the total"
            }
            if problem == nil { number += 1 }
        }
        if let problem { return .failure(.init(line: number, problem)) }
        return .success(BootTimeline(total: total, units: units))
    }

    // MARK: Files

    /// Reads the timeline at `path`: nil when there is none yet; an error (for a log line) when
    /// the file cannot be read or is not a timeline.
    public static func load(path: String) -> Result<BootTimeline?, BootTimelineError> {
        // O_NONBLOCK: a FIFO at the path must not block start-up in open(2); only a regular file is read.
        let fd = loaderd_open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)
        var code = fd < 0 ? errno : 0
        if code == ENOENT { return .success(nil) }
        defer { if fd >= 0 { close(fd) } }
        // What went wrong, with the C error text after it when `code` is one: the error made at
        // one place (for size).
        var problem = "cannot open: "
        var bytes: [UInt8]? = nil
        if fd >= 0 {
            if let refusal = RegularFile.refusal(fd) {
                problem = refusal
            } else {
                do throws(Errno) {
                    bytes = try FileDescriptor(rawValue: fd).readToEnd(limit: 1 << 20)
                    problem = bytes == nil ? "larger than 1 MiB; not a boot timeline" : "not UTF-8 text"
                } catch {
                    problem = "cannot read: "
                    code = error.rawValue
                }
            }
        }
        if let bytes, String(validating: bytes, as: UTF8.self) != nil { return parse(utf8: bytes).map { Optional($0) } }
        return .failure(.init(code == 0 ? problem : problem + String(cString: loaderd_strerror(code))))
    }

    /// Writes the timeline to `path` atomically; creates the directory (0755) when it is missing.
    public func save(path: String) throws(BootTimelineError) {
        guard let slash = path.lastIndex(of: "/") else { throw BootTimelineError("not an absolute path") }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        let temporary = path + ".tmp"
        // What failed, as `cannot VERB FILE: REASON` (REASON the C error text of `code` when it is
        // one): the error made at one place (each throw was code of its own).
        var verb = "create"
        var file = directory
        var code: Int32 = 0
        var reason: String? = nil
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            code = errno
        } else {
            file = temporary
            // O_NONBLOCK and the check after it: a FIFO at the temporary path would block quit in
            // open(2) (or in write) forever. Refused, not removed: someone put it there.
            let fd = loaderd_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
            if fd < 0 {
                code = errno
                // ENXIO from a non-blocking open for writing: a FIFO nobody reads.
                if code == ENXIO { verb = "write"; reason = "it is a FIFO, not a regular file; remove it" }
            } else if let refusal = RegularFile.refusal(fd) {
                close(fd)
                verb = "write"
                reason = refusal
            } else {
                var content = text
                content.withUTF8 { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                        if n < 0 { if errno == EINTR { continue }; code = errno; return }
                        offset += n
                    }
                }
                if code == 0 && fsync(fd) != 0 { code = errno }
                close(fd)
                if code == 0 && rename(temporary, path) != 0 { code = errno }
                if code != 0 {
                    unlink(temporary)
                    verb = "write"
                    file = path
                }
            }
        }
        if code != 0 || reason != nil {
            throw BootTimelineError(filled("cannot {} {}: {}", verb, file, reason ?? String(cString: loaderd_strerror(code))))
        }
        let dirfd = loaderd_open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if dirfd >= 0 { _ = fsync(dirfd); close(dirfd) }
    }
}

public struct BootTimelineError: Error, Equatable, CustomStringConvertible, Sendable {
    public let line: Int?
    public let message: String
    init(line: Int? = nil, _ message: String) { self.line = line; self.message = message }
    /// Out of line: its three users each had a copy (for size).
    public var description: String {
        @inline(never) get { line.map { filled("line {}: {}", String($0), message) } ?? message }
    }
}

/// Turns the `U` stream into a determinate progress that never goes backwards.
///
/// With the previous boot's timeline, a unit becoming active maps to the share of the previous
/// boot's duration at which it became active then (Plymouth's boot-duration idea); a unit the
/// previous boot did not have changes nothing. Progress stays below 100 until quit.
///
/// Without a timeline (the first boot, or a corrupt file), there is nothing honest to divide by:
/// the estimate is `90 · n / (n + 50)` for n units seen — it moves with every unit, slows as the
/// boot goes on, never reaches 90, and quit takes it to 100.
public struct BootProgressEstimator: Sendable {
    /// Previous boot: unit → its share of the boot in thousandths of a percent (0…100_000).
    private(set) var history: KeyIndex
    public var hasHistory: Bool { !history.isEmpty }
    /// This boot, in arrival order.
    public private(set) var recorded: [(name: String, at: Int64)] = []
    /// Each unit recorded, with its place in `recorded` (an index like `history`'s, so that one
    /// kind of table serves both).
    private var seen = KeyIndex()
    /// The highest target handed out (thousandths of a percent).
    public private(set) var current = 0

    /// Highest progress before quit.
    public static let ceiling = 99_000

    public init(previous: BootTimeline?) {
        history = Self.shares(previous)
    }

    /// The previous boot's timeline read late: by a splash started in the initramfs, which reaches
    /// the real root's /var/lib/loaderd only once PID 1 has switched there. Units from now on map
    /// to their shares; progress never goes back (a share below what the estimate has shown moves
    /// nothing). Ignored when a timeline is already in use.
    public mutating func adopt(previous: BootTimeline) {
        guard !hasHistory else { return }
        history = Self.shares(previous)
    }

    private static func shares(_ previous: BootTimeline?) -> KeyIndex {
        var h = KeyIndex()
        if let previous, previous.total > 0 {
            for unit in previous.units where h[unit.name] == nil {
                // at ≤ total (checked when read), so the share is at most 100 %; the product is
                // computed without overflow for any time the file may hold.
                let (product, overflow) = unit.at.multipliedReportingOverflow(by: 100_000)
                let share = overflow ? unit.at / Swift.max(1, previous.total / 100_000) : product / previous.total
                h.set(unit.name, Int(Swift.min(100_000, Swift.max(0, share))))
            }
        }
        return h
    }

    /// A unit became active `at` microseconds after start: the new progress in thousandths of a
    /// percent, or nil when it does not move.
    public mutating func unitActive(_ name: String, at: Int64) -> Int? {
        guard seen[name] == nil else { return nil }
        if recorded.count < BootTimeline.maximumUnits {
            seen.set(name, recorded.count)
            recorded.append((name, at))
        }
        let estimate: Int
        if hasHistory {
            guard let share = history[name] else { return nil }
            estimate = Swift.min(share, Self.ceiling)
        } else {
            let n = seen.count
            estimate = 90_000 * n / (n + 50)
        }
        guard estimate > current else { return nil }
        current = estimate
        return estimate
    }

    /// This boot's timeline, ended at `at` microseconds: at least 1 ms, the file's resolution, so
    /// that a session shorter than that (a test's, a front end's quit right after the start) is
    /// not written as `total 0.000`, which `parse` refuses.
    public func timeline(endedAt at: Int64) -> BootTimeline {
        BootTimeline(total: Swift.max(at, recorded.last?.at ?? 0, 1_000), units: recorded)
    }
}
