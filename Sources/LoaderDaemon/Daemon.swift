import Displays
import FixedPoint
import CLinux
import Loaders
import Raster
import LinuxSystem
import CompactText

/// The daemon: one thread, one `poll()` over the signalfd, the frame timerfd, the watchdog
/// timerfd, the listening socket and the clients. Nothing in it blocks but `poll`.
public final class Daemon {
    var configuration: DaemonConfiguration
    var logger: Logger
    var slots: [DisplaySlot]
    let listener: ListeningSocket
    var signals: SignalFD
    var frameTimer: TimerFD
    var watchdogTimer: TimerFD?
    var notifier: SystemdNotifier
    var state: DaemonState
    let allowedGroup: gid_t
    let ownUID = geteuid()

    var connections: [Connection] = []
    var pollSet: [pollfd] = []
    /// Read buffer shared by all clients (one read at a time), allocated once.
    var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    var running = true
    /// The psplash FIFO and Plymouth sockets (BootProgress/BootFrontEnds.swift), when enabled.
    var boot: BootFrontEnds?
    /// Plymouth's `quit --retain-splash`: leave the last frame on the displays at exit.
    var retainSplash = false
    /// While finishing (Finishing.swift): when the loop ends (CLOCK_MONOTONIC ns).
    var finishingUntil: Int64?
    /// The finish's 100 % frame is still to be drawn; its clock starts when it has been.
    var finishAwaitsFrame = false
    /// Reports display devices that appear or vanish (DisplayWatch.swift); made on first use.
    var deviceWatcher: Inotify?
    /// Where inotify events are read, allocated once; and the watcher's index in `pollSet`.
    var watchBuffer = [UInt8](repeating: 0, count: 4096)
    var watchIndex = 0
    /// DRM hotplug events (Hotplug.swift), while a display follows its outputs.
    var hotplugMonitor: UeventMonitor?
    var hotplugUnavailable = false
    /// The watches of /dev and /dev/dri that tell `auto` displays of new devices (AutoDisplayWatch.swift).
    var devWatch: Int32?
    var driWatch: Int32?
    /// The watch on systemd's password questions (PasswordQuestions.swift), or on the deepest
    /// directory of its path while it does not exist.
    var passwordWatch: (wd: Int32, isTheDirectory: Bool)?
    /// Follows PID 1 into the real root when started in the initramfs (DisplayWatch.swift).
    var rootFollower = RootFollower()
    /// The process's exit status once `run` returns: 0, or `Daemon.noDisplayStatus`.
    public internal(set) var exitStatus: Int32 = 0

    /// Re-reads the settings on SIGHUP (the config file merged with the command line); nil when
    /// there is nothing to re-read. Throws a message naming what is wrong in the file.
    public var reloadConfiguration: (() throws(ConfigError) -> DaemonConfiguration)?

    /// While the process is out of file descriptors, new connections wait in the backlog until
    /// this time (CLOCK_MONOTONIC ns) instead of waking the loop again at once.
    var acceptPausedUntil: Int64 = 0
    /// Clients are being refused at the limit (the warning was logged).
    var refusingBusy = false
    /// When a denied client was last logged: at most one line a second (any local user can connect).
    var deniedLoggedAt: Int64 = 0
    /// The last logo failure logged: boot scripts start loaders all the time, and the same missing
    /// file is said once (again after a reload, or once a logo loaded in between).
    var loggedLogoError: String?
    /// Faces loaded for screens' text, by font and size (see TextFaces.swift), and whether a
    /// scene drew a frame that waits for one.
    var faces: [LoadedFace] = []
    var facesWanted = false

    public private(set) var framesDrawn: Int64 = 0
    public private(set) var framesDropped: Int64 = 0

    /// Opens the displays, the signalfd, the socket (or takes systemd's) and the timers.
    /// Errors here are for a person to fix: the caller prints them and exits non-zero.
    public init(configuration: DaemonConfiguration, logger: Logger) throws(SystemError) {
        self.configuration = configuration
        self.logger = logger
        guard !configuration.displays.isEmpty else { throw SystemError("no display given", hint: "--display " + DisplayFactory.typeList) }
        loaderd_ignore_signal(SIGPIPE)
        do { signals = try SignalFD([SIGTERM, SIGINT, SIGHUP, SIGCHLD] + IgnoredSignals.all) } catch { throw SystemError("signalfd", error) }

        var group: gid_t? = nil
        if let name = configuration.socketGroup {
            guard let gid = Self.groupID(named: name) else {
                throw SystemError("no group '\(name)' on this machine for the control socket (--socket-group, or [daemon] socket_group in the config)", hint: "getent group lists them")
            }
            group = gid
        }
        // The socket comes before the displays: a second loaderd refused here ("another loaderd is
        // listening") must not touch the screen the first one is drawing on.
        if let activated = try UnixSocket.activated() {
            listener = activated
            // systemd made the socket (SocketGroup= in loaderd.socket): its group is the one let in.
            allowedGroup = group ?? UnixSocket.fileGroup(of: activated) ?? getegid()
            logger.info("listening on the socket passed by systemd (fd 3)")
        } else {
            listener = try UnixSocket.listen(path: configuration.socketPath, group: group)
            allowedGroup = group ?? getegid()
            logger.info("listening on \(configuration.socketPath)")
        }
        if rootFollower == nil, let obstacle = RootFollower.obstacle() {
            logger.warning("started from the initramfs, but PID 1 cannot be followed into the real root (\(obstacle)): a display only the real root makes is not found, and the real root's files are not reached")
        }
        var slots: [DisplaySlot] = []
        // A display whose device cannot be used (not the device its type drives, busy, no
        // permission) is given up and the others go on: a wrong second display must not take
        // the boot splash off the screen. A wrong value in a spec is the configuration's error and
        // ends the start, as does having no display at all.
        var unusable: [String] = []
        for spec in configuration.displays {
            do throws(DisplaySpecError) {
                let slot = try Self.openOrWait(spec, logger: logger)
                slots.append(slot)
                let display = slot.display
                if !slot.waiting {
                    logger.info("display \(display.name) \(display.canvasWidth)x\(display.canvasHeight) at \(display.framesPerSecond) fps")
                }
            } catch {
                var wrongValue = false
                do throws(DisplaySpecError) { try DisplayFactory.check(spec) } catch { wrongValue = true }
                if wrongValue || configuration.displays.count == 1 {
                    for slot in slots { slot.display.close() }
                    listener.removeFile()
                    throw SystemError(error.description)
                }
                unusable.append(error.description)
            }
        }
        if slots.isEmpty && !unusable.isEmpty {
            listener.removeFile()
            throw SystemError(unusable.joined(separator: "; ") + " (no display could be opened)")
        }
        for problem in unusable { logger.error(problem + "; giving up on this display, the others go on") }
        self.slots = slots
        do { frameTimer = try TimerFD() } catch { throw SystemError("timerfd_create", error) }
        notifier = SystemdNotifier()
        if let interval = notifier.watchdogInterval {
            do {
                var timer = try TimerFD()
                try timer.arm(at: MonotonicClock.now() + interval, interval: interval)
                watchdogTimer = consume timer
            } catch { throw SystemError("timerfd for the watchdog", error) }
        }
        state = DaemonState(frozen: configuration.freezeTime)
        self.configuration.maxClients = DescriptorBudget.clientLimit(configuration, inUse: DescriptorBudget.openNow(), logger: logger)
        connections.reserveCapacity(configuration.maxClients)
        pollSet.reserveCapacity(configuration.maxClients + 5)
        // A front end that cannot start (no FIFO directory, Plymouth's name taken) ends the start:
        // the socket made above goes with it, so nothing is left for a client to find.
        do { boot = try Self.openBootFrontEnds(self.configuration, logger: logger) } catch {
            listener.removeFile()
            throw error
        }
        watchDevices()
        watchPasswordQuestions(now: MonotonicClock.now())
    }

    /// A group's number from its name or number. Read from /etc/group directly rather than with
    /// getgrnam_r: the static ARMv6 build cannot load glibc's NSS modules, and a boot splash's
    /// socket group is a local group.
    static func groupID(named name: String) -> gid_t? {
        if let number = gid_t(name) { return number }
        return GroupFile.groupID(named: name)
    }

    // MARK: The loop

    /// Runs until SIGTERM or SIGINT; then clears and closes the displays and removes the socket.
    public func run() {
        let now = MonotonicClock.now()
        if let name = configuration.loader {
            switch startLoader(name, configuration.assignments, now: now) {
            case .failure(let e): logger.error("--loader: \(e.message)")
            case .success: break
            }
        }
        if let message = configuration.message {
            state.message = message
            noteMessageRoom()
        }
        if let progress = configuration.progress { _ = setProgress(progress, force: true, now: now) }
        invalidateAll(now: now)
        drawDueFrames(now: MonotonicClock.now())
        notifier.notify("READY=1")
        updateStatus()
        logger.info("ready")

        while running {
            rebuildPollSet()
            let timeout = pollTimeout(now: MonotonicClock.now())
            do {
                _ = try Poll.wait(&pollSet, timeoutMilliseconds: timeout)
            } catch {
                logger.critical("poll failed: \(error)")
                break
            }
            let now = MonotonicClock.now()
            // Started in the initramfs: any event but the clocks' may be the first since PID 1
            // switched to the real root (PID 1's Plymouth messages, a client, the SIGTERM that
            // ends the boot, whose marker is in the real root's /run): follow it first, so paths
            // resolve there. Device events follow it in serviceDeviceWatch.
            if rootFollower != nil, pollSet[0].revents != 0 || pollSet[3...].contains(where: { $0.revents != 0 }) {
                followRoot()
            }
            if pollSet[0].revents != 0 { handleSignals() }
            if pollSet[1].revents != 0 { _ = frameTimer.acknowledge() }
            if pollSet[2].revents != 0, watchdogTimer != nil {
                _ = watchdogTimer!.acknowledge()
                notifier.notify("WATCHDOG=1")
            }
            // Clients first (they were in the set before any accept this turn).
            for i in connections.indices {
                let revents = pollSet[4 + i].revents
                if revents != 0 { service(connections[i], revents: revents, now: now) }
            }
            if pollSet[watchIndex].revents != 0 { serviceDeviceWatch(now: now) }
            if pollSet[watchIndex + 1].revents != 0 { serviceHotplug(now: now) }
            giveUpWaits(now: now)
            if pollSet[3].revents != 0 { acceptClients(now: now) }
            boot?.service(self, now: now)
            expireIdle(now: now)
            for c in connections where !c.dead && c.pendingOutput > 0 {
                if !c.flush(now: now) { c.dead = true }
            }
            for c in connections where c.readClosed && c.pendingOutput == 0 { c.dead = true }
            connections.removeAll { $0.dead }  // closing happens in Connection's deinit
            drawDueFrames(now: MonotonicClock.now())
            if finishAwaitsFrame { startFinishClock(now: MonotonicClock.now()) }
            endFinishIfDue(now: MonotonicClock.now())
        }
        shutdown()
    }

    func rebuildPollSet() {
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: signals.fd, events: Poll.readable, revents: 0))
        pollSet.append(pollfd(fd: frameTimer.fd, events: Poll.readable, revents: 0))
        pollSet.append(pollfd(fd: watchdogTimer?.fd ?? -1, events: Poll.readable, revents: 0))
        let accepting = MonotonicClock.now() >= acceptPausedUntil
        pollSet.append(pollfd(fd: listener.fd.rawValue, events: accepting ? Poll.readable : 0, revents: 0))
        for c in connections {
            var events: Int16 = 0
            if !c.readClosed { events |= Poll.readable }
            if c.pendingOutput > 0 { events |= Poll.writable }
            pollSet.append(pollfd(fd: c.fd.rawValue, events: events, revents: 0))
        }
        watchIndex = pollSet.count
        pollSet.append(pollfd(fd: deviceWatcher?.fd ?? -1, events: Poll.readable, revents: 0))
        pollSet.append(pollfd(fd: hotplugDescriptor(), events: Poll.readable, revents: 0))
        boot?.appendPollFDs(&pollSet, accepting: accepting)
    }

    /// Only idle clients need a timeout: frames come from the timerfd. No clients, no timeout.
    func pollTimeout(now: Int64) -> Int32 {
        var due: Int64? = acceptPausedUntil > now ? acceptPausedUntil - now : nil
        if let until = finishingUntil { due = Swift.min(due ?? until - now, until - now) }
        if let expiry = earliestWaitExpiry() { due = Swift.min(due ?? expiry - now, expiry - now) }
        if let oldest = connections.lazy.map({ $0.lastActivity }).min() {
            let idle = oldest + configuration.idleTimeout - now
            due = Swift.min(due ?? idle, idle)
        }
        guard let due else { return -1 }
        if due <= 0 { return 0 }
        return Int32(Swift.min(Int64(Int32.max), (due + 999_999) / 1_000_000))
    }

    func handleSignals() {
        while let signal = signals.next() {
            switch signal {
            case SIGTERM, SIGINT:
                if signal == SIGTERM { boot?.terminated(now: MonotonicClock.now()) }
                finish(reason: signal == SIGTERM ? "signal SIGTERM" : "signal SIGINT", now: MonotonicClock.now())
            case SIGHUP:
                reload()
            case SIGCHLD:
                // loaderd-media, the static build's helper for FreeType and libpng (Sources/CMedia),
                // exits when it has been idle; reaped here, not left a zombie until its next use.
                var status: Int32 = 0
                while waitpid(-1, &status, WNOHANG) > 0 {}
            default:
                // SIGUSR1, SIGALRM, ...: their default action would kill the splash without
                // clearing the screen or removing the socket; they mean nothing to loaderd.
                logger.notice("signal \(IgnoredSignals.name(signal)) ignored (only SIGTERM, SIGINT and SIGHUP mean something to loaderd)")
            }
        }
    }

    func shutdown() {
        notifier.notify("STOPPING=1")
        connections.removeAll()
        boot?.close()
        for slot in slots {
            if !retainSplash && !slot.waiting {
                do { try slot.display.clear() } catch { logger.warning("\(error)") }
            }
            slot.display.close(retainingFrame: retainSplash)
        }
        followRoot()  // the socket's path is the real root's once PID 1 is there
        listener.removeFile()
        logger.info("stopped")
    }

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
            guard let peer = UnixSocket.peer(fd.rawValue) else {
                refuse(fd, "ERR denied cannot read the peer's credentials")
                continue
            }
            let member = peer.gid == allowedGroup || (peer.groups?.contains(allowedGroup) ?? false)
            guard peer.uid == 0 || peer.uid == ownUID || member else {
                if now - deniedLoggedAt >= 1_000_000_000 || deniedLoggedAt == 0 {
                    deniedLoggedAt = now
                    logger.notice("denied a client: uid \(peer.uid) pid \(peer.pid) is neither root nor in group \(allowedGroup) (other denials within a second are not logged)")
                }
                refuse(fd, "ERR denied uid \(peer.uid) is neither root nor in the socket's group (gid \(allowedGroup))")
                continue
            }
            guard connections.count < configuration.maxClients else {
                // Once per episode: a connect storm must not turn into a log storm.
                if !refusingBusy { logger.warning("refused clients: \(configuration.maxClients) clients already connected") }
                refusingBusy = true
                refuse(fd, "ERR busy too many clients (at most \(configuration.maxClients)); try again later")
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
            logger.warning("accept: \(e); new connections wait until descriptors are free")
        }
        acceptPausedUntil = now + 100_000_000
    }

    /// One line to a connection about to be closed (best effort: its socket buffer is empty).
    func refuse(_ fd: OwnedDescriptor, _ line: String) {
        var text = line + "\n"
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
            reply = ProtocolError(.tooLong, "request longer than \(configuration.maxLine) bytes; the rest of it up to the next newline is discarded").reply
        case .line(let bytes):
            switch RequestParser.parse(bytes) {
            case .failure(let error): reply = error.reply
            case .success(let request):
                reply = execute(request, now: now)
                boot?.clientCommanded(request)
            }
        }
        if !c.queue(RequestParser.escapingControlCharacters(reply), limit: configuration.maxOutput, now: now) {
            logger.warning("dropped a client (uid \(c.peerUID)) with more than \(configuration.maxOutput) bytes of replies it does not read")
            c.dead = true
        }
    }

    func expireIdle(now: Int64) {
        for c in connections where !c.dead && now - c.lastActivity >= configuration.idleTimeout {
            logger.debug("closed a client idle for \(configuration.idleTimeout / 1_000_000_000) s")
            c.dead = true
        }
    }

    // MARK: Commands

    func execute(_ request: Request, now: Int64) -> String {
        switch request {
        case .ping: return "OK pong"
        case .version: return "OK loaderd \(LoaderDaemonVersion.version) protocol \(LoaderDaemonVersion.protocolVersion)"
        case .list: return "OK " + Catalog.names.joined(separator: " ")
        case .status: return "OK " + statusJSON(now: now)
        case .start(let name, let assignments):
            switch startLoader(name, assignments, now: now) {
            case .success(let reply): return reply
            case .failure(let e): return e.reply
            }
        case .stop(let kind):
            guard var session = state.session else { return "OK stopped" }
            switch kind {
            case .now:
                state.end()
                sessionChanged(now: now)
                return "OK stopped"
            case .exit, .success, .failure:
                if session.stop == nil {
                    session.stop = StopState(at: state.elapsed(now: now), outcome: Outcome(rawValue: kind.rawValue))
                    state.session = session
                    invalidateAll(now: now)
                }
                return "OK stopping"
            }
        case .progress(let value, let force):
            return setProgress(value, force: force, now: now)
        case .message(let text):
            if state.message != text {
                state.message = text
                noteMessageRoom()
                invalidateAll(now: now)
            }
            return "OK"
        case .brightness(let value):
            if state.brightness != value {
                state.brightness = value
                invalidateAll(now: now)
            }
            return "OK brightness \(value)"
        }
    }

    var sceneOptions: SceneOptions {
        var options = SceneOptions()
        options.messageStyle = configuration.messageStyle
        options.font = .automatic
        return options.applying(configuration.screen)
    }

    /// The scene options for one display: on/off LEDs get the monochrome designs.
    func sceneOptions(for display: any Display) -> SceneOptions {
        var options = sceneOptions
        if display.isMonochrome && configuration.screen.monochrome == nil { options.monochrome = true }
        return options
    }

    /// New displays (a reload) get scenes for the session on screen, then everything redraws.
    func rebuildScenes(now: Int64) {
        if let session = state.session {
            for slot in slots where !slot.hasScene {
                slot.scene = makeScene(session.loader, for: slot)
            }
        }
        invalidateAll(now: now)
    }

    /// The scene of `loader` on `slot`'s display; a logo that did not load is logged (once, see
    /// `loggedLogoError`) and the screen draws without it.
    func makeScene(_ loader: AnyLoader, for slot: DisplaySlot) -> Scene {
        var scene = Scene(loader: loader, width: slot.display.canvasWidth, height: slot.display.canvasHeight, options: sceneOptions(for: slot.display))
        let largest = BootScreenLayout.largestMargin(width: slot.display.canvasWidth, height: slot.display.canvasHeight)
        if let margin = scene.options.margin, margin > largest {
            if slot.clampedMargin != margin {
                logger.warning("screen.margin \(margin) leaves no room on \(slot.display.name) (\(slot.display.canvasWidth)x\(slot.display.canvasHeight), the margin is taken from every side): drawing with \(largest)")
            }
            slot.clampedMargin = margin
        } else {
            slot.clampedMargin = nil
        }
        giveKnownFace(to: &scene)
        if let error = scene.logoError {
            if error != loggedLogoError { logger.warning(error) }
            loggedLogoError = error
        } else if scene.logo != nil {
            loggedLogoError = nil
        }
        return scene
    }

    func startLoader(_ name: String, _ assignments: [Assignment], now: Int64) -> Result<String, ProtocolError> {
        guard let type = Catalog.type(named: name) else {
            return .failure(ProtocolError(.unknownLoader, "unknown loader '\(RequestParser.quote(Substring(name)))'; loaders: " + Catalog.names.joined(separator: ", ")))
        }
        let parameters: Parameters
        do throws(LoaderError) {
            parameters = try Catalog.parameters(of: type, assignments: assignments.map { ($0.key, $0.value) })
        } catch {
            return .failure(ProtocolError(.badParameter, error.description))
        }
        if let session = state.session, session.name == type.name, session.parameters.hasSameValues(as: parameters), session.stop == nil {
            return .success("OK running \(type.name)")
        }
        let loader = type.make(parameters)
        state.start(name: type.name, assignments: assignments, parameters: parameters, loader: loader, now: now)
        for slot in slots { slot.scene = makeScene(loader, for: slot) }
        noteMessageRoom()
        sessionChanged(now: now)
        // Routine: boot scripts start loaders all the time (info filled 13.8 MB in 5 min of load).
        logger.debug("started \(type.name)")
        return .success("OK started \(type.name)")
    }

    func setProgress(_ value: Percent, force: Bool, now: Int64) -> String {
        if let current = state.progressTarget, value < current, !force {
            return "OK progress \(current)"
        }
        if state.session == nil {
            // As psplash shows its bar on PROGRESS: something is on screen for boot scripts that
            // only ever send progress.
            _ = startLoader(ProgressBar.name, [], now: now)
        }
        state.setProgress(value, now: now)
        invalidateAll(now: now)
        return "OK progress \(value)"
    }

    func sessionChanged(now: Int64) {
        if state.session == nil {
            // The cleared frame is drawn in this loop turn, not at the next frame time: `status`
            // says idle only once it is on every working display.
            for slot in slots {
                slot.scene = nil
                if slot.lastError == nil { slot.deadline = Swift.min(slot.deadline ?? now, now) }
            }
        }
        invalidateAll(now: now)
        updateStatus()
    }

    func updateStatus() {
        if let error = notifier.status(state.session?.name ?? "idle") { logger.warning("\(error)") }
    }

    func invalidateAll(now: Int64) {
        for slot in slots { slot.invalidate(now: now) }
    }

    // MARK: Frames

    /// Draws every display whose frame is due, then arms the timer for the next one (or disarms
    /// it when nothing animates).
    func drawDueFrames(now: Int64) {
        // The session ends when its exit and outcome are over. (Asked in place: `if let session`
        // would copy the session, and `slot.scene` the whole scene, every frame.)
        if state.session?.stop != nil, state.frozen == nil {
            if slots.first?.scenePhase(state.frameState(now: now)) == .finished {
                logger.debug("\(state.session?.name ?? "") finished")
                state.end()
                sessionChanged(now: now)
            }
        }
        let frame = state.frameState(now: now)
        for slot in slots {
            if slot.waiting { slot.deadline = nil; continue }  // drawn once its device appears
            if let due = slot.deadline, due <= now {
                let recovering = slot.lastError != nil
                draw(slot, frame)
                if slot.lastError != nil {
                    // A failed frame (a full disk, a vanished device) is tried again with back-off,
                    // even when the picture is still: nothing is left stale for good.
                    slot.scheduleRetry(now: now)
                } else {
                    if recovering { slot.restartSchedule(now: now) }
                    if state.session != nil && !isStill(slot, frame) {
                        framesDropped += slot.advance(now: now)
                    } else {
                        slot.deadline = nil
                    }
                }
            }
        }
        // After the frames are out: a font, if a screen's text waits for one (the frame is redrawn).
        if facesWanted { giveFaces(now: now) }
        var earliest: Int64? = nil
        for slot in slots {
            if let d = slot.deadline { earliest = Swift.min(earliest ?? d, d) }
        }
        do { try frameTimer.arm(at: earliest) } catch { logger.error("timerfd_settime: \(error)") }
    }

    func draw(_ slot: DisplaySlot, _ frame: FrameState) {
        do {
            if state.session == nil || !slot.hasScene {
                if !slot.showsBlank {
                    try slot.display.clear()
                    slot.showsBlank = true
                    framesDrawn += 1
                }
            } else {
                if slot.scene!.render(frame) { facesWanted = true }
                try slot.show(brightness: state.brightness)
                slot.showsBlank = false
                framesDrawn += 1
            }
            if slot.lastError != nil {
                logger.notice("\(slot.display.name): drawing again after \(slot.failures) failed \(slot.failures == 1 ? "try" : "tries")")
            }
            slot.lastError = nil
            slot.failures = 0
        } catch {
            // Once per episode at error; a changed reason meanwhile only at debug.
            if slot.lastError == nil {
                logger.error("\(error); trying again after 0.1 s, then less and less often (at least every 3.2 s)")
            } else if slot.lastError != error {
                logger.debug("\(error)")
            }
            slot.lastError = error
            slot.failures += 1
        }
    }

    /// Whether the frame will look the same until a command changes something.
    func isStill(_ slot: DisplaySlot, _ frame: FrameState) -> Bool {
        if state.frozen != nil { return true }
        guard slot.hasScene else { return true }
        guard slot.scenePhase(frame) == .running, slot.scene?.loader.isStill == true else { return false }
        // A styled message shimmers; on an LED-sized canvas a message may scroll or take turns
        // with the loader (StripMessage), so it is drawn at the frame rate there.
        if let message = frame.message, !message.isEmpty {
            if slot.scene?.options.messageStyle != .plain { return false }
            if !BootScreenLayout.isScreen(width: slot.display.canvasWidth, height: slot.display.canvasHeight) { return false }
        }
        if let p = frame.progress, p.from != p.to, frame.elapsed < p.changedAt + ProgressState.smoothing { return false }
        return true
    }
}
