// Mapping derived time to animation progress.
//
// Time is *derived*: every function here is a pure function of t, the microseconds since the
// loader started, computed with integer division and remainder. Nothing is accumulated from
// frame to frame, so a late, skipped or repeated frame changes nothing that follows, and an
// animation that has run for a week is as exact as one that has run for a second.
//
// Error: `Repeating.fraction(at:)` is `Fixed.ratio` of exact integers, so it is the exact
// fraction rounded to the nearest 1/65536 (error ≤ 1/131072). `TimingCurve` adds the error of
// its curve (see `CubicBezier`).

/// A repeating animation's timeline: start delay, then for ever cycles of a forward leg
/// (0 → 1 over `duration`), optionally a reverse leg (1 → 0 over `duration`), then `repeatDelay`.
///
/// During `delay` (t < delay) the fraction is 0: the animation has not started (CSS
/// `animation-fill-mode: none`/`backwards` show the start value; that is what a loader wants).
///
/// During `repeatDelay` the fraction holds; which value is a choice, `hold`:
/// - `.end` (default): the value the last leg ended on: 1 for a one-way animation, 0 for an
///   auto-reversing one, as an animation that has finished holds its final value (CSS
///   `animation-fill-mode: forwards`, Core Animation `fillMode = .forwards`) until the next
///   cycle restarts it. Neither CSS nor Core Animation has a repeat delay of its own; this is
///   the reading of "a pause after each cycle" that keeps the value continuous at the pause.
/// - `.start`: 0, the value the next cycle starts from. The shimmer loader's article does this
///   (phase = c / duration while c < duration, else 0), so the band waits off-screen at its
///   starting edge.
public struct Repeating: Sendable, Hashable {
    public enum Hold: Sendable, Hashable {
        /// Hold the value the last leg ended on (1 one-way, 0 auto-reversing).
        case end
        /// Hold 0, the value the next cycle starts from.
        case start
    }

    /// Length of one leg (forward, or reverse) in microseconds. Clamped to 0...2⁴⁰ (12 days).
    public let duration: Microseconds
    public let autoreverses: Bool
    /// Time before the first cycle starts. May be negative: the animation starts part-way
    /// through (as in CSS). Clamped to ±2⁴⁰.
    public let delay: Microseconds
    /// Pause after each cycle, before the next. Clamped to 0...2⁴⁰.
    public let repeatDelay: Microseconds
    public let hold: Hold

    public init(duration: Microseconds, autoreverses: Bool = false, delay: Microseconds = 0,
                repeatDelay: Microseconds = 0, hold: Hold = .end) {
        let limit: Microseconds = 1 << 40
        self.duration = duration.clamped(0, limit)
        self.autoreverses = autoreverses
        self.delay = delay.clamped(-limit, limit)
        self.repeatDelay = repeatDelay.clamped(0, limit)
        self.hold = hold
    }

    /// Length of one whole cycle: the leg(s) and the repeat delay.
    @inlinable public var cycleDuration: Microseconds { (autoreverses ? 2 * duration : duration) + repeatDelay }

    /// The iteration index at t: 0 during the first cycle, 1 during the second, and so on;
    /// −1 before `delay` (not started).
    @inlinable public func cycle(at t: Microseconds) -> Int64 {
        let elapsed = t.subtractingClamped(delay)
        if elapsed < 0 { return -1 }
        let length = cycleDuration
        return length == 0 ? 0 : elapsed / length
    }

    /// The animation's fraction at t, in 0...1 (see the type's documentation for the holds).
    /// A zero `duration` jumps straight to the held value.
    @inlinable public func fraction(at t: Microseconds) -> Fixed {
        let elapsed = t.subtractingClamped(delay)
        if elapsed < 0 { return .zero }
        let length = cycleDuration
        if duration == 0 || length == 0 { return heldValue }
        let c = elapsed % length
        if c < duration { return Fixed.ratio(c, duration) }
        if autoreverses && c < 2 * duration { return Fixed.ratio(2 * duration - c, duration) }
        return heldValue
    }

    @inlinable var heldValue: Fixed { hold == .end && !autoreverses ? .one : .zero }
}

/// A timing curve as loaders' parameters name it: linear, or a cubic Bézier (CSS semantics).
public enum TimingCurve: Sendable, Hashable {
    /// The identity (clamped to 0...1, like the Bézier curves).
    case linear
    case bezier(CubicBezier)

    /// The eased progress for a linear progress `t` (clamped to 0...1).
    @inlinable public func callAsFunction(_ t: Fixed) -> Fixed {
        switch self {
        case .linear: return t.unitClamped
        case .bezier(let curve): return curve(t)
        }
    }

    public static let ease = TimingCurve.bezier(.ease)
    public static let easeIn = TimingCurve.bezier(.easeIn)
    public static let easeOut = TimingCurve.bezier(.easeOut)
    public static let easeInOut = TimingCurve.bezier(.easeInOut)
}

extension Int64 {
    @inlinable func clamped(_ lower: Int64, _ upper: Int64) -> Int64 { self < lower ? lower : (self > upper ? upper : self) }

    /// self − other, saturating instead of trapping (t may be anything a caller passes).
    @inlinable func subtractingClamped(_ other: Int64) -> Int64 {
        let (result, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : result
    }
}
