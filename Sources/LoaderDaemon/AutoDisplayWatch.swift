import Displays
import LinuxSystem
import Raster
import CompactText

/// What an `auto` display searches for: any display device, or (`drm:device=auto`) a DRM card.
enum AutoSearch: Equatable {
    case any
    case drmOnly

    /// nil for a display that names its device (or has none).
    init?(_ spec: DisplaySpec) {
        // The type by its place in `DisplayFactory.types`, not compared by name (for size).
        switch DisplayFactory.typeIndex(spec.type) {
        case DisplayFactory.autoIndex?: self = .any
        case DisplayFactory.drmIndex?:
            let device = DisplaySlot.deviceOption(spec)
            guard device == nil || device == "auto" else { return nil }
            self = .drmOnly
        default: return nil
        }
    }

    var name: String { self == .any ? "auto" : "drm:auto" }
    /// What the wait is for, as the log says it. Out of line: its two users each had a copy (for size).
    @inline(never)
    var looksFor: String {
        let cards = AutoDisplay.deviceDirectory + "/dri/card*"
        return self == .any ? filled("{} or {}/fb*", cards, AutoDisplay.deviceDirectory) : cards
    }
    func find() -> AutoDisplay.Choice { AutoDisplay.find(framebuffers: self == .any) }
}

extension AutoDisplay.Choice {
    var path: String? {
        switch self {
        case .drm(let path), .framebuffer(let path): return path
        case .none: return nil
        }
    }
}

/// `auto` displays that find nothing at start, or lose the device they found. The boot cases: a
/// splash started in the initramfs before the DRM driver has loaded; and UEFI, where the display
/// first opened is the firmware's (simpledrm's card0, efifb's fb0), removed when the real driver
/// takes over and followed by a new card or fb0. /dev (for fb* and dri/) and /dev/dri (card*) are
/// watched with inotify, and the search runs again on each new node there, so nothing polls and
/// the new device is drawn on as soon as the kernel makes its node.
extension Daemon {
    static func openOrWait(_ spec: DisplaySpec, searching search: AutoSearch, logger: Logger) throws(DisplaySpecError) -> DisplaySlot {
        try DisplayFactory.check(spec)  // a typo or a bad value is an error now, not when a device appears
        let choice = search.find()
        guard let path = choice.path else {
            let looksFor = search.looksFor
            let slot = DisplaySlot(display: PlaceholderDisplay(name: search.name, waitingFor: looksFor), spec: spec)
            slot.waiting = true
            slot.waitingSince = MonotonicClock.now()
            if case .none(let why) = choice { logger.warning(filled("{}: {}; waiting for {} to appear", search.name, why, looksFor)) }
            return slot
        }
        let display: any Display
        do { display = try AutoDisplay.open(spec, at: choice) } catch { throw error.asSpecError(spec) }
        let slot = DisplaySlot(display: display, spec: spec)
        slot.devicePath = path
        return slot
    }

    /// Watches /dev and, once it exists, /dev/dri (a driver loaded later makes it).
    func watchDeviceDirectories() {
        guard let watcher = watcher() else { return }
        let dev = AutoDisplay.deviceDirectory, dri = dev + "/dri"
        do {
            if devWatch == nil { devWatch = try watcher.watch(directory: dev, for: Self.watchedEvents) }
            if driWatch == nil && Self.exists(dri) { driWatch = try watcher.watch(directory: dri, for: Self.watchedEvents) }
        } catch {
            logger.warning(filled("auto: cannot watch {} ({}); a display device that appears later is not seen", dev, error.text))
        }
    }

    /// The path of a node an event names, when it can change what `auto` finds.
    func autoCandidate(wd: Int32, name: String) -> String? {
        let dev = AutoDisplay.deviceDirectory
        if wd == devWatch && AutoDisplay.concerns(name: name, inDRI: false) { return filled("{}/{}", dev, name) }
        if wd == driWatch && AutoDisplay.concerns(name: name, inDRI: true) { return filled("{}/dri/{}", dev, name) }
        return nil
    }

    /// Nodes appeared or went in /dev or /dev/dri: an `auto` display whose device went waits and
    /// searches again (another may be there already); a waiting one searches on each new node.
    func serviceAutoSearch(_ events: [(path: String, events: Inotify.Events)], now: Int64) {
        let dri = AutoDisplay.deviceDirectory + "/dri"
        if events.contains(where: { $0.path == dri && !$0.events.isDisjoint(with: [.deleted, .movedOut]) }) { driWatch = nil }
        watchDeviceDirectories()  // before searching: a card made just after dri/ is then seen either way
        let gone: Inotify.Events = [.deleted, .movedOut]
        let new: Inotify.Events = [.created, .movedIn, .attributesChanged]
        for slot in slots {
            guard let search = slot.search else { continue }
            if !slot.waiting, let path = slot.devicePath,
               events.contains(where: { ($0.path == path || path.hasPrefix($0.path + "/")) && !$0.events.isDisjoint(with: gone) }) {
                logger.warning(slot.naming(path) + " was removed; searching again")
                slot.devicePath = nil
                startWaiting(slot, PlaceholderDisplay(name: search.name, waitingFor: search.looksFor), now: now)
                searchAgain(slot, search, now: now)
            } else if slot.waiting && events.contains(where: { !$0.events.isDisjoint(with: new) }) {
                searchAgain(slot, search, now: now)
            }
        }
    }

    /// One search for a waiting `auto` slot: open what it finds and draw on it at once.
    func searchAgain(_ slot: DisplaySlot, _ search: AutoSearch, now: Int64) {
        guard !slot.steppedAside else { return }
        let choice = search.find()
        guard let path = choice.path else {
            if case .none(let why) = choice { logger.debug(filled("{}: still waiting: {}", search.name, why)) }
            return
        }
        let display: any Display
        do { display = try AutoDisplay.open(slot.spec, at: choice) } catch {
            logger.warning(filled("{}: {} appeared but cannot be opened yet: {}", search.name, path, error.description))
            return
        }
        slot.devicePath = path
        adopt(display, into: slot, now: now)
    }
}
