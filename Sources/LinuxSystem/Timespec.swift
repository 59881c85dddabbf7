import CLinux

extension timespec {
    /// `nanoseconds` (≥ 0) as seconds and nanoseconds. The field types differ between C
    /// libraries: `time_t` is 64 bits on 32-bit ARM with musl (the static board build) and
    /// glibc's `Int` elsewhere, and musl pads the struct with unnamed fields, so the fields are set
    /// one by one rather than through the memberwise initialiser.
    public init(nanoseconds: Int64) {
        self.init()
        tv_sec = time_t(nanoseconds / 1_000_000_000)
        tv_nsec = Int(nanoseconds % 1_000_000_000)
    }
}
