import FixedPoint
import Raster
import CompactText

/// Why `Catalog.make` refused: an unknown loader name or a bad parameter.
public enum LoaderError: Error, Sendable, CustomStringConvertible, Equatable {
    case unknownLoader(String)
    case parameter(ParameterError)

    public var description: String {
        switch self {
        case .unknownLoader(let name):
            // The names listed once, and the message from a template (smaller).
            let names = Catalog.names
            let hint = suggestion(for: name, among: names).map { filled(" (did you mean '{}'?)", $0) } ?? ""
            return filled("unknown loader '{}'{}; available: {}", name, hint, names.joined(separator: ", "))
        case .parameter(let error):
            return error.description
        }
    }
}

/// Every loader the daemon knows, by name.
public enum Catalog {
    /// In the order `loaderctl list` shows them.
    public static let loaders: [LoaderKind] = LoaderKind.allCases

    public static var names: [String] { loaders.map { $0.name } }

    public static func type(named name: String) -> LoaderKind? {
        let lowered = name.asciiLowercased()
        return loaders.first { $0.name == lowered }
    }

    /// Validates `assignments` against the loader's parameters without building it: what a
    /// settings check needs (the daemon builds the loader once, when it starts it).
    @inline(never)
    public static func validate(_ name: String, assignments: [(key: String, value: String)] = []) throws(LoaderError) {
        guard let kind = type(named: name) else { throw .unknownLoader(name) }
        do {
            _ = try Parameters.check(loader: kind.name, specs: kind.parameters, presets: kind.presets, assignments: assignments)
        } catch {
            throw .parameter(error)
        }
    }

    /// Validates `assignments` against the loader's parameters and builds it.
    public static func make(_ name: String, assignments: [(key: String, value: String)] = []) throws(LoaderError) -> AnyLoader {
        guard let kind = type(named: name) else { throw .unknownLoader(name) }
        return kind.make(try parameters(of: kind, assignments: assignments))
    }

    /// `assignments` validated against `kind`'s parameters, with the defaults of the rest.
    public static func parameters(of kind: LoaderKind, assignments: [(key: String, value: String)]) throws(LoaderError) -> Parameters {
        do { return try Parameters(loader: kind.name, specs: kind.parameters, presets: kind.presets, assignments: assignments) } catch {
            throw .parameter(error)
        }
    }
}

/// One kind of loader: what `Loader`'s static requirements say, reachable without metatype values
/// (Embedded Swift has none), so the catalog is a plain list.
public enum LoaderKind: CaseIterable, Sendable, Equatable {
    case linkedin, pagedots, quizup, shimmer, worm, skeleton, bar

    public var name: String {
        switch self {
        case .linkedin: return LinkedInBar.name
        case .pagedots: return PageDots.name
        case .quizup: return QuizUpCircles.name
        case .shimmer: return Shimmer.name
        case .worm: return WormGrid.name
        case .skeleton: return SkeletonShimmer.name
        case .bar: return ProgressBar.name
        }
    }

    public var summary: String {
        switch self {
        case .linkedin: return LinkedInBar.summary
        case .pagedots: return PageDots.summary
        case .quizup: return QuizUpCircles.summary
        case .shimmer: return Shimmer.summary
        case .worm: return WormGrid.summary
        case .skeleton: return SkeletonShimmer.summary
        case .bar: return ProgressBar.summary
        }
    }

    /// Out of line, for size: a module that inlined it would carry its own copy of every table.
    @inline(never)
    public var parameters: [ParameterSpec] {
        switch self {
        case .linkedin: return LinkedInBar.parameters
        case .pagedots: return PageDots.parameters
        case .quizup: return QuizUpCircles.parameters
        case .shimmer: return Shimmer.parameters
        case .worm: return WormGrid.parameters
        case .skeleton: return SkeletonShimmer.parameters
        case .bar: return ProgressBar.parameters
        }
    }

    @inline(never)  // as `parameters`
    public var presets: [Preset] {
        switch self {
        case .linkedin: return LinkedInBar.presets
        case .pagedots: return PageDots.presets
        case .quizup: return QuizUpCircles.presets
        case .shimmer: return Shimmer.presets
        case .worm: return WormGrid.presets
        case .skeleton: return SkeletonShimmer.presets
        case .bar: return ProgressBar.presets
        }
    }

    /// Builds the loader from parameters already validated against `parameters`. Out of line,
    /// for size: run once a start, it kept every loader's init inlined in the daemon's `start`.
    @inline(never)
    public func make(_ parameters: Parameters) -> AnyLoader {
        switch self {
        case .linkedin: return .linkedin(LinkedInBar(parameters))
        case .pagedots: return .pagedots(PageDots(parameters))
        case .quizup: return .quizup(QuizUpCircles(parameters))
        case .shimmer: return .shimmer(Shimmer(parameters))
        case .worm: return .worm(WormGrid(parameters))
        case .skeleton: return .skeleton(SkeletonShimmer(parameters))
        case .bar: return .bar(ProgressBar(parameters))
        }
    }
}
