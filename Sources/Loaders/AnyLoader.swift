import FixedPoint
import Raster

/// Any loader of the catalog. An enum rather than `any Loader`: Embedded Swift (what ships on the
/// boards) has no existentials of non-class protocols, and a switch is as cheap as a witness call.
public enum AnyLoader: Sendable {
    case linkedin(LinkedInBar)
    case pagedots(PageDots)
    case quizup(QuizUpCircles)
    case shimmer(Shimmer)
    case worm(WormGrid)
    case skeleton(SkeletonShimmer)
    case bar(ProgressBar)

    public var kind: LoaderKind {
        switch self {
        case .linkedin: return .linkedin
        case .pagedots: return .pagedots
        case .quizup: return .quizup
        case .shimmer: return .shimmer
        case .worm: return .worm
        case .skeleton: return .skeleton
        case .bar: return .bar
        }
    }

    public var name: String { kind.name }

    /// Bars may change proportions: on a strip they take its whole width and height.
    public var stretches: Bool { kind == .linkedin || kind == .bar }

    public var screen: ScreenSettings {
        switch self {
        case .linkedin(let l): return l.screen
        case .pagedots(let l): return l.screen
        case .quizup(let l): return l.screen
        case .shimmer(let l): return l.screen
        case .worm(let l): return l.screen
        case .skeleton(let l): return l.screen
        case .bar(let l): return l.screen
        }
    }

    // One switch per requirement: Embedded Swift has no generic closures to share them.
    public var designSize: DesignSize {
        switch self {
        case .linkedin(let l): return l.designSize
        case .pagedots(let l): return l.designSize
        case .quizup(let l): return l.designSize
        case .shimmer(let l): return l.designSize
        case .worm(let l): return l.designSize
        case .skeleton(let l): return l.designSize
        case .bar(let l): return l.designSize
        }
    }

    public var period: Microseconds {
        switch self {
        case .linkedin(let l): return l.period
        case .pagedots(let l): return l.period
        case .quizup(let l): return l.period
        case .shimmer(let l): return l.period
        case .worm(let l): return l.period
        case .skeleton(let l): return l.period
        case .bar(let l): return l.period
        }
    }

    public var fadesOnExit: Bool {
        switch self {
        case .linkedin(let l): return l.fadesOnExit
        case .pagedots(let l): return l.fadesOnExit
        case .quizup(let l): return l.fadesOnExit
        case .shimmer(let l): return l.fadesOnExit
        case .worm(let l): return l.fadesOnExit
        case .skeleton(let l): return l.fadesOnExit
        case .bar(let l): return l.fadesOnExit
        }
    }

    public var isStill: Bool {
        switch self {
        case .linkedin(let l): return l.isStill
        case .pagedots(let l): return l.isStill
        case .quizup(let l): return l.isStill
        case .shimmer(let l): return l.isStill
        case .worm(let l): return l.isStill
        case .skeleton(let l): return l.isStill
        case .bar(let l): return l.isStill
        }
    }

    public var drawsMessage: Bool {
        switch self {
        case .linkedin(let l): return l.drawsMessage
        case .pagedots(let l): return l.drawsMessage
        case .quizup(let l): return l.drawsMessage
        case .shimmer(let l): return l.drawsMessage
        case .worm(let l): return l.drawsMessage
        case .skeleton(let l): return l.drawsMessage
        case .bar(let l): return l.drawsMessage
        }
    }

    public func exitDuration(stoppedAt: Microseconds) -> Microseconds {
        switch self {
        case .linkedin(let l): return l.exitDuration(stoppedAt: stoppedAt)
        case .pagedots(let l): return l.exitDuration(stoppedAt: stoppedAt)
        case .quizup(let l): return l.exitDuration(stoppedAt: stoppedAt)
        case .shimmer(let l): return l.exitDuration(stoppedAt: stoppedAt)
        case .worm(let l): return l.exitDuration(stoppedAt: stoppedAt)
        case .skeleton(let l): return l.exitDuration(stoppedAt: stoppedAt)
        case .bar(let l): return l.exitDuration(stoppedAt: stoppedAt)
        }
    }

    public func designSize(for state: FrameState) -> DesignSize {
        switch self {
        case .linkedin(let l): return l.designSize(for: state)
        case .pagedots(let l): return l.designSize(for: state)
        case .quizup(let l): return l.designSize(for: state)
        case .shimmer(let l): return l.designSize(for: state)
        case .worm(let l): return l.designSize(for: state)
        case .skeleton(let l): return l.designSize(for: state)
        case .bar(let l): return l.designSize(for: state)
        }
    }

    public func draw(_ context: inout DrawContext, in layout: Layout, state: FrameState) {
        switch self {
        case .linkedin(let l): l.draw(&context, in: layout, state: state)
        case .pagedots(let l): l.draw(&context, in: layout, state: state)
        case .quizup(let l): l.draw(&context, in: layout, state: state)
        case .shimmer(let l): l.draw(&context, in: layout, state: state)
        case .worm(let l): l.draw(&context, in: layout, state: state)
        case .skeleton(let l): l.draw(&context, in: layout, state: state)
        case .bar(let l): l.draw(&context, in: layout, state: state)
        }
    }
}
