import CLinux
import Displays
import LinuxSystem
import Loaders
import Raster
import Transports
import CompactText

/// Stands in for a display that cannot draw now — its device is missing and waited for, or its
/// outputs changed and opening it again failed (`followsOutputs`: the next hotplug event tries
/// again) — so its slot keeps its place. Never drawn (the daemon skips waiting slots), so its
/// 1×1 canvas only keeps the slot's bookkeeping simple; a frame asked of it fails with `reason`.
final class PlaceholderDisplay: Display {
    let name: String
    let reason: String
    let followsOutputs: Bool
    @inline(never)  // two callers (for size)
    init(name: String, reason: String, followsOutputs: Bool = false) {
        self.name = name
        self.reason = reason
        self.followsOutputs = followsOutputs
    }
    @inline(never)  // four callers (for size)
    convenience init(name: String, waitingFor path: String) { self.init(name: name, reason: "waiting for " + path) }
    var canvasWidth: Int { 1 }
    var canvasHeight: Int { 1 }
    var framesPerSecond: Int { 1 }
    func show(_ canvas: Canvas) throws(DisplayError) { throw DisplayError(display: name, message: reason) }
    func clear() throws(DisplayError) { throw DisplayError(display: name, message: reason) }
    func close() {}
    func outputsChanged() -> OutputChange { followsOutputs ? .reopen(reason) : .same }
}

/// Display devices that are missing at start, or vanish and come back: the boot case where
/// efifb's /dev/fb0 is removed when bochs-drm (or another DRM driver) takes over and a new
/// /dev/fb0 appears, or a driver loaded after loaderd starts. The directory holding the device
/// (or the first missing directory on its path) is watched with inotify, so nothing polls: the
/// device is opened when it is created or its permissions change, and drawn at once.
extension Daemon {
    static let watchedEvents: Inotify.Events = [.created, .deleted, .attributesChanged, .movedIn, .movedOut]

    /// The slot for `spec`: its display opened, or waiting when its device node does not exist
    /// (the spec's keys are still checked, so a typo is an error at once).
    static func openOrWait(_ spec: DisplaySpec, logger: Logger) throws(DisplaySpecError) -> DisplaySlot {
        if let search = AutoSearch(spec) { return try openOrWait(spec, searching: search, logger: logger) }
        do {
            return DisplaySlot(display: try DisplayFactory.open(spec), spec: spec)
        } catch {
            guard let path = DisplaySlot.devicePath(spec), !exists(path) else { throw error }
            try DisplayFactory.check(spec)
            let name = filled("{}:{}", spec.type, path)
            let slot = DisplaySlot(display: PlaceholderDisplay(name: name, waitingFor: path), spec: spec)
            slot.waiting = true
            slot.waitingSince = MonotonicClock.now()
            logger.warning(filled("{}: {} does not exist (yet); waiting for it to appear{}", name, path, missingDeviceHint(path)))
            return slot
        }
    }

    /// What usually makes `path` appear, for the waiting and giving-up lines: an spidev node only
    /// exists once SPI is enabled, the most common set-up step missed on a Pi.
    static func missingDeviceHint(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        return name.hasPrefix("spidev") ? filled(" (if SPI is off it never will: {})", SPIDevice.enableHint) : ""
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 || errno != ENOENT }

    /// Watches the directory of each slot's device (or the first missing directory on its path),
    /// then looks once more for the devices still missing: one made between the first look and the
    /// watch would otherwise be seen only at the next event there.
    func watchDevices() {
        for slot in slots where slot.search == nil && slot.devicePath != nil { watchDevice(slot) }
        if slots.contains(where: { $0.search != nil }) { watchDeviceDirectories() }
        let now = MonotonicClock.now()
        for slot in slots where slot.waiting {
            if let search = slot.search {
                searchAgain(slot, search, now: now)
            } else if let path = slot.devicePath, Self.exists(path) {
                reopen(slot, now: now)
            }
        }
    }

    /// The inotify instance, made on first use; nil (logged) when the kernel refuses one.
    func watcher() -> Inotify? {
        if deviceWatcher == nil {
            do { deviceWatcher = try Inotify() } catch {
                logger.error(filled("inotify_init1: {}; displays that are missing or vanish are not waited for", error.text))
                return nil
            }
        }
        return deviceWatcher
    }

    func watchDevice(_ slot: DisplaySlot) {
        guard let path = slot.devicePath, let watcher = watcher() else { return }
        // The deepest directory on the path that exists, and the name in it that leads on.
        var directory = Self.parent(path), name = Self.lastComponent(path)
        while !Self.exists(directory) && directory != "/" {
            name = Self.lastComponent(directory)
            directory = Self.parent(directory)
        }
        do {
            let wd = try watcher.watch(directory: directory, for: Self.watchedEvents)
            slot.watch = (wd, name)
        } catch {
            slot.watch = nil
            logger.warning(filled("{} ({}); a vanished device is not waited for", slot.naming("cannot watch " + directory), error.text))
        }
    }

    /// inotify reported something: slots whose device vanished wait; waiting slots whose device
    /// (or a directory on its path) appeared or changed permissions try to open it.
    func serviceDeviceWatch(now: Int64) {
        guard let watcher = deviceWatcher else { return }
        followRoot()  // before any path is opened: a device the real root's udev loads
        var touched: [(slot: DisplaySlot, events: Inotify.Events)] = []
        var found: [(path: String, events: Inotify.Events)] = []
        var questionsChanged = false
        watchBuffer.withUnsafeMutableBytes { buffer in
            watcher.readEvents(into: buffer) { wd, events, name in
                if wd == passwordWatch?.wd { questionsChanged = true }
                for slot in slots where slot.search == nil && slot.watch?.wd == wd && slot.watch?.name == name {
                    touched.append((slot, events))
                }
                if let path = autoCandidate(wd: wd, name: name) { found.append((path, events)) }
            }
        }
        if questionsChanged { passwordDirectoryChanged(now: now) }
        if !found.isEmpty { serviceAutoSearch(found, now: now) }
        for (slot, events) in touched {
            let isDevice = slot.watch?.name == slot.devicePath.map(Self.lastComponent)
            if !slot.waiting && isDevice && !events.isDisjoint(with: [.deleted, .movedOut]) {
                vanished(slot)
            }
            if slot.waiting && !events.isDisjoint(with: [.created, .movedIn, .attributesChanged]) {
                reopen(slot, now: now)
            }
        }
    }

    /// The device node was removed: close the display (its descriptor points at a device, or a
    /// file, that is gone) and wait for a new one.
    func vanished(_ slot: DisplaySlot) {
        guard let path = slot.devicePath else { return }
        logger.warning(slot.naming(path) + " was removed; waiting for it to come back")
        startWaiting(slot, PlaceholderDisplay(name: slot.display.name, waitingFor: path), now: MonotonicClock.now())
    }

    /// Closes the slot's display and holds its place with `placeholder` until a device opens.
    func startWaiting(_ slot: DisplaySlot, _ placeholder: PlaceholderDisplay, now: Int64) {
        slot.display.close()
        slot.display = placeholder
        slot.waiting = true
        slot.waitingSince = now
        slot.lastError = nil
        slot.failures = 0
        slot.deadline = nil
    }

    /// Something appeared on the way to a waiting slot's device: open it and draw the current
    /// frame at once; still missing, watch further down the path; present but not yet usable
    /// (udev sets the permissions after creating the node), wait for the next event.
    func reopen(_ slot: DisplaySlot, now: Int64) {
        guard let path = slot.devicePath, !slot.steppedAside else { return }
        let display: any Display
        do { display = try DisplayFactory.open(slot.spec) } catch {
            if Self.exists(path) {
                logger.warning(filled("{} appeared but cannot be opened yet: {}", slot.naming(path), error.message))
            }
            watchDevice(slot)
            return
        }
        adopt(display, into: slot, now: now)
        watchDevice(slot)
    }

    /// A waiting slot's device opened: draw the current frame on it at once.
    func adopt(_ display: any Display, into slot: DisplaySlot, now: Int64) {
        install(display, into: slot, now: now)
        logger.notice(filled("display {} appeared; drawing on it", Self.sizeText(display)))
    }

    /// `display` in the slot's place, with a scene for what is on screen, drawn at once: shared
    /// by a device that appeared and a display reopened for its outputs (one copy, for size).
    @inline(never)
    func install(_ display: any Display, into slot: DisplaySlot, now: Int64) {
        slot.display = display
        slot.waiting = false
        slot.waitingSince = nil
        slot.showsBlank = false
        if let session = state.session {
            slot.scene = Scene(loader: session.loader, width: display.canvasWidth, height: display.canvasHeight, options: sceneOptions(for: display))
        }
        slot.deadline = nil
        slot.invalidate(now: now)
    }

    /// Started in the initramfs, and PID 1 has switched to the real root: follow it, so that
    /// /dev/... (and the socket's path) resolve there (RootFollower). Logged once.
    func followRoot() {
        guard let follower = rootFollower else { return }
        switch follower.followIfMoved() {
        case .success(true):
            logger.notice("PID 1 switched to a new root; following it, so device paths resolve there")
            boot?.readTimelineInRealRoot()
        case .success(false): break
        case .failure(let e):
            logger.error(filled("PID 1 switched to a new root; following it failed ({}), so a display that appears from now on cannot be opened", e.text))
            rootFollower = nil
        }
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }
}
