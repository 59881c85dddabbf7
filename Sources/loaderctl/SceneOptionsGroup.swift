import ArgumentParser
import FixedPoint
import Loaders
import Raster

/// The options shared by `render` and `preview`: which loader, at what size, in what state.
struct SceneOptionsGroup: ParsableArguments {
    @Argument(help: "The loader to draw (see `loaderctl list`).")
    var name: String

    @Option(help: ArgumentHelp("Canvas size in pixels, WIDTHxHEIGHT (1 to 4096 each).", valueName: "WxH"))
    var size: CanvasSize = CanvasSize(width: 64, height: 16)

    @Option(help: ArgumentHelp("Determinate progress, 0 to 100 (omit for an indeterminate loader).", valueName: "PERCENT"))
    var progress: Double?

    @Option(help: "A message line under the loader (the text itself for `shimmer`).")
    var message: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A loader parameter, repeatable (see `loaderctl list`).", valueName: "key=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("Background colour: #RRGGBB or a name.", valueName: "COLOR"))
    var background: String = "black"

    @Option(help: "Empty pixels kept around the loader.")
    var margin: Int = 0

    @Option(help: ArgumentHelp("Style of the message line: plain, grok, chatgpt or calm.", valueName: "STYLE"))
    var messageStyle: String = "plain"

    @Option(help: ArgumentHelp("Stop the loader at this time (seconds), to see its exit.", valueName: "SECONDS"))
    var stopAt: Double?

    @Option(help: ArgumentHelp("Outcome shown after the exit when --stop-at is given: success or failure.", valueName: "OUTCOME"))
    var outcome: String?

    func validate() throws {
        if let progress, !(progress.isFinite && (0...100).contains(progress)) {
            throw ValidationError("--progress must be a number from 0 to 100, got \(progress)")
        }
        if margin < 0 || margin > 1000 { throw ValidationError("--margin must be from 0 to 1000, got \(margin)") }
        if MessageStyle(rawValue: messageStyle) == nil {
            throw ValidationError("--message-style must be one of " + MessageStyle.allCases.map { $0.rawValue }.joined(separator: ", ") + ", got '\(messageStyle)'")
        }
        if let stopAt, !(stopAt.isFinite && stopAt >= 0) { throw ValidationError("--stop-at must be a time in seconds ≥ 0, got \(stopAt)") }
        if let outcome, Outcome(rawValue: outcome) == nil {
            throw ValidationError("--outcome must be success or failure, got '\(outcome)'")
        }
        if outcome != nil && stopAt == nil { throw ValidationError("--outcome needs --stop-at") }
        _ = try backgroundColor()
        _ = try makeLoader()
    }

    func backgroundColor() throws -> Color {
        do { return try Color(parsing: background) } catch { throw ValidationError("--background: \(error)") }
    }

    func makeLoader() throws -> AnyLoader {
        do {
            let pairs = try Parameters.assignments(from: assignments, loader: name)
            return try Catalog.make(name, assignments: pairs)
        } catch let error as ParameterError {
            throw ValidationError(error.description)
        } catch let error as LoaderError {
            throw ValidationError(error.description)
        }
    }

    func makeScene() throws -> Scene {
        var options = SceneOptions()
        options.margin = margin
        options.messageStyle = MessageStyle(rawValue: messageStyle) ?? .plain
        return Scene(loader: try makeLoader(), width: size.width, height: size.height, options: options)
    }

    /// The frame state at `elapsed`: the offline renderer makes up what the daemon would hold.
    func state(at elapsed: Microseconds) -> FrameState {
        var state = FrameState(elapsed: elapsed)
        if let progress { state.progress = ProgressState(Fixed(progress / 100)) }
        state.message = message
        if let stopAt {
            let stopTime = Time.microseconds(seconds: stopAt)
            if elapsed >= stopTime { state.stop = StopState(at: stopTime, outcome: outcome.flatMap(Outcome.init(rawValue:))) }
        }
        return state
    }
}

/// `WIDTHxHEIGHT`, each 1...4096.
struct CanvasSize: ExpressibleByArgument, Sendable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) { self.width = width; self.height = height }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...Canvas.maximumSide).contains(w), (1...Canvas.maximumSide).contains(h) else { return nil }
        width = w; height = h
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}
