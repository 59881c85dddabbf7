import FixedPoint
import Loaders

/// The loader being shown: what `start` made, when, and whether it was asked to stop.
struct Session {
    let name: String
    let assignments: [Assignment]
    /// The values `assignments` gave, with the defaults: what "the same parameters" compares.
    let parameters: Parameters
    let loader: AnyLoader
    /// CLOCK_MONOTONIC nanoseconds of `start`: elapsed time is derived from it, never accumulated.
    let startedAt: Int64
    var stop: StopState?
}

/// What the commands change: the session, the progress, the message, the brightness.
struct DaemonState {
    var session: Session?
    /// The value `progress` last set (what `status` and the monotonic check use).
    var progressTarget: Percent?
    /// The displayed progress and its animation, in the session's time.
    var progress: ProgressState?
    var message: String?
    var brightness = 100
    /// Test mode: the elapsed time of every frame.
    let frozen: Microseconds?

    init(frozen: Microseconds?) { self.frozen = frozen }

    func elapsed(now: Int64) -> Microseconds {
        if let frozen { return frozen }
        guard let startedAt = session?.startedAt else { return 0 }  // not the whole session copied
        return Swift.max(0, (now - startedAt) / 1000)
    }

    /// Inlined into the daemon, which asks for it every frame: called, it took a copy of the
    /// whole state out of the daemon object first.
    @inline(__always)
    func frameState(now: Int64) -> FrameState {
        FrameState(elapsed: elapsed(now: now), progress: progress, message: message, stop: session?.stop)
    }

    static func fixed(_ p: Percent) -> Fixed { Fixed.ratio(Int64(p.thousandths), 100_000) }

    /// Sets the progress (already checked for monotony), animated from what is shown now.
    mutating func setProgress(_ value: Percent, now: Int64) {
        progressTarget = value
        let target = Self.fixed(value)
        if frozen != nil {
            progress = ProgressState(target)  // a frozen clock never gets through the smoothing
        } else {
            let t = elapsed(now: now)
            progress = progress?.retargeted(to: target, at: t) ?? ProgressState(from: .zero, to: target, changedAt: t)
        }
    }

    /// A new session starts at `now`; a progress already set carries over, settled.
    mutating func start(name: String, assignments: [Assignment], parameters: Parameters, loader: AnyLoader, now: Int64) {
        session = Session(name: name, assignments: assignments, parameters: parameters, loader: loader, startedAt: now, stop: nil)
        if let progressTarget { progress = ProgressState(Self.fixed(progressTarget)) }
    }

    /// The session is over: back to idle. The message stays (it belongs to the boot, not the loader).
    mutating func end() {
        session = nil
        progress = nil
        progressTarget = nil
    }
}
