import Loaders
import CompactText

/// Checks of the settings given on loaderd's command line, with the same rules as the config file
/// applies to its keys, so that `--loader nosuch` or `--set duration=0.01` is a usage error at
/// once rather than a daemon showing a blank screen with an error in its log.
public enum LaunchCheck {
    /// What is wrong with these command-line settings, or nil. `assignments` are `key=value` words
    /// of `--set`; the loader's parameters are checked when `loader` is given.
    public static func problem(loader: String?, assignments: [String], idleTimeout: Double?, message: String?) -> String? {
        if let idleTimeout, let problem = IdleTimeout.problem(seconds: idleTimeout) { return "--idle-timeout " + problem }
        if let message, RequestParser.firstControl(message[...]) != nil {
            return "--message must be one line without control characters"
        }
        var pairs: [Assignment] = []
        for word in assignments {
            guard let eq = word.firstIndex(of: "="), eq != word.startIndex else { return filled("--set expects key=value, got '{}'", word) }
            let key = String(word[..<eq])
            if pairs.contains(where: { $0.key == key }) { return filled("--set {}= is given twice; give each parameter once", key) }
            pairs.append(Assignment(key: key, value: String(word[word.utf8.index(after: eq)...])))
        }
        guard let loader else { return nil }
        return loaderProblem(loader, pairs, source: "--loader")
    }

    /// An unknown loader or a parameter it refuses, as a sentence; nil when it would start.
    public static func loaderProblem(_ name: String, _ assignments: [Assignment], source: String) -> String? {
        guard let type = Catalog.type(named: name) else {
            // Built from templates, not interpolated: fewer calls (for size).
            var text = filled("{}: unknown loader '{}'", source, name)
            if let near = suggestion(for: name, among: Catalog.names) { text += filled(" (did you mean '{}'?)", near) }
            return filled("{}; loaders: {}", text, Catalog.names.joined(separator: ", "))
        }
        do {
            try Catalog.validate(type.name, assignments: assignments.map { ($0.key, $0.value) })
        } catch {
            return filled("{} {}: {}", source, type.name, error.description)
        }
        return nil
    }
}

/// The idle timeout's one rule, for the config's `idle_timeout` and `--idle-timeout` alike:
/// 0 means never; otherwise from 1 ms to a day. (A value such as 1e-10 used to pass the command
/// line's "more than 0" and become 0 ns — every client closed at once — while the config rounded
/// it to 0, "never".)
public enum IdleTimeout {
    public static let minimumSeconds = 0.001
    public static let maximumSeconds = 86_400.0
    public static let accepted = "must be 0 (never) or from 0.001 to 86400 seconds"

    /// nil when `seconds` is accepted; otherwise what is accepted and what was given.
    public static func problem(seconds: Double) -> String? {
        if seconds == 0 || (seconds.isFinite && seconds >= minimumSeconds && seconds <= maximumSeconds) { return nil }
        return filled("{}, got {}", accepted, seconds.decimalText)
    }

    /// Nanoseconds for the daemon (0, never, becomes a timeout no client reaches).
    public static func nanoseconds(seconds: Double) -> Int64 {
        seconds == 0 ? Int64.max / 4 : Int64(seconds * 1_000_000_000)
    }
}
