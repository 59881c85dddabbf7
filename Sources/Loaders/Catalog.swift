import FixedPoint
import Raster

/// Why `Catalog.make` refused: an unknown loader name or a bad parameter.
public enum LoaderError: Error, Sendable, CustomStringConvertible, Equatable {
    case unknownLoader(String)
    case parameter(ParameterError)

    public var description: String {
        switch self {
        case .unknownLoader(let name):
            return "unknown loader '\(name)'; available: " + Catalog.names.joined(separator: ", ")
        case .parameter(let error):
            return error.description
        }
    }
}

/// Every loader the daemon knows, by name.
public enum Catalog {
    /// In the order `loaderctl list` shows them.
    public static let loaders: [any Loader.Type] = [
        LinkedInBar.self,
        PageDots.self,
        QuizUpCircles.self,
        Shimmer.self,
        WormGrid.self,
        SkeletonShimmer.self,
        ProgressBar.self,
    ]

    public static var names: [String] { loaders.map { $0.name } }

    public static func type(named name: String) -> (any Loader.Type)? {
        loaders.first { $0.name == name.lowercased() }
    }

    /// Validates `assignments` against the loader's parameters and builds it.
    public static func make(_ name: String, assignments: [(key: String, value: String)] = []) throws(LoaderError) -> any Loader {
        guard let type = type(named: name) else { throw .unknownLoader(name) }
        do {
            let parameters = try Parameters(loader: type.name, specs: type.parameters, presets: type.presets, assignments: assignments)
            return type.init(parameters)
        } catch {
            throw .parameter(error)
        }
    }
}
