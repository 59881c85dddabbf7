import FixedPoint

/// How a loader ended, when the stop command said.
public enum Outcome: String, Sendable, CaseIterable {
    case success
    case failure
}

/// A progress value and the linear animation towards it: LOADERS.md smooths every progress change
/// over 0.05 s. Kept as (from, to, when) so the displayed value is derived from time, never stepped.
public struct ProgressState: Sendable, Equatable {
    /// Displayed value when the change arrived (0...1).
    public var from: Fixed
    /// Target value (0...1).
    public var to: Fixed
    /// Elapsed time (since the loader started) at which `to` was set.
    public var changedAt: Microseconds

    public static let smoothing: Microseconds = 50_000

    public init(from: Fixed, to: Fixed, changedAt: Microseconds) {
        self.from = from.unitClamped; self.to = to.unitClamped; self.changedAt = changedAt
    }

    /// A progress shown as it is, with no animation (e.g. an offline render at a given progress).
    public init(_ value: Fixed) { self.init(from: value, to: value, changedAt: 0) }

    /// The displayed progress at `t`.
    @inlinable public func value(at t: Microseconds) -> Fixed {
        if t >= changedAt + ProgressState.smoothing || from == to { return to }
        if t <= changedAt { return from }
        return Fixed.lerp(from, to, Fixed.ratio(t - changedAt, ProgressState.smoothing))
    }

    /// The state after a new target arrives at `t`: the animation restarts from what is shown now.
    public func retargeted(to target: Fixed, at t: Microseconds) -> ProgressState {
        ProgressState(from: value(at: t), to: target, changedAt: t)
    }
}

/// When and how the loader was asked to stop.
public struct StopState: Sendable, Equatable {
    /// Elapsed time (since start) of the stop command.
    public var at: Microseconds
    public var outcome: Outcome?
    public init(at: Microseconds, outcome: Outcome?) { self.at = at; self.outcome = outcome }
}

/// Everything a frame depends on besides the loader's parameters. A frame is a pure function of
/// this value: the daemon keeps it, the offline renderer makes it up, and no loader keeps state
/// from one frame to the next.
public struct FrameState: Sendable, Equatable {
    /// Time since `start`.
    public var elapsed: Microseconds
    /// Determinate progress, or nil while indeterminate.
    public var progress: ProgressState?
    /// The message line, if any.
    public var message: String?
    /// Set once `stop` arrived.
    public var stop: StopState?

    public init(elapsed: Microseconds, progress: ProgressState? = nil, message: String? = nil, stop: StopState? = nil) {
        self.elapsed = elapsed; self.progress = progress; self.message = message; self.stop = stop
    }

    /// The displayed progress now (0...1), or nil while indeterminate.
    @inlinable public var displayedProgress: Fixed? { progress?.value(at: elapsed) }
}
