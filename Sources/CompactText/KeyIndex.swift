/// Strings to integers, found by their UTF-8 bytes: an open-addressing hash table (FNV-1a,
/// linear probing) for the maps board code keeps, a TOML table's keys and a boot timeline's units.
///
/// The standard library's `Dictionary<String, Int>` brought its storage's code and its hashing
/// (SipHash of the text normalised to NFC) into each board binary for these three maps (~6 KB of
/// x86_64 loaderd; docs/PERFORMANCE.md, session 50). Here two keys are the same when their bytes
/// are, as TOML compares keys and as file systems compare unit and path names; text that is
/// canonically equivalent but encoded differently is two keys (as it already was for the shipped
/// binaries' dictionaries, which carry no normalisation data: CLinux/embedded/unicode_normalization.c).
public struct KeyIndex: Sendable {
    private var keys: [String] = []
    private var values: [Int] = []
    private var hashes: [UInt32] = []
    /// Each slot an index into `keys` plus one (0: empty); a power of two long, at most half full.
    private var slots: [Int] = []

    public init() {}

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The value kept for `key`, or nil.
    public subscript(key: String) -> Int? {
        let (_, found) = find(key, Self.hash(key))
        return found.map { values[$0] }
    }

    /// Keeps `value` for `key`, in place of any value kept for it before.
    @inline(never)
    public mutating func set(_ key: String, _ value: Int) {
        if 2 * (keys.count + 1) > slots.count { grow() }
        let hash = Self.hash(key)
        let (slot, found) = find(key, hash)
        if let found { values[found] = value; return }
        keys.append(key)
        values.append(value)
        hashes.append(hash)
        slots[slot] = keys.count
    }

    /// Where `key` is (its slot and its index in `keys`), or the empty slot where it would go.
    @inline(never)
    private func find(_ key: String, _ hash: UInt32) -> (slot: Int, index: Int?) {
        guard !slots.isEmpty else { return (0, nil) }
        let mask = slots.count - 1
        // Truncating: on the 32-bit boards a hash above Int32.max is a negative Int; the mask keeps
        // its low bits either way.
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let index = slots[slot] - 1
            if hashes[index] == hash && keys[index].utf8.count == key.utf8.count
                && bytesMatch(Substring(keys[index]), key, atEnd: false) { return (slot, index) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// Twice the slots (at least 16), every key placed again by its kept hash.
    private mutating func grow() {
        slots = [Int](repeating: 0, count: Swift.max(16, 2 * slots.count))
        let mask = slots.count - 1
        for index in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[index]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
        }
    }

    /// FNV-1a of the key's UTF-8 bytes (on their buffer, as ByteText's comparisons: every String
    /// here is native or small, so the buffer is there).
    private static func hash(_ key: String) -> UInt32 {
        key.utf8.withContiguousStorageIfAvailable { bytes in
            var hash: UInt32 = 2_166_136_261
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return hash
        } ?? 0
    }
}
