import CommandLineKit
import Displays
import FixedPoint
import Loaders
import Raster
import CompactText

/// The options shared by `render` and `preview`: which loader, at what size, in what state.
struct SceneOptionsGroup {
    static let sizeOption = OptionSpec(name: "size", kind: .value, valueName: "WxH", help: "Canvas size in pixels, WIDTHxHEIGHT (1 to 4096 each). (default: 64x16)")
    static let progressOption = OptionSpec(name: "progress", kind: .value, valueName: "PERCENT", help: "Determinate progress, 0 to 100 (omit for an indeterminate loader).")
    static let marginOption = OptionSpec(name: "margin", kind: .value, help: "Empty pixels kept around everything. (default: automatic, as loaderd: 5 % of the shorter side from 320x200 on, none on smaller canvases)")
    static let monoOption = OptionSpec(name: "mono", kind: .flag, help: "Draw the lit/unlit designs that on/off LEDs (max7219) show, as loaderd does on them, each pixel lit or unlit as the LEDs show it.")
    static let stopAtOption = OptionSpec(name: "stop-at", kind: .value, valueName: "SECONDS", help: "Stop the loader at this time (seconds), to see its exit.")
    static let options: [OptionSpec] = [
        sizeOption, progressOption,
        OptionSpec(name: "message", kind: .value, help: "A message line under the loader (the text itself for `shimmer`)."),
        OptionSpec(name: "set", kind: .value, valueName: "key=value", help: "A loader parameter, repeatable (see `loaderctl list`)."),
        OptionSpec(name: "background", kind: .value, valueName: "COLOR", help: "Background colour: #RRGGBB or a name. (default: black)"),
        marginOption, monoOption,
        OptionSpec(name: "message-style", kind: .value, valueName: "STYLE", help: "Style of the message line: plain, grok, chatgpt or calm. (default: plain)"),
        stopAtOption,
        OptionSpec(name: "outcome", kind: .value, valueName: "OUTCOME", help: "Outcome shown after the exit when --stop-at is given: success or failure."),
    ]
    static let nameArgument = ArgumentSpec("<name>", help: "The loader to draw (see `loaderctl list`).")

    var name: String
    var width = 64
    var height = 16
    var progress: Double?
    var message: String?
    var assignments: [String] = []
    var background = Color.black
    /// nil: the automatic margin the daemon uses.
    var margin: Int?
    var monochrome = false
    var messageStyle = MessageStyle.plain
    var stopAt: Double?
    var outcome: Outcome?
    let loader: AnyLoader

    /// Reads and checks the scene options; `name` is the verb's one positional.
    init(_ parsed: ParsedArguments, name: String) throws(CommandError) {
        self.name = name
        if let size = try parsed.number(Self.sizeOption, Self.canvasSize) { width = size.width; height = size.height }
        progress = try parsed.number(Self.progressOption) { Double($0) }
        message = parsed.last("message")
        // As the daemon's `message`: one line of printable text (a control character would be
        // drawn as a replacement mark, or break a terminal's preview).
        if let bad = message?.unicodeScalars.first(where: TerminalText.isControl) {
            throw .usage("--message contains " + (bad == "\t" ? "a tab (U+9)" : "control character " + hexCode(bad)) + "; it must be one line of printable text")
        }
        assignments = parsed.all("set")
        margin = try parsed.number(Self.marginOption) { Int($0) }
        monochrome = parsed.has("mono")
        stopAt = try parsed.number(Self.stopAtOption) { Double($0) }
        if let progress, !(progress.isFinite && (0...100).contains(progress)) {
            throw .usage("--progress must be a number from 0 to 100, got \(progress)")
        }
        if let margin, margin < 0 || margin > 1000 { throw .usage("--margin must be from 0 to 1000, got \(margin)") }
        let style = parsed.last("message-style") ?? "plain"
        guard let messageStyle = MessageStyle(rawValue: style) else {
            throw .usage("--message-style must be one of " + MessageStyle.allCases.map { $0.rawValue }.joined(separator: ", ") + ", got '\(style)'")
        }
        self.messageStyle = messageStyle
        if let stopAt, !(stopAt.isFinite && stopAt >= 0) { throw .usage("--stop-at must be a time in seconds ≥ 0, got \(stopAt)") }
        if let text = parsed.last("outcome") {
            guard let outcome = Outcome(rawValue: text) else { throw .usage("--outcome must be success or failure, got '\(text)'") }
            self.outcome = outcome
        }
        if outcome != nil && stopAt == nil { throw .usage("--outcome needs --stop-at") }
        let backgroundText = parsed.last("background") ?? "black"
        do throws(ColorParseError) {
            background = try Color(parsing: backgroundText)
        } catch {
            throw .usage("--background: " + error.description)
        }
        loader = try checkLoader(name, assignments)
        // A margin too wide for the canvas draws nothing at all: say so rather than write a blank file.
        let largest = BootScreenLayout.largestMargin(width: width, height: height)
        let given = loader.screen.margin.map { (what: "--set screen.margin=\($0)", value: $0) } ?? margin.map { (what: "--margin \($0)", value: $0) }
        if let given, given.value > largest {
            throw .usage("\(given.what) leaves no room on a \(width)x\(height) canvas (the margin is taken from every side): at most \(largest) fits")
        }
    }

    /// `WIDTHxHEIGHT`, each 1...4096.
    static func canvasSize(_ text: String) -> (width: Int, height: Int)? {
        guard let (w, h) = parseDimensions(text), (1...Canvas.maximumSide).contains(w), (1...Canvas.maximumSide).contains(h) else {
            return nil
        }
        return (width: w, height: h)
    }

    /// The scene to draw; a logo (`--set screen.logo=…`) that cannot be shown is said on standard
    /// error, as loaderd logs it, and the frame is drawn without it.
    func makeScene() -> Scene {
        var options = SceneOptions()
        options.margin = margin
        options.monochrome = monochrome
        options.messageStyle = messageStyle
        options.font = .automatic
        var scene = Scene(loader: loader, width: width, height: height, options: options)
        if let error = scene.logoError { printError("warning: " + TerminalText.escaped(error)) }
        // A screen's text is drawn in a face, loaded before any frame (loaderd loads it after its
        // first frame instead).
        if scene.drawsFaceText && (message.map { !$0.isEmpty } == true || scene.loader.drawsMessage),
           let error = scene.loadFace() {
            printError("note: text in the bitmap font: " + TerminalText.escaped("\(error)"))
        }
        // As loaderd logs it: a screen with no room left for the message under the loader.
        if let message, !message.isEmpty, !scene.loader.drawsMessage, BootScreenLayout.isScreen(width: width, height: height),
           scene.areas(message: message).message == nil {
            printError("warning: no room for the message under the loader (\(width)x\(height)): not drawn; a smaller screen.logo, screen.loaderSize or --margin makes room")
        }
        return scene
    }

    /// The scene's canvas as the display shows it: with `--mono`, each pixel lit or unlit as a
    /// MAX7219 in its default threshold mode lights it.
    func shown(_ scene: Scene) -> Canvas { monochrome ? MAX7219Display.lit(scene.canvas) : scene.canvas }

    /// The frame state at `elapsed`: the offline renderer makes up what the daemon would hold.
    func state(at elapsed: Microseconds) -> FrameState {
        var state = FrameState(elapsed: elapsed)
        if let progress { state.progress = ProgressState(Fixed(progress / 100)) }
        state.message = message
        if let stopAt {
            let stopTime = Time.microseconds(seconds: stopAt)
            if elapsed >= stopTime { state.stop = StopState(at: stopTime, outcome: outcome) }
        }
        return state
    }
}
