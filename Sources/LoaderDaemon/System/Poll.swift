import CLinux
import LinuxSystem

/// poll(2): the daemon's only blocking call.
public enum Poll {
    public static let readable = Int16(POLLIN)
    public static let writable = Int16(POLLOUT)
    public static let hangUp = Int16(POLLHUP)
    public static let error = Int16(POLLERR)
    public static let invalid = Int16(POLLNVAL)

    /// Waits until one of `fds` is ready or `timeoutMilliseconds` pass (-1: no limit). EINTR is
    /// returned as 0 ready descriptors (not retried: the caller's loop recomputes its timeout).
    ///
    /// The corresponding C function is `poll`.
    public static func wait(_ fds: inout [pollfd], timeoutMilliseconds: Int32) throws(Errno) -> Int {
        let result = fds.withUnsafeMutableBufferPointer { buffer in
            syscall(retryOnInterrupt: false) { CLinux.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds) }
        }
        switch result {
        case .success(let n): return Int(n)
        case .failure(.interrupted): return 0
        case .failure(let e): throw e
        }
    }
}
