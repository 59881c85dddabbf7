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

    public internal(set) var framesDrawn: Int64 = 0
    public internal(set) var framesDropped: Int64 = 0

    /// Opens the displays, the signalfd, the socket (or takes systemd's) and the timers.
    /// Errors here are for a person to fix: the caller prints them and exits non-zero.
    // `__shared`: the settings and the logger are borrowed, so no throw has them to destroy; they are copied
    // once where stored (for size).
    public init(configuration: __shared DaemonConfiguration, logger: __shared Logger) throws(SystemError) {
        // The settings and the logger are stored late: each throw before that point would
        // otherwise destroy them (for size). Until then the parameters are used.
        guard !configuration.displays.isEmpty else { throw SystemError("no display given", hint: "--display " + DisplayFactory.typeList) }
        loaderd_ignore_signal(SIGPIPE)
        do { signals = try SignalFD([SIGTERM, SIGINT, SIGHUP, SIGCHLD] + IgnoredSignals.all) } catch { throw SystemError("signalfd", error) }

        var group: gid_t? = nil
        if let name = configuration.socketGroup {
            guard let gid = Self.groupID(named: name) else {
                throw SystemError(filled("no group '{}' on this machine for the control socket (--socket-group, or [daemon] socket_group in the config)", name), hint: "getent group lists them")
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
            logger.info("listening on " + configuration.socketPath)
        }
        if rootFollower == nil, let obstacle = RootFollower.obstacle() {
            logger.warning(filled("started from the initramfs, but PID 1 cannot be followed into the real root ({}): a display only the real root makes is not found, and the real root's files are not reached", obstacle))
        }
        var slots: [DisplaySlot] = []
        // A display whose device cannot be used (not the device its type drives, busy, no
        // permission) is given up and the others go on: a wrong second display must not take
        // the boot splash off the screen. A wrong value in a spec is the configuration's error and
        // ends the start, as does having no display at all.
        var unusable: [String] = []
        // The error that ends the start, thrown at one place below (each throw of a class's
        // initializer is code of its own).
        var fatal: String? = nil
        for spec in configuration.displays {
            do throws(DisplaySpecError) {
                let slot = try Self.openOrWait(spec, logger: logger)
                slots.append(slot)
                let display = slot.display
                if !slot.waiting {
                    logger.info(Self.displayLine(display))
                }
            } catch {
                let problem = error.description
                var wrongValue = false
                do throws(DisplaySpecError) { try DisplayFactory.check(spec) } catch { wrongValue = true }
                if wrongValue || configuration.displays.count == 1 {
                    fatal = problem
                    break
                }
                unusable.append(problem)
            }
        }
        if fatal == nil && slots.isEmpty && !unusable.isEmpty {
            fatal = unusable.joined(separator: "; ") + " (no display could be opened)"
        }
        if let fatal {
            for slot in slots { slot.display.close() }  // none when no display could be opened
            listener.removeFile()
            throw SystemError(fatal)
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
        self.configuration = configuration
        self.logger = logger
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
            case .failure(let e): logger.error("--loader: " + e.message)
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
        tellSystemd("READY=1")
        updateStatus()
        logger.info("ready")

        while running {
            rebuildPollSet()
            let timeout = pollTimeout(now: MonotonicClock.now())
            do {
                _ = try Poll.wait(&pollSet, timeoutMilliseconds: timeout)
            } catch {
                logger.critical("poll failed: " + error.text)
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
                tellSystemd("WATCHDOG=1")
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
        addToPollSet(signals.fd, Poll.readable)
        addToPollSet(frameTimer.fd, Poll.readable)
        addToPollSet(watchdogTimer?.fd ?? -1, Poll.readable)
        let accepting = MonotonicClock.now() >= acceptPausedUntil
        addToPollSet(listener.fd.rawValue, accepting ? Poll.readable : 0)
        for c in connections {
            var events: Int16 = 0
            if !c.readClosed { events |= Poll.readable }
            if c.pendingOutput > 0 { events |= Poll.writable }
            addToPollSet(c.fd.rawValue, events)
        }
        watchIndex = pollSet.count
        addToPollSet(deviceWatcher?.fd ?? -1, Poll.readable)
        addToPollSet(hotplugDescriptor(), Poll.readable)
        boot?.appendPollFDs(&pollSet, accepting: accepting)
    }

    /// A state said to systemd (sd_notify), a failure ignored: one out-of-line copy of the send
    /// rather than one at each of its three places (for size).
    @inline(never)
    func tellSystemd(_ text: String) {
        _ = notifier.notify(text)
    }

    /// One descriptor added to `pollSet`: each append a call, not the array's growth code in place (for size).
    @inline(never)
    func addToPollSet(_ fd: Int32, _ events: Int16) {
        pollSet.append(pollfd(fd: fd, events: events, revents: 0))
    }

    /// Only idle clients need a timeout: frames come from the timerfd. No clients, no timeout.
    func pollTimeout(now: Int64) -> Int32 {
        // `Int64.max` for "nothing due", not an optional, so each candidate is one `min` (for size).
        var due = acceptPausedUntil > now ? acceptPausedUntil - now : Int64.max
        if let until = finishingUntil { due = Swift.min(due, until - now) }
        if let expiry = earliestWaitExpiry() { due = Swift.min(due, expiry - now) }
        // The oldest activity found in a loop, not a lazy map's minimum (for size).
        for c in connections {
            due = Swift.min(due, c.lastActivity + configuration.idleTimeout - now)
        }
        if due == Int64.max { return -1 }
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
                logger.notice(filled("signal {} ignored (only SIGTERM, SIGINT and SIGHUP mean something to loaderd)", IgnoredSignals.name(signal)))
            }
        }
    }

    func shutdown() {
        tellSystemd("STOPPING=1")
        connections.removeAll()
        boot?.close()
        for slot in slots {
            if !retainSplash && !slot.waiting { clear(slot) }
            slot.display.close(retainingFrame: retainSplash)
        }
        followRoot()  // the socket's path is the real root's once PID 1 is there
        listener.removeFile()
        logger.info("stopped")
    }
}
