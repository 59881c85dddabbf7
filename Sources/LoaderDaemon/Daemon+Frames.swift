import Displays
import FixedPoint
import CLinux
import Loaders
import Raster
import LinuxSystem
import CompactText

extension Daemon {
    // MARK: Frames

    /// Draws every display whose frame is due, then arms the timer for the next one (or disarms
    /// it when nothing animates).
    func drawDueFrames(now: Int64) {
        // The session ends when its exit and outcome are over. (Asked in place: `if let session`
        // would copy the session, and `slot.scene` the whole scene, every frame.)
        if state.session?.stop != nil, state.frozen == nil {
            if slots.first?.scenePhase(state.frameState(now: now)) == .finished {
                logger.debug(filled("{} finished", state.session?.name ?? ""))
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
        do { try frameTimer.arm(at: earliest) } catch { logger.error(filled("timerfd_settime: {}", error.text)) }
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
                logger.notice(filled("{}: drawing again after {} failed {}", slot.display.name, String(slot.failures), slot.failures == 1 ? "try" : "tries"))
            }
            slot.lastError = nil
            slot.failures = 0
        } catch {
            // Once per episode at error; a changed reason meanwhile only at debug.
            if slot.lastError == nil {
                logger.error(filled("{}; trying again after 0.1 s, then less and less often (at least every 3.2 s)", error.description))
            } else if slot.lastError != error {
                logger.debug(error.description)
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
