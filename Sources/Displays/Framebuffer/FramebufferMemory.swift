import CLinux
import LinuxSystem

/// An open framebuffer (device or stand-in file) and the memory frames are drawn into: the
/// device's shared mapping, or for a regular stand-in file a private anonymous copy that the
/// display writes to the file with pwrite (a store into a mapped page past the end of a file
/// something truncated raises SIGBUS; pwrite into a short file just extends it). Owns both:
/// `deinit` unmaps and closes, so every path out of `open` and `close` releases them exactly once.
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

    /// Anonymous memory of `length` bytes standing in for the file's contents (written out with
    /// pwrite), filled with what the file holds now: bytes the display never draws (a padded
    /// stride's ends) are written back as they were, as through a mapping. Takes ownership of
    /// `fd`: it is closed if the allocation fails.
    init(shadowing fd: FileDescriptor, length: Int) throws(Errno) {
        let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let p, p != loaderd_map_failed() else {
            let e = Errno.current
            try? fd.close()
            throw e
        }
        var done = 0
        while done < length {
            let n = pread(fd.rawValue, p + done, length - done, off_t(done))
            if n < 0 && Errno.current == .interrupted { continue }
            if n <= 0 { break }  // the end of a short file (the rest stays zero), or unreadable
            done += n
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
