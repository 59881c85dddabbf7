import Displays
import FixedPoint
import CLinux
import Loaders
import Raster
import LinuxSystem
import CompactText

extension Daemon {
    // MARK: Clients

    func acceptClients(now: Int64) {
        // A bounded number per turn, so a connect storm cannot starve the frames.
        for _ in 0..<64 {
            let accepted: OwnedDescriptor?
            switch UnixSocket.accept(listener) {
            case .success(let fd): accepted = fd
            case .failure(let e):
                pauseAccepting(now: now, because: e)
                return
            }
            guard let fd = accepted else { return }
            guard let peer = UnixSocket.peer(fd.rawValue, inGroup: allowedGroup) else {
                refuse(fd, "ERR denied cannot read the peer's credentials\n")
                continue
            }
            guard peer.uid == 0 || peer.uid == ownUID || peer.isMember else {
                // The numbers made text once, for the log line and the reply (for size).
                let uid = String(peer.uid), gid = String(allowedGroup)
                if now - deniedLoggedAt >= 1_000_000_000 || deniedLoggedAt == 0 {
                    deniedLoggedAt = now
                    logger.notice(filled("denied a client: uid {} pid {} is neither root nor in group {} (other denials within a second are not logged)", uid, String(peer.pid), gid))
                }
                refuse(fd, filled("ERR denied uid {} is neither root nor in the socket's group (gid {})\n", uid, gid))
                continue
            }
            guard connections.count < configuration.maxClients else {
                // Once per episode: a connect storm must not turn into a log storm.
                let limit = String(configuration.maxClients)
                if !refusingBusy { logger.warning(filled("refused clients: {} clients already connected", limit)) }
                refusingBusy = true
                refuse(fd, filled("ERR busy too many clients (at most {}); try again later\n", limit))
                continue
            }
            refusingBusy = false
            connections.append(Connection(fd: fd, maxLine: configuration.maxLine, now: now, peerUID: peer.uid))
        }
    }

    /// EMFILE, ENFILE, ENOBUFS from accept on any listener (control or Plymouth): the listener
    /// stays readable, so polling it again at once would spin. Every listener leaves new
    /// connections in its backlog for 100 ms (logged once per episode).
    func pauseAccepting(now: Int64, because e: Errno) {
        if acceptPausedUntil == 0 || now - acceptPausedUntil > 1_000_000_000 {
            logger.warning(filled("accept: {}; new connections wait until descriptors are free", e.text))
        }
        acceptPausedUntil = now + 100_000_000
    }

    /// One line, with its newline (in the callers' text, not joined here: for size), to a
    /// connection about to be closed (best effort: its socket buffer is empty).
    func refuse(_ fd: OwnedDescriptor, _ line: String) {
        var text = line
        _ = text.withUTF8 { UnixSocket.sendSome(fd.rawValue, UnsafeRawBufferPointer($0)) }
        fd.close()
    }

    func service(_ c: Connection, revents: Int16, now: Int64) {
        if revents & Poll.invalid != 0 { c.dead = true; return }
        if revents & Poll.writable != 0 {
            if !c.flush(now: now) { c.dead = true; return }
        }
        if revents & (Poll.readable | Poll.hangUp | Poll.error) != 0 && !c.readClosed {
            // One read per turn per client: a flood from one cannot starve the others or the frames.
            let result = readBuffer.withUnsafeMutableBytes { UnixSocket.receiveSome(c.fd.rawValue, into: $0) }
            switch result {
            case .failure:
                c.dead = true
            case .success(nil):
                break
            case .success(0?):
                c.readClosed = true
                c.splitter.finish { event in handle(event, from: c, now: now) }
            case .success(let n?):
                c.lastActivity = now
                readBuffer.withUnsafeBytes { buffer in
                    c.splitter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { event in
                        handle(event, from: c, now: now)
                    }
                }
            }
        }
    }

    func handle(_ event: LineEvent, from c: Connection, now: Int64) {
        guard !c.dead else { return }
        let reply: String
        switch event {
        case .tooLong:
            reply = ProtocolError(.tooLong, filled("request longer than {} bytes; the rest of it up to the next newline is discarded", String(configuration.maxLine))).reply
        case .line(let bytes):
            switch RequestParser.parse(bytes) {
            case .failure(let error): reply = error.reply
            case .success(let request):
                reply = execute(request, now: now)
                boot?.clientCommanded(request)
            }
        }
        if !c.queue(RequestParser.escapingControlCharacters(reply), limit: configuration.maxOutput, now: now) {
            logger.warning(filled("dropped a client (uid {}) with more than {} bytes of replies it does not read", String(c.peerUID), String(configuration.maxOutput)))
            c.dead = true
        }
    }

    func expireIdle(now: Int64) {
        for c in connections where !c.dead && now - c.lastActivity >= configuration.idleTimeout {
            logger.debug(filled("closed a client idle for {} s", String(configuration.idleTimeout / 1_000_000_000)))
            c.dead = true
        }
    }
}
