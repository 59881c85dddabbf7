import CLinux

/// The kernel's device events (uevents), read from a netlink socket that owns its descriptor:
/// `deinit` closes it. The daemon listens for DRM hotplug events with it, so a monitor plugged
/// in or swapped for one with other modes is noticed when it happens, never by polling.
public final class UeventMonitor {
    public let fd: Int32

    /// The corresponding C function is `socket(AF_NETLINK, …, NETLINK_KOBJECT_UEVENT)` and
    /// `bind` to the kernel's multicast group.
    public init() throws(Errno) {
        fd = try valueOrErrno { loaderd_uevent_open() }.get()
    }

    deinit { _ = CLinux.close(fd) }

    /// Reads the events queued now (none: returns at once) and tells whether one of them was a
    /// hotplug event of the DRM subsystem (`SUBSYSTEM=drm` with `HOTPLUG=1`: outputs connected,
    /// disconnected or changed). `buffer` is the caller's, reused (at least 4 KiB: a uevent is
    /// at most 2 KiB of `KEY=value` strings after its `ACTION@DEVPATH` header).
    public func drainDRMHotplug(into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var hotplug = false
        while true {
            let n = loaderd_uevent_receive(fd, buffer.baseAddress, UInt(buffer.count))
            if n < 0 { return hotplug }  // EAGAIN: drained (ENOBUFS, overrun: the next event comes)
            if n == 0 { continue }
            if Self.isDRMHotplug(UnsafeRawBufferPointer(rebasing: buffer[0..<Int(n)])) { hotplug = true }
        }
    }

    /// Whether one message (`ACTION@DEVPATH`, then NUL-separated `KEY=value` fields) is a DRM
    /// hotplug event.
    public static func isDRMHotplug(_ message: UnsafeRawBufferPointer) -> Bool {
        var drm = false, hotplug = false
        var start = 0
        while start < message.count {
            var end = start
            while end < message.count && message[end] != 0 { end += 1 }
            let field = UnsafeRawBufferPointer(rebasing: message[start..<end])
            if equals(field, "SUBSYSTEM=drm") { drm = true }
            if equals(field, "HOTPLUG=1") { hotplug = true }
            start = end + 1
        }
        return drm && hotplug
    }

    private static func equals(_ field: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard field.count == text.utf8CodeUnitCount else { return false }
        let t = text.utf8Start
        for i in 0..<field.count where field[i] != t[i] { return false }
        return true
    }
}
