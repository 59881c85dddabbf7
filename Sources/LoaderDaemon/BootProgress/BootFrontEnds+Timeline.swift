import Displays
import LinuxSystem
import FixedPoint
import CLinux
import Loaders
import CompactText

extension BootFrontEnds {
    /// Made (a directory) by loaderd-quit.service just before it stops loaderd.service with
    /// SIGTERM: the end of a boot without Plymouth's client, where no `plymouth quit` arrives.
    static let bootFinishedMarker = "/run/loaderd/boot-finished"

    /// Started in the initramfs, where the real root's /var/lib/loaderd is out of reach, and now
    /// in the real root (RootFollower): the previous boot's timeline, read now, guides the rest
    /// of this boot's progress.
    func readTimelineInRealRoot() {
        guard plymouth != nil, !estimator.hasHistory else { return }
        switch BootTimeline.load(path: settings.timelinePath) {
        case .success(let t?):
            estimator.adopt(previous: t)
            logger.info(filled("boot timeline {}, read in the real root: {}", settings.timelinePath, Self.summary(t)))
        case .success(nil):
            break
        case .failure(let e):
            logger.warning(filled("ignoring the boot timeline {}: {}", settings.timelinePath, e.description))
        }
    }

    /// `N units over S s`, as the three log lines about a timeline say it (made once, for size).
    @inline(never)
    static func summary(_ timeline: BootTimeline) -> String {
        filled("{} unit{} over {} s", String(timeline.units.count), timeline.units.count == 1 ? "" : "s", BootTimeline.seconds(timeline.total))
    }

    /// The previous-boot timeline the next boot's progress follows, from the units PID 1 reported.
    func saveTimeline(now: Int64) {
        let timeline = estimator.timeline(endedAt: elapsed(now))
        do {
            try timeline.save(path: settings.timelinePath)
            logger.info(filled("boot timeline: {} saved to {}", Self.summary(timeline), settings.timelinePath))
        } catch {
            logger.warning("boot timeline not saved: " + error.description)
        }
    }

    /// SIGTERM. It ends a boot (and the timeline is saved as at `plymouth quit`) when the boot was
    /// marked finished while this instance ran; otherwise it is a shutdown, or a stop by hand,
    /// or the shutdown splash's instance (started after the marker), whose units are no boot's.
    @inline(never)  // not inlined into Daemon.run (for size)
    func terminated(now: Int64) {
        guard plymouth != nil, bootingUp, !hidden else { return }
        var info = stat()
        guard stat(BootFrontEnds.bootFinishedMarker, &info) == 0 else { return }
        let marked = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        guard marked >= startedAtRealtime else { return }
        logger.info("the boot was marked finished (/run/loaderd/boot-finished)")  // the marker's path (for size)
        saveTimeline(now: now)
    }
}
