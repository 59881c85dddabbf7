import Displays
import LinuxSystem
import FixedPoint
import CLinux
import Loaders
import CompactText

/// The psplash FIFO and the Plymouth sockets in the daemon's poll loop, and what their commands do.
final class BootFrontEnds {
    let settings: BootSettings
    let logger: Logger
    let psplash: PsplashFIFO?
    let plymouth: PlymouthServer?
    /// CLOCK_MONOTONIC nanoseconds when loaderd started (the timeline's origin).
    let startedAt: Int64
    /// CLOCK_REALTIME nanoseconds at the same moment, to compare with a file's time.
    let startedAtRealtime: Int64
    var estimator: BootProgressEstimator
    /// Whether `C`'s last mode is `boot-up`: the timeline is recorded only then (a flag, not the
    /// mode's name compared at each use, for size).
    var bootingUp = true
    /// `A`/`a`: progress from `U` is held back (and applied on `a`).
    var paused = false
    /// The best progress from `U` not yet shown (paused, or the splash hidden).
    var heldProgress: Int?
    /// `H`/`D`: the splash is hidden; what was shown, to bring it back on `$`/`r`.
    var hidden = false
    var hiddenSession: (name: String, assignments: [Assignment])?
    /// A client of the control socket stopped the loader (`loaderctl stop`: a script ended the
    /// splash early, and something else has the screen now): PID 1's unit progress and psplash's
    /// PROGRESS no longer bring the bar back over it, until a client starts a loader again or
    /// `show-splash` comes.
    var stoppedByClient = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    /// Where this turn's descriptors start in the daemon's poll set, and how many connections.
    var pollBase = 0
    var polledConnections = 0

    init(settings: __shared BootSettings, maximumConnections: Int, startedAt: Int64, logger: __shared Logger) throws(SystemError) {
        self.settings = settings
        self.logger = logger
        self.startedAt = startedAt
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        startedAtRealtime = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)
        psplash = try settings.psplashFifoDirectory.map { dir throws(SystemError) in try PsplashFIFO.open(directory: dir) }
        if let psplash { logger.info("psplash front end: reading " + psplash.path) }
        var previous: BootTimeline? = nil
        plymouth = try BootFrontEnds.listenForPlymouth(settings, maximumConnections: maximumConnections, logger: logger)
        if plymouth != nil {
            // PlymouthWire.socketName written out (no interpolation, for size).
            logger.info("Plymouth front end: listening on @/org/freedesktop/plymouthd")
            switch BootTimeline.load(path: settings.timelinePath) {
            case .success(let t?):
                previous = t
                logger.info(filled("boot timeline {}: {}", settings.timelinePath, Self.summary(t)))
            case .success(nil) where loaderd_root_is_in_memory() != 0:
                // The initramfs: the real root's /var/lib/loaderd is not here (readTimelineInRealRoot).
                logger.info(filled("no boot timeline at {} in the initramfs: the real root's is read once PID 1 has switched there; until then progress is an estimate", settings.timelinePath))
            case .success(nil):
                logger.info(filled("no boot timeline at {} yet: progress is an estimate this boot", settings.timelinePath))
            case .failure(let e):
                logger.warning(filled("ignoring the boot timeline {}: {}; progress is an estimate this boot", settings.timelinePath, e.description))
            }
        }
        estimator = BootProgressEstimator(previous: previous)
    }

    /// The Plymouth front end's sockets, when configured. With `plymouth = "auto"` a name that is
    /// taken means plymouthd is running: it keeps the boot's messages and loaderd goes on without.
    static func listenForPlymouth(_ settings: BootSettings, maximumConnections: Int, logger: Logger) throws(SystemError) -> PlymouthServer? {
        guard settings.plymouth else { return nil }
        do throws(SystemError) {
            return try PlymouthServer.listen(maximumConnections: maximumConnections) { logger.warning($0) }
        } catch {
            guard settings.plymouthIfFree, error.errno == .addressInUse else { throw error }
            logger.info("Plymouth front end (auto): @/org/freedesktop/plymouthd is taken, plymouthd is running; not answering Plymouth's protocol")
            return nil
        }
    }

    // MARK: Poll

    /// `accepting`: false while the process is out of descriptors (the daemon backs off).
    @inline(never)  // not inlined into Daemon.run (for size)
    // The FIFO (-1 without one), then Plymouth's listeners, then its connections: one `append`
    // for the three kinds (each inlined `append` was code of its own; for size).
    func appendPollFDs(_ set: inout [pollfd], accepting: Bool) {
        pollBase = set.count
        let listeners = plymouth?.listeners ?? []
        let connections = plymouth?.connections ?? []
        polledConnections = connections.count
        for i in 0...(listeners.count + connections.count) {
            var fd = psplash?.readFD.rawValue ?? -1
            var events = Poll.readable
            if i > listeners.count {
                let c = connections[i - listeners.count - 1]
                fd = c.fd.rawValue
                events = (c.readClosed ? 0 : Poll.readable) | (c.pendingOutput > 0 ? Poll.writable : 0)
            } else if i > 0 {
                fd = listeners[i - 1].rawValue
                if !accepting { events = 0 }
            }
            set.append(pollfd(fd: fd, events: events, revents: 0))
        }
    }

    @inline(never)  // not inlined into Daemon.run (for size)
    func service(_ daemon: Daemon, now: Int64) {
        let set = daemon.pollSet
        guard pollBase < set.count else { return }
        if let psplash, set[pollBase].revents != 0 {
            buffer.withUnsafeMutableBytes { raw in
                psplash.readCommands(into: raw) { bytes in handleCommand(bytes, daemon: daemon, now: now) }
            }
        }
        guard let plymouth else { return }
        var index = pollBase + 1
        for l in plymouth.listeners {
            if set[index].revents != 0, let e = plymouth.accept(l.rawValue, logNotice: { logger.notice($0) },
                                                                lastWords: { finish($0, daemon: daemon, now: now) }) {
                daemon.pauseAccepting(now: now, because: e)
            }
            index += 1
        }
        // Connections accepted this turn were appended after the polled ones; an eviction may
        // have shifted the array, so they are matched by descriptor.
        for _ in 0..<polledConnections {
            let p = set[index]
            index += 1
            guard p.revents != 0, let c = plymouth.connections.first(where: { $0.fd.rawValue == p.fd }) else { continue }
            service(c, revents: p.revents, daemon: daemon, now: now)
        }
        // One pass: what is waiting is sent, then a connection whose peer closed and that has
        // nothing left to send goes (two loops were more code; for size).
        for c in plymouth.connections where !c.dead {
            if c.pendingOutput > 0 && !c.flush() { c.dead = true }
            if c.readClosed && c.pendingOutput == 0 { c.dead = true }
        }
        plymouth.connections.removeAll { $0.dead }
    }

    /// A connection about to be dropped for room: what it sent is read and answered first (a
    /// client that closed has its requests waiting whole in the socket).
    func finish(_ c: PlymouthConnection, daemon: Daemon, now: Int64) {
        for _ in 0..<8 where !c.dead && !c.readClosed {
            service(c, revents: Poll.readable, daemon: daemon, now: now)
        }
        _ = c.flush()
    }

    func service(_ c: PlymouthConnection, revents: Int16, daemon: Daemon, now: Int64) {
        if revents & Poll.invalid != 0 { c.dead = true; return }
        if revents & Poll.writable != 0, !c.flush() { c.dead = true; return }
        guard revents & (Poll.readable | Poll.hangUp | Poll.error) != 0, !c.readClosed else { return }
        let result = buffer.withUnsafeMutableBytes { UnixSocket.receiveSome(c.fd.rawValue, into: $0) }
        switch result {
        case .failure: c.dead = true
        case .success(nil): break
        case .success(0?):
            c.readClosed = true
            if c.parser.isInsideRequest { logger.debug("Plymouth front end: a client closed in the middle of a request") }
        case .success(let n?):
            let error = buffer.withUnsafeBytes { raw in
                c.parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { request in
                    c.queue(reply(to: request, from: c, daemon: daemon, now: now))
                }
            }
            if let error {
                logger.notice(filled("Plymouth front end: dropped a client (uid {}) that broke the framing: {}", String(c.peerUID), error.description))
                _ = c.flush()
                c.dead = true
            } else if c.pendingOutput > PlymouthServer.maximumOutput {
                logger.warning("Plymouth front end: dropped a client that does not read its replies")
                c.dead = true
            }
        }
    }

    @inline(never)  // not inlined into Daemon.run (for size)
    func close() {
        plymouth?.closeAll()
        psplash?.removeFile()
    }

    // MARK: psplash

    /// One command's bytes from the FIFO (nil: an over-long one was dropped), parsed and done:
    /// one call at each of the splitter's places, which had the parsing copied in (for size).
    @inline(never)
    func handleCommand(_ bytes: UnsafeRawBufferPointer?, daemon: Daemon, now: Int64) {
        handle(bytes.map { PsplashCommand.parse($0) }, daemon: daemon, now: now)
    }

    func handle(_ command: PsplashCommand?, daemon: Daemon, now: Int64) {
        guard let command else {
            // PsplashCommand.maximumLength written out (no number to format, for size).
            logger.notice("psplash front end: dropped a command longer than 1024 bytes")
            return
        }
        switch command {
        case .progress(let n):
            if stoppedByClient {
                logger.debug(filled("psplash front end: PROGRESS {} not shown: a client stopped the loader", String(n)))
                return
            }
            daemon.setBarDirection(reversed: n < 0, now: now)
            _ = daemon.setProgress(Percent(thousandths: abs(n) * 1000), force: true, now: now)
        case .message(let text):
            daemon.setMessage(text, now: now)
        case .quit:
            daemon.finish(reason: "psplash front end: QUIT", now: now)
        case .ignored(let text):
            logger.debug(filled("psplash front end: ignored '{}'", RequestParser.quote(Substring(text))))
        }
    }

    // MARK: Plymouth

    func elapsed(_ now: Int64) -> Int64 { Swift.max(0, (now - startedAt) / 1000) }

    /// Shows (or holds back) the progress from the boot accounting.
    func pushProgress(_ thousandths: Int, daemon: Daemon, now: Int64) {
        if paused || hidden || stoppedByClient {
            heldProgress = Swift.max(heldProgress ?? 0, thousandths)
            return
        }
        heldProgress = nil
        _ = daemon.setProgress(Percent(thousandths: thousandths), force: false, now: now)
    }

    func releaseHeldProgress(daemon: Daemon, now: Int64) {
        if let held = heldProgress { pushProgress(held, daemon: daemon, now: now) }
    }

    /// The reply byte: loaderd only ever answers ACK, NAK or "no answer", one byte each, queued
    /// as it is rather than as a `PlymouthReply` made into an array (for size). ACK is returned
    /// at one place, after the switch.
    func reply(to request: PlymouthRequest, from c: PlymouthConnection, daemon: Daemon, now: Int64) -> UInt8 {
        guard c.peerUID == 0 else {
            if !c.refusedLogged {
                logger.notice(filled("Plymouth front end: refused requests from uid {} (only root may talk to the splash, as with plymouthd)", String(c.peerUID)))
                c.refusedLogged = true
            }
            return PlymouthWire.nak
        }
        let text = request.text
        switch UnicodeScalar(request.command) {
        case "P":
            break
        case "U":
            logger.debug(filled("Plymouth: status '{}'", text))
            if bootingUp, !text.isEmpty, let p = estimator.unitActive(text, at: elapsed(now)) {
                pushProgress(p, daemon: daemon, now: now)
            }
            if settings.statusMessages, !text.isEmpty { daemon.setMessage(text, now: now) }
        case "u":
            // atoi on the argument's bytes: the same number as on `text`, which ends at the same
            // NUL and whose replaced bytes stop atoi as the raw ones do (the String's UTF-8 view
            // had its indexing inlined; for size).
            let value = Swift.max(0, PsplashCommand.atoi(request.argument ?? []))
            // Hidden, the splash stays hidden (a display manager or a shell has the screen): the
            // progress waits for `show-splash`, as `U`'s does.
            if hidden || stoppedByClient {
                heldProgress = Swift.min(value, 100) * 1000
            } else {
                _ = daemon.setProgress(Percent(thousandths: value * 1000), force: true, now: now)
            }
        case "M":
            daemon.setMessage(text, now: now)
        case "m":
            if daemon.state.message == Self.message(text) || text.isEmpty { daemon.setMessage("", now: now) }
        case "A":
            paused = true
        case "a":
            paused = false
            releaseHeldProgress(daemon: daemon, now: now)
        case "$", "r":
            show(daemon: daemon, now: now)
        case "H", "D":
            hide(daemon: daemon, now: now)
        case "Q":
            let retain = (request.argument?.first ?? 0) != 0
            quit(retain: retain, daemon: daemon, now: now)
        case "C":
            changeMode(text, daemon: daemon, now: now)
        case "S", "R", "!", "L":
            if request.command == UInt8(ascii: "!") { logger.notice("Plymouth: a boot error was reported") }
        case "V":
            // We "have an active VT" exactly when we drive a framebuffer on it.
            if !daemon.slots.contains(where: { $0.spec.type == "fb" }) { return PlymouthWire.nak }
        case "*", "c", "W", "K":
            // No prompts on the splash: the asker falls back to its own (console) prompt.
            return PlymouthWire.noAnswer
        default:
            logger.debug(filled("Plymouth: unknown request '{}'", Self.escaped(request.command)))
            return PlymouthWire.nak
        }
        return PlymouthWire.ack
    }

    /// The command byte as `Unicode.Scalar.escaped(asASCII: true)` wrote it (`\t`, `\u{01}`,
    /// `\u{0080}`), made from the byte: for size, the library's escaping being far more code.
    @inline(never)
    static func escaped(_ byte: UInt8) -> String {
        // The text's bytes packed into an integer, the first lowest (no array to build).
        let value = UInt64(byte)
        var text = value
        var count = 1
        switch byte {
        case 0: text = 0x305C; count = 2  // \0
        case 9: text = 0x745C; count = 2  // \t
        case 10: text = 0x6E5C; count = 2  // \n
        case 13: text = 0x725C; count = 2  // \r
        case 0x22, 0x27, 0x5C: text = value << 8 | 0x5C; count = 2
        case 0x20...0x7E: break
        default:
            // \u{XX} below 0x80, \u{00XX} above, in upper-case hex.
            let high = value >> 4, low = value & 0xF
            let digits = (high < 10 ? 0x30 + high : 0x37 + high) | (low < 10 ? 0x30 + low : 0x37 + low) << 8
            count = byte < 0x80 ? 6 : 8
            text = 0x7B_755C | (byte < 0x80 ? digits : digits << 16 | 0x3030) << 24 | 0x7D << UInt64(8 * count - 8)
        }
        return withUnsafeBytes(of: text.littleEndian) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[..<count]), as: UTF8.self) }
    }

    /// Control characters (escape sequences a terminal would run in `loaderctl status`) become
    /// spaces, as psplash's front end does; the config and the socket refuse them.
    static func message(_ text: String) -> String? {
        let t = String(PsplashCommand.text(text.utf8)[...].prefix(scalars: Request.maximumMessageLength))
        return t.isEmpty ? nil : t
    }

    /// What a client of the control socket asked, once done: its `stop` and `start` decide
    /// whether the boot's own progress may start the bar (`stoppedByClient`).
    func clientCommanded(_ request: Request) {
        switch request {
        case .stop: stoppedByClient = true
        case .start: stoppedByClient = false
        default: break
        }
    }

    func show(daemon: Daemon, now: Int64) {
        stoppedByClient = false
        let wasHidden = hidden
        hidden = false
        // One call to start a loader, not one per case (each inlined into `reply`). A loader
        // another client started meanwhile (loaderctl, psplash's FIFO) stays on screen.
        if daemon.state.session == nil {
            let held = wasHidden ? hiddenSession : nil
            if let name = held?.name ?? daemon.configuration.loader {
                _ = daemon.startLoader(name, held?.assignments ?? daemon.configuration.assignments, now: now)
            }
        }
        guard wasHidden else { return }
        hiddenSession = nil
        releaseHeldProgress(daemon: daemon, now: now)
    }

    /// `hide-splash`, `deactivate`: the screen is left blank, every time it is asked, also when
    /// another client brought a loader back since the last hide.
    func hide(daemon: Daemon, now: Int64) {
        hidden = true
        guard let s = daemon.state.session else { return }
        hiddenSession = (s.name, s.assignments)
        if let p = daemon.state.progressTarget { heldProgress = Swift.max(heldProgress ?? 0, p.thousandths) }
        _ = daemon.execute(.stop(.now), now: now)
    }

    func changeMode(_ newMode: String, daemon: Daemon, now: Int64) {
        logger.info("Plymouth: mode " + newMode)
        bootingUp = newMode == "boot-up"
        guard let name = settings.modeLoaders[newMode] else { return }
        if hidden {
            hiddenSession = (name, [])  // shown at `show-splash`, not over a display manager now
        } else if case .failure(let e) = daemon.startLoader(name, [], now: now) {
            logger.error(filled("Plymouth: mode {}: {}", newMode, e.message))
        }
    }

    func quit(retain: Bool, daemon: Daemon, now: Int64) {
        logger.notice(retain ? "Plymouth: quit (retaining the splash): stopping" : "Plymouth: quit: stopping")
        if bootingUp, plymouth != nil {
            saveTimeline(now: now)
            if daemon.state.session != nil, !hidden {
                _ = daemon.setProgress(.hundred, force: true, now: now)
                // The last frame shows 100 without the smoothing (it may be the one retained).
                daemon.state.progress = ProgressState(DaemonState.fixed(.hundred))
            }
        }
        // 100 %, the exit, then the console back (Finishing.swift); retained: this frame stays.
        daemon.finish(reason: "Plymouth: quit", retain: retain, now: now)
    }
}


extension Daemon {
    /// Opens the front ends the settings ask for (nil: none).
    static func openBootFrontEnds(_ configuration: DaemonConfiguration, logger: Logger) throws(SystemError) -> BootFrontEnds? {
        guard configuration.boot.psplashFifoDirectory != nil || configuration.boot.plymouth else { return nil }
        return try BootFrontEnds(settings: configuration.boot, maximumConnections: configuration.maxClients,
                                 startedAt: MonotonicClock.now(), logger: logger)
    }

    /// The message line from a front end: truncated to the protocol's limit; empty clears.
    func setMessage(_ text: String, now: Int64) {
        _ = execute(.message(BootFrontEnds.message(text)), now: now)
    }

    /// psplash's negative progress fills from the right: the `bar` loader (running or about to
    /// start) gets `direction=right`, and back to the default for a positive value. Other loaders
    /// are left as they are.
    func setBarDirection(reversed: Bool, now: Int64) {
        let current = state.session
        guard current == nil || current?.name == ProgressBar.name else { return }
        // A loop, not `filter` (a specialisation of its own; for size).
        var assignments: [Assignment] = []
        for a in current?.assignments ?? [] where a.key != "direction" { assignments.append(a) }
        if reversed { assignments.append(Assignment(key: "direction", value: "right")) }
        if current == nil && !reversed { return }  // setProgress starts the plain bar
        if current?.assignments != assignments || current?.stop != nil {
            _ = startLoader(ProgressBar.name, assignments, now: now)
        }
    }
}
