import CLinux
import LinuxSystem
import CompactText

/// psplash's command FIFO, `$PSPLASH_FIFO_DIR/psplash_fifo`, read in the poll loop.
///
/// The daemon holds a write descriptor of its own on the FIFO besides the non-blocking read one,
/// so the read side never sees end-of-file when a writer (`psplash-write`, `echo > fifo`) closes:
/// no reopening, no POLLHUP storm, and a writer's `open(O_WRONLY|O_NONBLOCK)` always finds a
/// reader while loaderd runs. The FIFO is removed at exit (as psplash does) when it is still the
/// one loaderd opened.
final class PsplashFIFO {
    static let fileName = "psplash_fifo"

    let path: String
    let readFD: OwnedDescriptor
    let writeFD: OwnedDescriptor
    var splitter = PsplashSplitter()
    let device: dev_t
    let inode: ino_t

    private init(path: String, readFD: OwnedDescriptor, writeFD: OwnedDescriptor, device: dev_t, inode: ino_t) {
        self.path = path; self.readFD = readFD; self.writeFD = writeFD; self.device = device; self.inode = inode
    }

    /// Creates (mode 0660) or reuses the FIFO in `directory` and opens it. An existing FIFO is
    /// reused only when it is ours (same owner) and nobody else may write to it; another's FIFO
    /// (made in advance to feed the splash, or to read what boot scripts send) is removed and
    /// made afresh. A regular file, a symlink or anything else at the path is refused.
    static func open(directory: String) throws(SystemError) -> PsplashFIFO {
        let path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/" + fileName
        var st = stat()
        if lstat(path, &st) == 0 {
            try check(st, path)
            if !isTrusted(st) {
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw SystemError("\(path) is a FIFO of uid \(st.st_uid) with mode \(String(st.st_mode & 0o777, radix: 8)) and cannot be removed", Errno.current,
                                      hint: "remove it; loaderd only reuses a FIFO it owns that others cannot write")
                }
                try create(path, &st)
            }
        } else if errno == ENOENT {
            try create(path, &st)
        } else {
            throw SystemError("cannot inspect \(path)", Errno.current)
        }
        let r = loaderd_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0)
        guard r >= 0 else { throw SystemError("cannot open the psplash FIFO \(path) for reading", Errno.current) }
        let readFD = OwnedDescriptor(r)
        // The reader exists, so a non-blocking open for writing succeeds at once.
        let w = loaderd_open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0)
        guard w >= 0 else { throw SystemError("cannot open the psplash FIFO \(path) for writing", Errno.current) }
        let writeFD = OwnedDescriptor(w)
        var a = stat(), b = stat()
        guard fstat(r, &a) == 0, fstat(w, &b) == 0, (a.st_mode & UInt32(S_IFMT)) == UInt32(S_IFIFO),
              a.st_dev == b.st_dev, a.st_ino == b.st_ino, isTrusted(a) else {
            throw SystemError("\(path) changed while it was being opened", hint: "is something else managing it?")
        }
        return PsplashFIFO(path: path, readFD: readFD, writeFD: writeFD, device: a.st_dev, inode: a.st_ino)
    }

    /// Makes the FIFO (mode 0660 from the start, through the umask); `st` gets its status.
    private static func create(_ path: String, _ st: inout stat) throws(SystemError) {
        let previous = umask(0o117)
        let rc = mkfifo(path, 0o660)
        let e = errno
        umask(previous)
        if rc != 0 {
            throw SystemError("cannot create the psplash FIFO \(path)", Errno(rawValue: e),
                              hint: e == ENOENT ? "does the directory exist? see --psplash-fifo=DIR or boot.psplash_fifo_dir"
                                  : e == EEXIST ? "something made it at the same moment; is another splash starting?" : nil)
        }
        guard lstat(path, &st) == 0 else { throw SystemError("cannot inspect \(path)", Errno.current) }
        try check(st, path)
        guard isTrusted(st) else { throw SystemError("\(path) changed while it was being made", hint: "is something else managing it?") }
    }

    /// Ours, and writable by nobody outside its owner and group.
    private static func isTrusted(_ st: stat) -> Bool {
        st.st_uid == geteuid() && st.st_mode & 0o002 == 0
    }

    private static func check(_ st: stat, _ path: String) throws(SystemError) {
        switch st.st_mode & UInt32(S_IFMT) {
        case UInt32(S_IFIFO): return
        case UInt32(S_IFLNK):
            throw SystemError("\(path) is a symbolic link; refusing to follow it for the psplash FIFO", hint: "remove it")
        case UInt32(S_IFREG):
            throw SystemError("\(path) is a regular file, not a FIFO; refusing to use it for the psplash FIFO", hint: "remove it")
        default:
            throw SystemError("\(path) exists and is not a FIFO", hint: "remove it")
        }
    }

    /// One non-blocking read; `body` gets each complete command (nil: an over-long one dropped).
    /// A read that emptied the FIFO ends the command written last, separator or not, as psplash
    /// reads it (PsplashSplitter); one that filled the buffer may have more behind it.
    func readCommands(into buffer: UnsafeMutableRawBufferPointer, _ body: (PsplashCommand?) -> Void) {
        let n = syscall { read(readFD.rawValue, buffer.baseAddress, buffer.count) }
        guard case .success(let count) = n, count > 0 else { return }  // EAGAIN, or 0 (cannot happen: we hold a writer)
        splitter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { bytes in
            body(bytes.map { PsplashCommand.parse($0) })
        }
        if count < buffer.count {
            splitter.flush { bytes in body(bytes.map { PsplashCommand.parse($0) }) }
        }
    }

    /// Removes the FIFO if it is still the one opened (never a newer one).
    func removeFile() {
        var st = stat()
        if lstat(path, &st) == 0, st.st_dev == device, st.st_ino == inode { unlink(path) }
    }
}
