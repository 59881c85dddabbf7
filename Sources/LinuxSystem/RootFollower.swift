import CLinux
import CompactText

/// Follows PID 1 into the real root. A process started in the initramfs keeps the initramfs as
/// its root when PID 1 switches to the real one (initramfs-tools' run-init and systemd's
/// switch-root move /dev, /proc, /run into the new root, empty the old one and chroot PID 1
/// alone), so /dev/fb0 and /run/... no longer resolve for it: a display whose driver the real
/// root loads could never be opened. Plymouth is told the new root by a script
/// (`plymouth --newroot`); this asks the kernel instead: /proc/1/root (through /proc opened at
/// start, which stays valid when /proc is moved) is PID 1's root, and when it is no longer this
/// process's root, this process chroots into it.
///
/// Only a process that shares PID 1's root at start follows it (one started in a chroot or a
/// container of its own never leaves that), only one allowed to read /proc/1/root (root), and
/// only from a root in memory (ramfs or tmpfs, an initramfs): a root on a disk is already the
/// real one, and keeping /proc open there would only cost a descriptor.
public final class RootFollower {
    private let proc: Int32
    private var root: (device: UInt64, inode: UInt64)

    /// nil when this process does not share PID 1's root now, or may not look at it.
    public init?() {
        guard case .follows(let proc, let own) = Self.look() else { return nil }
        self.proc = proc
        root = own
    }

    deinit { _ = CLinux.close(proc) }

    /// Why a process started from a root in memory (an initramfs) cannot follow PID 1; nil when
    /// it can, or when its root is on a disk (nothing to follow). For the log at start: without
    /// it, a splash that silently stays in the emptied initramfs is hard to tell from one that
    /// followed.
    public static func obstacle() -> String? {
        switch look() {
        case .onDisk: return nil
        case .blocked(let reason): return reason
        case .follows(let proc, _):
            _ = CLinux.close(proc)
            return nil
        }
    }

    private enum Look {
        case onDisk
        case blocked(String)
        /// /proc, open, and the root this process shares with PID 1.
        case follows(proc: Int32, root: (device: UInt64, inode: UInt64))
    }

    /// The checks `init` and `obstacle` share: a root in memory, PID 1's root readable, the same
    /// as this process's.
    private static func look() -> Look {
        guard loaderd_root_is_in_memory() != 0 else { return .onDisk }
        let proc = loaderd_open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard proc >= 0 else { return .blocked(filled("/proc: {}", Errno.current.description)) }
        guard let pid1 = identity(proc, "1/root") else {
            let error = Errno.current
            _ = CLinux.close(proc)
            return .blocked(filled("/proc/1/root: {} (looking at PID 1's root needs root with PID 1's capabilities, or CAP_SYS_PTRACE)", error.description))
        }
        guard let own = identity(-1, "/"), pid1.device == own.device && pid1.inode == own.inode else {
            _ = CLinux.close(proc)
            return .blocked("this process's root is not PID 1's (a chroot of its own)")
        }
        return .follows(proc: proc, root: own)
    }

    /// Chroots into PID 1's root when it moved since the last look. Returns true when it did;
    /// the error when it should have and could not (this process then stays where it was).
    public func followIfMoved() -> Result<Bool, Errno> {
        guard let pid1 = Self.identity(proc, "1/root"), pid1.device != root.device || pid1.inode != root.inode else {
            return .success(false)
        }
        let fd = loaderd_openat(proc, "1/root", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return .failure(.current) }
        defer { _ = CLinux.close(fd) }
        guard fchdir(fd) == 0, chroot(".") == 0, chdir("/") == 0 else { return .failure(.current) }
        root = pid1
        return .success(true)
    }

    /// The device and inode of a directory (`path` relative to `directory`, or absolute with -1).
    private static func identity(_ directory: Int32, _ path: String) -> (device: UInt64, inode: UInt64)? {
        let fd = directory >= 0 ? loaderd_openat(directory, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
                                : loaderd_open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        defer { _ = CLinux.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }
}
