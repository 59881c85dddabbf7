import LinuxSystem
import CLinux

/// One client of the control socket: its line splitter and its unsent replies.
final class Connection {
    let fd: OwnedDescriptor
    var splitter: LineSplitter
    /// Unsent reply bytes from `outputStart` on.
    var output: [UInt8] = []
    var outputStart = 0
    var lastActivity: Int64
    /// The peer shut its writing side: close once the replies are out.
    var readClosed = false
    /// Set when the connection is to be dropped at the end of this loop turn.
    var dead = false
    let peerUID: UInt32

    init(fd: OwnedDescriptor, maxLine: Int, now: Int64, peerUID: UInt32) {
        self.fd = fd
        splitter = LineSplitter(maximumLineLength: maxLine)
        lastActivity = now
        self.peerUID = peerUID
    }

    var pendingOutput: Int { output.count - outputStart }

    /// Queues one reply line; false when the client is over its output limit even after the
    /// socket took what it could (a client pipelining many requests in one read is served; only
    /// one whose socket stays full, because it does not read, is over).
    func queue(_ reply: String, limit: Int, now: Int64) -> Bool {
        var reply = reply
        reply.withUTF8 { output.append(contentsOf: $0) }
        output.append(0x0A)
        if pendingOutput > limit && !flush(now: now) { return false }
        return pendingOutput <= limit
    }

    /// Sends what the socket takes now. False on a send error (the peer is gone).
    func flush(now: Int64) -> Bool {
        guard pendingOutput > 0 else { return true }
        let result = output.withUnsafeBytes { buffer in
            UnixSocket.sendSome(fd.rawValue, UnsafeRawBufferPointer(rebasing: buffer[outputStart...]))
        }
        switch result {
        case .success(let n):
            if n > 0 { lastActivity = now }
            outputStart += n
            if outputStart == output.count {
                output.removeAll(keepingCapacity: true); outputStart = 0
            } else if outputStart > 16 * 1024 {
                output.removeSubrange(0..<outputStart); outputStart = 0
            }
            return true
        case .failure:
            return false
        }
    }
}
