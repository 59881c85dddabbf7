import FixedPoint
import LinuxSystem
import Loaders
import CompactText

/// The end of the splash. Whatever ends it — SIGTERM (how `loaderd-quit.service` and a shutdown
/// stop the daemon), Plymouth's `quit`, psplash's `QUIT` — a person should see the boot complete
/// rather than a bar cut off at 87 %: the bar is drawn at 100 %, the loader's exit animation
/// plays, and the console is given back, all within `Daemon.finishDuration` (0.3 s: the boot
/// issue's limit, so the login prompt is not held back), after which the loop ends and
/// `shutdown()` restores the displays and the console.
extension Daemon {
    /// The longest the completed state and the exit may stay on screen.
    static let finishDuration: Int64 = 300_000_000
    /// How long the 100 % frame stays before the exit animation starts; the exit then has the
    /// rest (a fade cut short at 0.3 s). Two thirds of the time on the completed state: 0.1 s,
    /// as before, was a flash a person could miss, and so did the boot test's screenshots taken
    /// every 0.3 s (the last splash frame they caught showed the bar short of full).
    static let completeHold: Microseconds = 200_000

    /// Starts the finish (once): 100 % at once, then the exit, then the loop ends. With nothing on
    /// screen, or when the splash is to stay (`retain`), the loop ends after this turn's frame.
    func finish(reason: String, retain: Bool = false, now: Int64) {
        retainSplash = retain
        if finishingUntil != nil { return }
        logger.notice(reason + ": finishing")
        guard let session = state.session, state.frozen == nil else {
            running = false
            return
        }
        if session.stop == nil {
            if state.progress != nil || session.loader.kind == .bar {
                state.progressTarget = .hundred
                // Straight to 100 % (no smoothing): this frame may be the last one a person sees.
                state.progress = ProgressState(DaemonState.fixed(.hundred))
            }
            // The exit is scheduled once the 100 % frame is drawn (startFinishClock).
            finishAwaitsFrame = !retain
        }
        // Every display draws the completed state now rather than at its next frame time.
        for slot in slots { slot.deadline = now }
        if retain {
            running = false
        } else {
            // The clock read here, not the caller's turn start: what came before in this turn
            // (saving the boot timeline syncs a file) may have taken longer than the finish. Used
            // when no 100 % frame restarts it (an exit already under way).
            finishingUntil = MonotonicClock.now() + Self.finishDuration
        }
    }

    /// Counts the finish from the moment its 100 % frame has been handed to the displays, not from
    /// the request: drawing it (a large screen under emulation) and what came before it in the
    /// same turn (saving the boot timeline, which syncs a file) could otherwise use up the hold,
    /// and a person — or the boot test's screenshots — never saw the bar complete.
    func startFinishClock(now: Int64) {
        finishAwaitsFrame = false
        guard let session = state.session, session.stop == nil else { return }
        session.stop = StopState(at: state.elapsed(now: now) + Self.completeHold, outcome: nil)
        finishingUntil = now + Self.finishDuration
        // The 100 % frame was still (no frame was scheduled after it); the exit now animates.
        invalidateAll(now: now)
        do { try frameTimer.arm(at: now) } catch { logger.error("timerfd_settime: " + error.text) }
    }

    /// Ends the loop once the finish has had its time.
    func endFinishIfDue(now: Int64) {
        if let until = finishingUntil, now >= until { running = false }
    }
}
