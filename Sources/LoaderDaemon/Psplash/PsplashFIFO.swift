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
        // The "/" cut as its byte, not as the last Character (for size: no grapheme breaking).
        let path = filled("{}/{}", directory.hasSuffix("/") ? String(directory[..<directory.utf8.index(before: directory.endIndex)]) : directory, fileName)
        // What went wrong: the words before and after the path, the C error (`code`, 0: none) and
        // a hint, made into the one error thrown at the end (each throw was code of its own; for size).
        var before = ""
        var after = ""
        var code: Int32 = 0
        var hint: String? = "remove it"
        var st = stat()
        // Set only when every step passed (a descriptor opened before a failure closes on release).
        var opened: (read: OwnedDescriptor, write: OwnedDescriptor)? = nil
        steps: do {
            // Whether something is at the path (nil: lstat failed otherwise than with ENOENT).
            var existing: Bool? = lstat(path, &st) == 0 ? true : errno == ENOENT ? false : nil
            // Made afresh here when missing or another's, then checked as an existing one is.
            for pass in 0..<2 {
                let made = pass == 1
                if existing == nil {
                    (before, code, hint) = ("cannot inspect ", errno, nil)
                    break steps
                }
                if existing == true {
                    switch st.st_mode & UInt32(S_IFMT) {
                    case UInt32(S_IFIFO): break
                    case UInt32(S_IFLNK): after = " is a symbolic link; refusing to follow it for the psplash FIFO"; break steps
                    case UInt32(S_IFREG): after = " is a regular file, not a FIFO; refusing to use it for the psplash FIFO"; break steps
                    default: after = " exists and is not a FIFO"; break steps
                    }
                    if isTrusted(st) { break }
                    if made {
                        (after, hint) = (" changed while it was being made", "is something else managing it?")
                        break steps
                    }
                    guard unlink(path) == 0 || errno == ENOENT else {
                        after = filled(" is a FIFO of uid {} with mode {} and cannot be removed", String(st.st_uid), String(st.st_mode & 0o777, radix: 8))
                        (code, hint) = (errno, "remove it; loaderd only reuses a FIFO it owns that others cannot write")
                        break steps
                    }
                }
                guard !made else { break }
                // Mode 0660 from the start, through the umask.
                let previous = umask(0o117)
                let rc = mkfifo(path, 0o660)
                let e = errno
                umask(previous)
                if rc != 0 {
                    (before, code) = ("cannot create the psplash FIFO ", e)
                    hint = e == ENOENT ? "does the directory exist? see --psplash-fifo=DIR or boot.psplash_fifo_dir"
                        : e == EEXIST ? "something made it at the same moment; is another splash starting?" : nil
                    break steps
                }
                existing = lstat(path, &st) == 0 ? true : nil
            }
            before = "cannot open the psplash FIFO "
            let r = loaderd_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0)
            guard r >= 0 else { (after, code, hint) = (" for reading", errno, nil); break steps }
            let readFD = OwnedDescriptor(r)
            // The reader exists, so a non-blocking open for writing succeeds at once.
            let w = loaderd_open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW, 0)
            guard w >= 0 else { (after, code, hint) = (" for writing", errno, nil); break steps }
            let writeFD = OwnedDescriptor(w)
            before = ""
            var b = stat()
            guard fstat(r, &st) == 0, fstat(w, &b) == 0, (st.st_mode & UInt32(S_IFMT)) == UInt32(S_IFIFO),
                  st.st_dev == b.st_dev, st.st_ino == b.st_ino, isTrusted(st) else {
                (after, hint) = (" changed while it was being opened", "is something else managing it?")
                break steps
            }
            opened = (readFD, writeFD)
        }
        guard let opened else {
            throw SystemError(before + path + after, code == 0 ? nil : Errno(rawValue: code), hint: hint)
        }
        return PsplashFIFO(path: path, readFD: opened.read, writeFD: opened.write, device: st.st_dev, inode: st.st_ino)
    }

    /// Ours, and writable by nobody outside its owner and group.
    private static func isTrusted(_ st: stat) -> Bool {
        st.st_uid == geteuid() && st.st_mode & 0o002 == 0
    }

    /// One non-blocking read; `body` gets each complete command's bytes (nil: an over-long one
    /// dropped), parsed by the caller in one place.
    /// A read that emptied the FIFO ends the command written last, separator or not, as psplash
    /// reads it (PsplashSplitter); one that filled the buffer may have more behind it.
    func readCommands(into buffer: UnsafeMutableRawBufferPointer, _ body: (UnsafeRawBufferPointer?) -> Void) {
        let n = syscall { read(readFD.rawValue, buffer.baseAddress, buffer.count) }
        guard case .success(let count) = n, count > 0 else { return }  // EAGAIN, or 0 (cannot happen: we hold a writer)
        splitter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), body)
        if count < buffer.count { splitter.flush(body) }
    }

    /// Removes the FIFO if it is still the one opened (never a newer one).
    func removeFile() {
        unlinkIfUnchanged(path, device: device, inode: inode)
    }
}
