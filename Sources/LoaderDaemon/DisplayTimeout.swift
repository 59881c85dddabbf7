import CLinux
import Displays
import LinuxSystem
import CompactText

/// `display_timeout` (`--display-timeout`): how long a missing display is waited for. A display
/// still missing then is given up, and the others go on; with none left, loaderd exits with
/// `noDisplayStatus` (loaderd.service does not restart it for that status: a restart would only
/// wait again for a device that did not come).
extension Daemon {
    /// The exit status when every display was given up: distinct from 1 (could not start or run),
    /// so a service manager or a script can tell "no display on this machine" apart; and from
    /// loaderctl's 3 (daemon unreachable): one table of statuses serves both programs.
    public static let noDisplayStatus: Int32 = 4

    /// When the first waiting display is given up (CLOCK_MONOTONIC ns); nil: never.
    func earliestWaitExpiry() -> Int64? {
        let timeout = configuration.displayTimeout
        guard timeout > 0 else { return nil }
        var earliest: Int64? = nil
        for slot in slots where slot.waiting {
            if let since = slot.waitingSince { earliest = Swift.min(earliest ?? since + timeout, since + timeout) }
        }
        return earliest
    }

    /// Gives up the displays that waited `display_timeout`; with none left, ends the loop.
    func giveUpWaits(now: Int64) {
        guard let expiry = earliestWaitExpiry(), expiry <= now else { return }
        let timeout = configuration.displayTimeout
        let seconds = DisplayTimeout.text(nanoseconds: timeout)
        var left: [DisplaySlot] = []
        for slot in slots {
            guard slot.waiting, let since = slot.waitingSince, since + timeout <= now else {
                left.append(slot)
                continue
            }
            let device = slot.search?.looksFor ?? slot.devicePath ?? slot.display.name
            logger.error(filled("{} did not appear within {} s (display_timeout); giving up on this display{}", slot.naming(device), seconds, Self.missingDeviceHint(device)))
            slot.display.close()
        }
        slots = left
        if slots.isEmpty {
            // Self.noDisplayStatus written out (no number to format, for size).
            logger.error(filled("no display left: none appeared within display_timeout ({} s); exiting with status 4", seconds))
            exitStatus = Self.noDisplayStatus
            running = false
        }
    }
}

/// The display timeout's one rule, for the config's `display_timeout` and `--display-timeout`
/// alike: 0 means wait forever; otherwise from 0.1 s to a day.
public enum DisplayTimeout {
    /// 60 s, not Plymouth's 8: a splash started in the initramfs may wait for a driver that only
    /// the real root's udev loads, after the root is mounted (under emulation, /dev/fb0 came 6–8 s
    /// after the kernel started even with the driver in the initramfs); waiting costs one inotify
    /// descriptor and no polling. Yet a machine with no display at all still has loaderd give up,
    /// and say why, within its boot rather than never.
    public static let defaultSeconds = 60.0
    public static let minimumSeconds = 0.1
    public static let maximumSeconds = 86_400.0
    public static let accepted = "must be 0 (wait forever) or from 0.1 to 86400 seconds"

    /// nil when `seconds` is accepted; otherwise what is accepted and what was given.
    public static func problem(seconds: Double) -> String? {
        if seconds == 0 || (seconds.isFinite && seconds >= minimumSeconds && seconds <= maximumSeconds) { return nil }
        return filled("{}, got {}", accepted, seconds.decimalText)
    }

    /// Nanoseconds for the daemon; 0 stays 0 (forever).
    public static func nanoseconds(seconds: Double) -> Int64 { Int64((seconds * 1_000_000_000).rounded()) }

    /// "60" or "2.5", for the log.
    static func text(nanoseconds: Int64) -> String {
        let tenths = (nanoseconds + 50_000_000) / 100_000_000
        let whole = String(tenths / 10)
        return tenths % 10 == 0 ? whole : filled("{}.{}", whole, String(tenths % 10))
    }
}
