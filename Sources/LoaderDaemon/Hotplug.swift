import Displays
import LinuxSystem
import Loaders
import Raster
import CompactText

/// Monitors plugged in, unplugged or swapped while the splash is up: the kernel's DRM hotplug
/// events (a netlink socket, UeventMonitor) are read in the loop, and each display that has
/// outputs looks at them again — so a monitor with another preferred mode gets the splash in its
/// own mode, and a second monitor plugged in is mirrored, without any polling.
extension Daemon {
    /// Listens for hotplug events while a display follows its outputs (made on first need; a
    /// kernel or sandbox without netlink leaves displays as they are, with one warning).
    func hotplugDescriptor() -> Int32 {
        if hotplugMonitor == nil && !hotplugUnavailable && slots.contains(where: { $0.display.followsOutputs }) {
            do { hotplugMonitor = try UeventMonitor() } catch {
                hotplugUnavailable = true
                logger.warning(filled("cannot listen for display hotplug events (netlink: {}); a monitor swapped while the splash is up keeps the old mode", error.text))
            }
        }
        return hotplugMonitor?.fd ?? -1
    }

    func serviceHotplug(now: Int64) {
        guard let monitor = hotplugMonitor else { return }
        let hotplug = watchBuffer.withUnsafeMutableBytes { monitor.drainDRMHotplug(into: $0) }
        guard hotplug else { return }
        for slot in slots where slot.display.followsOutputs {
            switch slot.display.outputsChanged() {
            case .same:
                break
            case .followed(let what):
                logger.notice(slot.naming("outputs changed; ") + what)
                slot.showsBlank = false
                slot.invalidate(now: now)
            case .reopen(let why):
                reopenForOutputs(slot, why: why, now: now)
            }
        }
    }

    /// Opens the slot's display again from its spec (the mode is chosen anew) and draws the
    /// current frame on it at once.
    func reopenForOutputs(_ slot: DisplaySlot, why: String, now: Int64) {
        let name = slot.display.name
        let about = filled("{}: {}", name, why)  // both lines begin so; joined once (for size)
        slot.display.close()
        let display: any Display
        do { display = try DisplayFactory.open(slot.spec) } catch {
            logger.warning(filled("{}; opening it again failed ({}); trying again at the next hotplug event", about, error.message))
            slot.display = PlaceholderDisplay(name: name, reason: why, followsOutputs: true)
            slot.waiting = true
            slot.waitingSince = now  // display_timeout applies as to any display that is waited for
            slot.deadline = nil
            return
        }
        logger.notice(filled("{}; opened again: {}", about, Self.sizeText(display)))
        slot.lastError = nil
        slot.failures = 0
        install(display, into: slot, now: now)
    }
}
