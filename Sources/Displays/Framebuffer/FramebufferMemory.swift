import CLinux
import LinuxSystem

/// An open framebuffer (device or stand-in file) and its shared mapping. Owns both: `deinit`
/// unmaps and closes, so every path out of `open` and `close` releases them exactly once.
struct FramebufferMemory: ~Copyable {
    let fd: FileDescriptor
    let base: UnsafeMutableRawPointer
    let length: Int

    /// Maps `length` bytes of `fd` read-write, shared (writes reach the device or the file).
    /// Takes ownership of `fd`: it is closed if the mapping fails.
    init(mapping fd: FileDescriptor, length: Int) throws(Errno) {
        let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0)
        guard let p, p != loaderd_map_failed() else {
            let e = Errno.current
            try? fd.close()
            throw e
        }
        self.fd = fd
        self.base = p
        self.length = length
    }

    deinit {
        munmap(base, length)
        try? fd.close()
    }
}
