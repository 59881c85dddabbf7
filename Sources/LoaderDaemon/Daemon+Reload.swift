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
    @inline(never)  // not inlined into Daemon.run (for size)
    public func reload() {
        guard let reloadConfiguration else {
            logger.notice("SIGHUP: no config file; command-line settings kept")
            return
        }
        // The file's settings, changed below into the ones kept. Each is compared with the running
        // settings before they are replaced, so no copy of those is made (a copy retains and
        // releases every field: for size).
        var kept: DaemonConfiguration
        do { kept = try reloadConfiguration() } catch {
            logger.error(filled("SIGHUP: {}; the running settings are kept", error.description))
            for other in error.more { logger.error(filled("SIGHUP: {}", other.description)) }
            return
        }
        // The lists said in the log are built as strings: arrays joined cost more code.
        var later = ""
        if kept.loader != configuration.loader || Self.differ(&kept.assignments, &configuration.assignments)
            || kept.progress != configuration.progress || kept.message != configuration.message {
            Self.list("[loader]", in: &later)
        }
        if Self.differ(&kept.boot, &configuration.boot) { Self.list("[boot]", in: &later) }
        if kept.socketPath != configuration.socketPath || kept.socketGroup != configuration.socketGroup { Self.list("the socket's path and group", in: &later) }
        kept.socketPath = configuration.socketPath
        kept.socketGroup = configuration.socketGroup
        var opened: [DisplaySlot]?
        var displaysKept = false
        if Self.differ(&kept.displays, &configuration.displays) {
            do throws(DisplaySpecError) {
                opened = try openDisplays(kept.displays)
            } catch {
                logger.error(filled("SIGHUP: {}; the running displays are kept, the rest of the file applies", error.description))
                displaysKept = true
            }
        }
        let clients = connections.count + (boot?.plymouth?.connections.count ?? 0)
        // The file's displays count here even when they did not open, as they always have.
        kept.maxClients = DescriptorBudget.clientLimit(kept, inUse: DescriptorBudget.openNow() - clients, logger: logger)
        if displaysKept { kept.displays = configuration.displays }
        // Each comparison once: a settings struct's == is inlined where it is used.
        let screenChanged = Self.differ(&kept.screen, &configuration.screen)
        let styleChanged = kept.messageStyle != configuration.messageStyle
        let levelChanged = kept.logLevel != configuration.logLevel
        let limitsChanged = kept.maxClients != configuration.maxClients || kept.idleTimeout != configuration.idleTimeout
            || kept.maxLine != configuration.maxLine || kept.displayTimeout != configuration.displayTimeout
        // The new settings first: the scenes made below take their look from them.
        configuration = kept
        logger.logLevel = configuration.logLevel
        loggedLogoError = nil
        faces.removeAll()

        var applied = ""
        if let opened {
            replaceDisplays(with: opened)
            Self.list("the displays", in: &applied)
        }
        if screenChanged { Self.list("[screen]", in: &applied) }
        if styleChanged { Self.list("message_style", in: &applied) }
        if screenChanged || styleChanged {
            for slot in slots { slot.scene = nil }
        }
        if !applied.isEmpty { rebuildScenes(now: MonotonicClock.now()) }
        if levelChanged { Self.list("log_level", in: &applied) }
        if limitsChanged { Self.list("the limits", in: &applied) }
        logger.notice("SIGHUP: settings reloaded; " + (applied.isEmpty ? "nothing that applies at once changed" : "applied: " + applied))
        if !later.isEmpty { logger.notice(filled("SIGHUP: {} changed: applied at the next start of loaderd", later)) }
    }

    /// Whether two settings differ, both read where they are: the running settings' part passed by
    /// value would be copied first, and destroyed after (for size).
    @inline(__always)
    static func differ<Value: Equatable>(_ a: inout Value, _ b: inout Value) -> Bool { a != b }

    /// The slot's display cleared, a failure logged: shared by a reload and the shutdown.
    @inline(never)
    func clear(_ slot: DisplaySlot) {
        do { try slot.display.clear() } catch { logger.warning(error.description) }
    }

    /// A display as the log names it: "name WxH"; one out-of-line copy of the call.
    @inline(never)
    static func sizeText(_ display: any Display) -> String {
        filled("{} {}x{}", display.name, String(display.canvasWidth), String(display.canvasHeight))
    }

    /// The line a display opened at start or by a reload logs.
    @inline(never)
    static func displayLine(_ display: any Display) -> String {
        filled("display {} at {} fps", sizeText(display), String(display.framesPerSecond))
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
