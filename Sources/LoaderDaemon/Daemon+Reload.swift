import Displays
import LinuxSystem
import CompactText

extension Daemon {
    /// SIGHUP: re-read the config file. A bad file is reported and the running settings are kept
    /// whole. A good one takes effect at once for the limits, the log level, the look of the
    /// screen (`[screen]`, `message_style`: the loader on screen is redrawn with it) and the
    /// displays when their list changed (all new displays must open, or the old ones stay and the
    /// rest of the file still applies). What is on screen (loader, progress, message) is the
    /// commands' business and is kept: the file's `[loader]` applies at the next launch, as do
    /// `[boot]` (the front ends' sockets and FIFO are made at start) and the socket's path and
    /// group. The log says what took effect and what waits for the next start.
    public func reload() {
        guard let reloadConfiguration else {
            logger.notice("SIGHUP: no config file; command-line settings kept")
            return
        }
        let new: DaemonConfiguration
        do { new = try reloadConfiguration() } catch {
            logger.error("SIGHUP: \(error); the running settings are kept")
            for other in error.more { logger.error("SIGHUP: \(other)") }
            return
        }
        let old = configuration
        var kept = new
        kept.socketPath = old.socketPath
        kept.socketGroup = old.socketGroup
        var opened: [DisplaySlot]?
        if new.displays != old.displays {
            do throws(DisplaySpecError) {
                opened = try openDisplays(new.displays)
            } catch {
                logger.error("SIGHUP: \(error); the running displays are kept, the rest of the file applies")
                kept.displays = old.displays
            }
        }
        let clients = connections.count + (boot?.plymouth?.connections.count ?? 0)
        kept.maxClients = DescriptorBudget.clientLimit(new, inUse: DescriptorBudget.openNow() - clients, logger: logger)
        // The new settings first: the scenes made below take their look from them.
        configuration = kept
        logger.logLevel = kept.logLevel
        loggedLogoError = nil
        faces.removeAll()

        // The lists said in the log are built as strings: arrays joined cost more code.
        var applied = ""
        if let opened {
            replaceDisplays(with: opened)
            Self.list("the displays", in: &applied)
        }
        // Each comparison once: a settings struct's == is inlined where it is used.
        let screenChanged = kept.screen != old.screen
        let styleChanged = kept.messageStyle != old.messageStyle
        if screenChanged { Self.list("[screen]", in: &applied) }
        if styleChanged { Self.list("message_style", in: &applied) }
        if screenChanged || styleChanged {
            for slot in slots { slot.scene = nil }
        }
        if !applied.isEmpty { rebuildScenes(now: MonotonicClock.now()) }
        if kept.logLevel != old.logLevel { Self.list("log_level", in: &applied) }
        if kept.maxClients != old.maxClients || kept.idleTimeout != old.idleTimeout || kept.maxLine != old.maxLine
            || kept.displayTimeout != old.displayTimeout { Self.list("the limits", in: &applied) }
        logger.notice("SIGHUP: settings reloaded; " + (applied.isEmpty ? "nothing that applies at once changed" : "applied: " + applied))

        var later = ""
        if new.loader != old.loader || new.assignments != old.assignments || new.progress != old.progress || new.message != old.message {
            Self.list("[loader]", in: &later)
        }
        if new.boot != old.boot { Self.list("[boot]", in: &later) }
        if new.socketPath != old.socketPath || new.socketGroup != old.socketGroup { Self.list("the socket's path and group", in: &later) }
        if !later.isEmpty { logger.notice("SIGHUP: " + later + " changed: applied at the next start of loaderd") }
    }

    /// The slot's display cleared, a failure logged: shared by a reload and the shutdown.
    @inline(never)
    func clear(_ slot: DisplaySlot) {
        do { try slot.display.clear() } catch { logger.warning("\(error)") }
    }

    /// A display as the log names it: "name WxH"; one out-of-line copy of the interpolation.
    @inline(never)
    static func sizeText(_ display: any Display) -> String {
        "\(display.name) \(display.canvasWidth)x\(display.canvasHeight)"
    }

    /// The line a display opened at start or by a reload logs.
    @inline(never)
    static func displayLine(_ display: any Display) -> String {
        "display " + sizeText(display) + " at \(display.framesPerSecond) fps"
    }

    /// `item` added to a list of the log's: "a, b, c".
    @inline(never)
    static func list(_ item: String, in list: inout String) {
        if !list.isEmpty { list += ", " }
        list += item
    }

    /// Every display of `specs` opened (or waited for), or none: on an error the ones opened are closed.
    func openDisplays(_ specs: [DisplaySpec]) throws(DisplaySpecError) -> [DisplaySlot] {
        var opened: [DisplaySlot] = []
        do throws(DisplaySpecError) {
            for spec in specs { opened.append(try Self.openOrWait(spec, logger: logger)) }
        } catch {
            for slot in opened { slot.display.close() }
            throw error
        }
        return opened
    }

    /// The running displays cleared and closed, `opened` in their place.
    func replaceDisplays(with opened: [DisplaySlot]) {
        for slot in slots {
            if !slot.waiting { clear(slot) }
            slot.display.close()
        }
        slots = opened
        watchDevices()
        for slot in slots {
            logger.info(Self.displayLine(slot.display))
        }
        watchPasswordQuestions(now: MonotonicClock.now())  // a question still asked: new screens step aside too
    }
}
