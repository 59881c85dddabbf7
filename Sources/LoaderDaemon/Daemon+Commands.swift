import Displays
import FixedPoint
import CLinux
import Loaders
import Raster
import LinuxSystem
import CompactText

extension Daemon {
    // MARK: Commands

    func execute(_ request: Request, now: Int64) -> String {
        switch request {
        case .ping: return "OK pong"
        // The replies made with `filled` or `+`, not interpolated: smaller.
        case .version: return filled("OK loaderd {} protocol {}", LoaderDaemonVersion.version, String(LoaderDaemonVersion.protocolVersion))
        case .list: return "OK " + Catalog.names.joined(separator: " ")
        case .status: return "OK " + statusJSON(now: now)
        case .start(let name, let assignments):
            switch startLoader(name, assignments, now: now) {
            case .success(let reply): return reply
            case .failure(let e): return e.reply
            }
        case .stop(let kind):
            // The session is changed where it is, not copied out and back (smaller).
            guard state.session != nil else { return "OK stopped" }
            switch kind {
            case .now:
                state.end()
                sessionChanged(now: now)
                return "OK stopped"
            case .exit, .success, .failure:
                if state.session?.stop == nil {
                    // Not `Outcome(rawValue: kind.rawValue)`: a comparison of strings, for a choice of three.
                    let outcome: Outcome? = kind == .success ? .success : kind == .failure ? .failure : nil
                    let stop = StopState(at: state.elapsed(now: now), outcome: outcome)
                    state.session?.stop = stop
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
            return "OK brightness " + String(value)
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
                logger.warning(filled("screen.margin {} leaves no room on {} ({}, the margin is taken from every side): drawing with {}", String(margin), slot.display.name, filled("{}x{}", String(slot.display.canvasWidth), String(slot.display.canvasHeight)), String(largest)))
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
            return .failure(RequestParser.refusal(.unknownLoader, "unknown loader ", Substring(name), "; loaders: ", Catalog.names.joined(separator: ", ")))
        }
        let parameters: Parameters
        do throws(LoaderError) {
            parameters = try Catalog.parameters(of: type, assignments: assignments.map { ($0.key, $0.value) })
        } catch {
            return .failure(ProtocolError(.badParameter, error.description))
        }
        // The replies and the log line joined with `+`, not interpolated: smaller.
        let loaderName = type.name
        if let session = state.session, session.name == loaderName, session.parameters.hasSameValues(as: parameters), session.stop == nil {
            return .success("OK running " + loaderName)
        }
        let loader = type.make(parameters)
        state.start(name: loaderName, assignments: assignments, parameters: parameters, loader: loader, now: now)
        for slot in slots { slot.scene = makeScene(loader, for: slot) }
        noteMessageRoom()
        sessionChanged(now: now)
        // Routine: boot scripts start loaders all the time (info filled 13.8 MB in 5 min of load).
        logger.debug("started " + loaderName)
        return .success("OK started " + loaderName)
    }

    func setProgress(_ value: Percent, force: Bool, now: Int64) -> String {
        // The reply made once, for the value kept or the one set (for size).
        var shown = value
        if let current = state.progressTarget, value < current, !force {
            shown = current
        } else {
            if state.session == nil {
                // As psplash shows its bar on PROGRESS: something is on screen for boot scripts that
                // only ever send progress.
                _ = startLoader(ProgressBar.name, [], now: now)
            }
            state.setProgress(value, now: now)
            invalidateAll(now: now)
        }
        return "OK progress " + shown.description
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
        if let error = notifier.status(state.session?.name ?? "idle") { logger.warning(error.description) }
    }

    func invalidateAll(now: Int64) {
        for slot in slots { slot.invalidate(now: now) }
    }
}
