import CLinux

/// An inotify instance (non-blocking, close-on-exec) that owns its descriptor: `deinit` closes it.
/// The daemon watches directories with it for display devices that appear, vanish or change
/// permissions (udev creates a node, then sets its mode), so it never polls for them.
public final class Inotify {
    public let fd: Int32

    /// What a watch reports (the kernel's IN_* bits).
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let created = Events(rawValue: UInt32(IN_CREATE))
        public static let deleted = Events(rawValue: UInt32(IN_DELETE))
        public static let attributesChanged = Events(rawValue: UInt32(IN_ATTRIB))
        public static let movedIn = Events(rawValue: UInt32(IN_MOVED_TO))
        public static let movedOut = Events(rawValue: UInt32(IN_MOVED_FROM))
        /// The watched directory itself went away (or its file system was unmounted).
        public static let ignored = Events(rawValue: UInt32(IN_IGNORED))
    }

    /// The corresponding C function is `inotify_init1`.
    public init() throws(Errno) {
        fd = try valueOrErrno { inotify_init1(O_NONBLOCK | O_CLOEXEC) }.get()
    }

    deinit { _ = CLinux.close(fd) }

    /// Watches directory `path` for `events` on the names in it; the watch descriptor (the same
    /// one again for a directory already watched). The corresponding C function is `inotify_add_watch`.
    public func watch(directory path: String, for events: Events) throws(Errno) -> Int32 {
        try valueOrErrno { path.withCString { inotify_add_watch(fd, $0, events.rawValue | UInt32(IN_ONLYDIR)) } }.get()
    }

    /// Reads the events queued now (none: returns at once) and hands each to `body` with its
    /// watch descriptor, its bits and the name in the directory ("" for the directory itself).
    /// `buffer` is the caller's, reused across calls (at least 4 KiB).
    public func readEvents(into buffer: UnsafeMutableRawBufferPointer, _ body: (Int32, Events, String) -> Void) {
        let header = 16  // struct inotify_event: wd, mask, cookie, len; then len bytes of name
        while true {
            let n = CLinux.read(fd, buffer.baseAddress, buffer.count)
            if n <= 0 { return }  // EAGAIN: drained (errors other than EINTR end the turn too)
            var offset = 0
            while offset + header <= n {
                let wd = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                var nameBytes = UnsafeRawBufferPointer(rebasing: buffer[(offset + header)..<Swift.min(offset + header + length, n)])
                if let nul = nameBytes.firstIndex(of: 0) { nameBytes = UnsafeRawBufferPointer(rebasing: nameBytes[..<nul]) }
                body(wd, Events(rawValue: mask), String(decoding: nameBytes, as: UTF8.self))
                offset += header + length
            }
        }
    }
}
