import Displays
import FixedPoint
import CLinux
import CommandLineKit
import LinuxSystem
import LoaderDaemon
import Loaders
import Raster
import CompactText

@main
struct Loaderd {
    static let abstract = "The boot-splash daemon: shows a loader on one or more displays and takes commands on a Unix socket."
    static var discussion: String {
        """
        Commands (docs/PROTOCOL.md): ping, version, start NAME [key=value]..., stop [success|failure|now], \
        progress N [force], message [TEXT], status, list, brightness N.
        Display types: \(DisplayFactory.typeList).
        Example: loaderd --display image:path=/tmp/frame.png,size=64x32 --socket /tmp/loaderd.sock --loader linkedin
        Exit status: 0 done; 1 it could not start or run (the log line says why); 2 usage error; \
        4 no display: every display was missing for --display-timeout.
        """
    }

    /// The display used when none is named and standard output is not a terminal.
    static let defaultDisplay = "auto"

    /// Every option, in the order the help lists them.
    /// Cut by `ArgumentSyntax.cut`, on UTF-8 bytes (for size: `split` stepped through Characters).
    static let options: [OptionSpec] = {
        var options: [OptionSpec] = []
        var rest: String? = optionTable
        while let text = rest {
            let (line, next) = ArgumentSyntax.cut(text, at: UInt8(ascii: "\n"))
            let (name, fields) = ArgumentSyntax.cut(line, at: UInt8(ascii: "|"))
            let (value, help) = ArgumentSyntax.cut(fields!, at: UInt8(ascii: "|"))
            let flag = value == "!"
            options.append(OptionSpec(name: name, kind: flag ? .flag : .value, valueName: flag || value.isEmpty ? nil : value, help: help!))
            rest = next
        }
        return options
    }()

    /// The options as one text, a line each: `name|VALUE|help`, VALUE empty when the help names
    /// the value by the option, `!` for a flag. Read into `options` at the start: 24 initialisers,
    /// each storing its strings, were 2.4 KB of code.
    static var optionTable: String {
        """
        socket|PATH|The control socket (default: the config's, else /run/loaderd/loaderd.sock).
        socket-group|NAME|Group allowed to use the socket (mode 0660); others are denied.
        display|SPEC|A display, repeatable: TYPE:key=value,... (default: terminal:size=64x16 when standard output is a terminal, else auto).
        loader|NAME|Start this loader at launch (see `loaderctl list`).
        set|key=value|A parameter of --loader, repeatable.
        progress|PERCENT|Determinate progress at launch, 0 to 100.
        message||The message line at launch.
        max-clients||Most clients connected at once (default: the config's, else 64).
        idle-timeout|SECONDS|Close a client silent for this long (default: the config's, else 60).
        display-timeout|SECONDS|Give up a display still missing after this long; 0: wait forever (default: the config's, else 60). With no display left, exit with status 4.
        log-level|LEVEL|trace, debug, info, notice, warning, error or critical (default: the config's, else info).
        freeze-time|SECONDS|TEST: every frame is drawn at this elapsed time, so frames are deterministic (redrawn only when a command changes something; an exit never ends).
        psplash-fifo|DIR|Also read psplash's FIFO commands from DIR/psplash_fifo (bare --psplash-fifo: $PSPLASH_FIFO_DIR, else the config's psplash_fifo_dir, else /run).
        plymouth|!|Also answer Plymouth's protocol on its abstract sockets (plymouth client, systemd's messages).
        boot-timeline|PATH|Where the Plymouth front end keeps the previous boot's timeline (default: the config's, else \(BootTimeline.defaultPath)).
        boot-status-messages|!|Show each unit systemd reports over the Plymouth socket on the message line.
        mode-loader|MODE=NAME|The loader Plymouth's change-mode MODE switches to, repeatable (e.g. shutdown=worm).
        mode|MODE|Start in this mode, as plymouthd --mode does: boot (the default), shutdown, reboot, ...; the loader --mode-loader or [boot] shutdown_loader / reboot_loader names for it, if any, is shown instead of --loader's.
        pid-file|PATH|Write the process id to PATH once the socket is served (a starting script's sign that loaderd is up), and remove it at exit.
        config|FILE|Read settings from this TOML file (config/loaderd.toml documents every key); flags given here override it. SIGHUP re-reads it.
        restore-console|!|Put the foreground virtual terminal back in text mode and exit: for a unit's ExecStopPost= after loaderd was killed or crashed, which it could not do itself (0 also with no terminal).
        end-splash|PIDFILE|End the loaderd whose process id PIDFILE holds (the one the initramfs started) and exit once it has gone: SIGTERM, SIGKILL after 5 s, and the console back in text mode if it left its pid file behind (0 also when there is no file).
        after-stop|!|For loaderd.service's ExecStopPost=: after an end that was not a success, put the console back in text mode; after one the boot's end did not cause, mark the boot finished and stop loaderd.socket.
        check-config|FILE|Check a config file as a start would (every value, each display's keys and values, the socket group), print every error with its line, column and key, and exit (0 when good).
        """
    }

    /// Each option's values in the order given, by the option's place in `options` (a flag: one
    /// empty word each time it is given). One array, read by index below, rather than a stored
    /// property each: one append where the words are read, and a copy of the command (the
    /// reload's closure keeps one) is one reference.
    var given = [[String]](repeating: [], count: 24)

    /// The last value of the option at `index`.
    @inline(never)
    func last(_ index: Int) -> String? { given[index].last }

    /// The option at `index` as a number (its words were checked by `parse`).
    @inline(never)
    func number(_ index: Int) -> Double? { last(index).map { Double($0)! } }

    // Each option by its line in `optionTable` (0: socket … 23: check-config): a line added or
    // moved there moves these numbers, and `parse`'s numeric options (7 to 11).
    var socket: String? { last(0) }
    var socketGroup: String? { last(1) }
    var display: [String] { given[2] }
    var loader: String? { last(3) }
    var assignments: [String] { given[4] }
    var progress: String? { last(5) }
    var message: String? { last(6) }
    var maxClients: Int? { last(7).map { Int($0)! } }
    var idleTimeout: Double? { number(8) }
    var displayTimeout: Double? { number(9) }
    var logLevel: String? { last(10) }
    var freezeTime: Double? { number(11) }
    var psplashFifo: String? { last(12) }
    var plymouth: Bool { !given[13].isEmpty }
    var bootTimeline: String? { last(14) }
    var bootStatusMessages: Bool { !given[15].isEmpty }
    var modeLoader: [String] { given[16] }
    var mode: String? { last(17) }
    var pidFile: String? { last(18) }
    var config: String? { last(19) }
    var restoreConsole: Bool { !given[20].isEmpty }
    var endSplash: String? { last(21) }
    var afterStop: Bool { !given[22].isEmpty }
    var checkConfig: String? { last(23) }

    /// `--psplash-fifo` takes an optional value: a bare one means psplash's own default,
    /// `$PSPLASH_FIFO_DIR`, else the config's `psplash_fifo_dir` (`settings`), else /run.
    static func main() {
        StandardStreams.ensureOpen()  // before anything opens a file (docs/RELIABILITY.md)
        let variable = getenv("PSPLASH_FIFO_DIR").map { String(cString: $0) } ?? ""
        let directory = variable.isEmpty ? configsFIFODirectory : variable
        let command: Loaderd
        do throws(UsageError) {
            let words: [String]
            do throws(InvalidArgumentEncoding) { words = try ProcessArguments.validated() } catch {
                throw UsageError(message: error.description)
            }
            command = try parse(joiningPsplashDirectory(words, default: directory))
        } catch {
            usageError(error)
        }
        command.run()
    }

    /// A bare `--psplash-fifo`'s value without $PSPLASH_FIFO_DIR: `settings` puts the FIFO where
    /// the config file does. A word no command line can hold (an argument ends at its NUL).
    static let configsFIFODirectory = "\u{0}config"

    /// `--psplash-fifo` takes its value as `--psplash-fifo=DIR`, or as the next word when that is a
    /// path (`--psplash-fifo /run`, as the help and the shell's completion show it); bare, psplash's
    /// own default.
    static func joiningPsplashDirectory(_ words: [String], default directory: String) -> [String] {
        var out: [String] = []
        var i = 0
        while i < words.count {
            var word = words[i]
            if word == "--psplash-fifo" {
                let joined = i + 1 < words.count && words[i + 1].utf8.first == UInt8(ascii: "/")
                if joined { i += 1 }
                word = "--psplash-fifo=" + (joined ? words[i] : directory)
            }
            out.append(word)  // one append (each is inlined)
            i += 1
        }
        return out
    }

    /// The same steps, in the same order, as ArgumentParser took: split the words (help and
    /// version win over everything found later), convert the values, check them (`problem()`),
    /// then complain about unknown options and extra arguments.
    static func parse(_ arguments: [String]) throws(UsageError) -> Loaderd {
        let parsed = try ArgumentSyntax.parse(arguments, options: options)
        if parsed.helpRequested {
            var page = HelpPage(abstract: abstract, discussion: discussion, usage: "loaderd <options>")
            page.options = options
            page.listsVersion = true
            writeOut(page.render(width: HelpText.screenWidth) + "\n")
            CLinux.exit(0)
        }
        if parsed.versionRequested {
            writeOut(filled("loaderd {}\n", LoaderDaemonVersion.version))
            CLinux.exit(0)
        }
        // Each value kept once, by its option's place in `options`, rather than each option
        // looked up by name (a literal and a search at each of 24 reads).
        var command = Loaderd()
        for (name, value) in parsed.values { command.keep(name, value) }
        for flag in parsed.flags { command.keep(flag, "") }
        // The numbers as ArgumentParser converted them: option by option in this order, the first
        // value that is none the error. The first error of the three checks thrown at one place
        // (each throw was code of its own).
        var error: UsageError? = nil
        numbers: for index in 7...11 where index != 10 {
            for value in command.given[index] where index == 7 ? Int(value) == nil : Double(value) == nil {
                let option = options[index]
                error = UsageError(message: filled("The value '{}' is invalid for '{}'", value, option.label), option: option)
                break numbers
            }
        }
        if error == nil, let problem = command.problem() { error = UsageError(message: problem) }
        if error == nil { error = ArgumentSyntax.leftovers(parsed, options: options) }
        if let error { throw error }
        return command
    }

    /// The place of the option named `name` (one ArgumentSyntax found in `options`).
    @inline(never)
    static func optionIndex(_ name: String) -> Int {
        var index = 0
        while options[index].name != name { index += 1 }
        return index
    }

    /// Keeps a value (a flag: any) of the option named `name`.
    @inline(never)
    mutating func keep(_ name: String, _ value: String) { given[Self.optionIndex(name)].append(value) }

    /// As ArgumentParser printed a usage error, but with exit status 2 as loaderctl's (64,
    /// EX_USAGE, before: one convention for both programs, docs/PROTOCOL.md).
    @inline(never)  // one copy of the printing, not one inlined in main() and one in run()
    static func usageError(_ error: UsageError) -> Never {
        exitWithUsageError(error, usage: "loaderd <options>", helpCommand: "loaderd --help")
    }

    /// `key=value` (`--set`, `--mode-loader`) cut at its first `=`; nil without one. One copy of the
    /// cutting for the checks and the settings.
    @inline(never)
    static func halves(_ word: String) -> (key: String, value: String)? {
        let (key, value) = ArgumentSyntax.cut(word, at: UInt8(ascii: "="))
        return value.map { (key, $0) }
    }

    /// `head`, then the value refused: the form of most of `problem()`'s messages, built here once.
    @inline(never)
    static func got(_ head: String, _ value: String) -> String { filled("{}, got '{}'", head, value) }

    /// What is wrong with the values given, as the usage error's message; nil when nothing is.
    /// (The error is made once, by `parse`, rather than at each of these.)
    @inline(never)  // not inlined into parse (for size)
    func problem() -> String? {
        if let progress, Percent(parsing: Substring(progress)) == nil {
            return Self.got("--progress must be a decimal from 0 to 100", progress)
        }
        if let maxClients, !(1...4096).contains(maxClients) { return filled("--max-clients must be from 1 to 4096, got {}", String(maxClients)) }
        if let problem = LaunchCheck.problem(loader: loader, assignments: assignments, idleTimeout: idleTimeout, message: message) { return problem }
        if let displayTimeout, let problem = DisplayTimeout.problem(seconds: displayTimeout) { return "--display-timeout " + problem }
        if let logLevel, Logger.Level(rawValue: logLevel.asciiLowercased()) == nil {
            // Logger.Level's names, written out: an array of them mapped and joined was more code.
            return Self.got("--log-level must be one of trace, debug, info, notice, warning, error, critical", logLevel)
        }
        if let freezeTime, !(freezeTime.isFinite && freezeTime >= 0 && freezeTime <= 1_000_000) {
            return filled("--freeze-time must be from 0 to 1000000 seconds, got {}", freezeTime.decimalText)
        }
        if let message {
            // Characters counted as the bytes that start a scalar (for size: no grapheme breaking).
            var characters = 0
            for byte in message.utf8 where byte & 0xC0 != 0x80 { characters += 1 }
            if characters > 256 { return "--message is at most 256 characters" }
        }
        for word in assignments where Self.halves(word).map({ $0.key.isEmpty }) ?? true {
            return Self.got("--set expects key=value", word)
        }
        if !assignments.isEmpty && loader == nil && config == nil { return "--set needs --loader" }
        let modes = BootSettings.modes
        for pair in modeLoader {
            guard let halves = Self.halves(pair), !halves.key.isEmpty, Catalog.type(named: halves.value) != nil else {
                return Self.got("--mode-loader expects MODE=LOADER with a loader from `loaderctl list`", pair)
            }
            let mode = halves.key
            guard modes.contains(mode) else {
                let hint = suggestion(for: mode, among: modes).map { filled(" (did you mean '{}'?)", $0) } ?? ""
                return filled("--mode-loader: unknown mode '{}'{}; modes: {}", mode, hint, modes.joined(separator: ", "))
            }
        }
        if let mode, !modes.contains(mode) {
            return Self.got("--mode must be one of " + modes.joined(separator: ", "), mode)
        }
        if let pidFile, pidFile.isEmpty || endsWith(pidFile, UInt8(ascii: "/")) { return Self.got("--pid-file must name a file", pidFile) }
        // The config's rule (absolute, and fitting a socket address), so that loaderctl finds it.
        if let socket, let problem = SocketPath.problem(socket) {
            return filled("--socket must be {}, e.g. /run/loaderd/loaderd.sock; got {}", problem, socket.isEmpty ? "an empty path" : filled("'{}'", socket))
        }
        if let bootTimeline, bootTimeline.utf8.first != UInt8(ascii: "/") { return Self.got("--boot-timeline must be an absolute path", bootTimeline) }
        // Each display's type, keys and values as opening it would check them, nothing opened:
        // a bad one is a usage error now, before the socket is made, not a failure after
        // "listening on". A device that does not exist yet is not a bad spec (it is waited for).
        for spec in display {
            do throws(DisplaySpecError) {
                try DisplayFactory.check(try DisplaySpec(parsing: spec))
            } catch {
                return error.description
            }
        }
        return nil
    }

    func run() {
        if restoreConsole { CLinux.exit(SplashEnd.restoreConsole()) }
        if let endSplash { CLinux.exit(SplashEnd.run(pidFile: endSplash)) }
        if afterStop { CLinux.exit(SplashEnd.afterStop()) }
        if let checkConfig {
            // Every error at once, each at its line and column; the displays' values too.
            let errors = Config.check(path: checkConfig)
            if !errors.isEmpty { fail(errors) }
            _ = writeOut(checkConfig + ": OK\n")  // not print(): its code was linked for this line alone
            CLinux.exit(0)
        }
        let settings: DaemonConfiguration
        do { settings = try self.settings(checkingSet: false) } catch { fail(error.all) }
        // The file's loader with --set words from here: a usage error, as with --loader.
        if let problem = setProblem(settings) { Self.usageError(UsageError(message: problem)) }

        let logger = Logger(level: settings.logLevel)
        if ProcessArguments.markAsInitrdSurvivor() {
            logger.info("started in the initrd (/etc/initrd-release): argv[0] marked '@', so systemd's switch to the real root leaves the splash running")
        }
        let daemon: Daemon
        do {
            daemon = try Daemon(configuration: settings, logger: logger)
        } catch {
            fail(error.description)
        }
        if config != nil {
            // SIGHUP re-reads the file and applies these same flags on top again.
            daemon.reloadConfiguration = { () throws(ConfigError) in try self.settings() }
        }
        if let pidFile, let problem = PidFile.write(pidFile) {
            // Not fatal: the splash matters more than the file; the log says what it costs.
            logger.error(filled("--pid-file {}: {}; a starting script cannot tell that loaderd is up", pidFile, problem))
        }
        daemon.run()
        if let pidFile { PidFile.remove(pidFile) }
        CLinux.exit(daemon.exitStatus)
    }

    /// `--set` words given without `--loader`, for the config file's loader: nil when they fit
    /// it. (A loader given here was checked with them by problem(), and the file's loader with
    /// its own parameters when the file was read: only this pair is new.)
    func setProblem(_ settings: DaemonConfiguration) -> String? {
        guard loader == nil, !assignments.isEmpty else { return nil }
        guard let name = settings.loader else {
            return filled("--set needs --loader, or a loader named in the config file ([loader] name); {} names none", config ?? "")
        }
        return LaunchCheck.loaderProblem(name, settings.assignments, source: "--set for the config's loader")
    }

    /// The config file's settings (when --config is given) with the flags given here on top.
    /// `checkingSet`: whether `--set` words that do not fit the file's loader are an error here
    /// (a reload's: the file may have changed its loader) or checked by the caller (the start's).
    func settings(checkingSet: Bool = true) throws(ConfigError) -> DaemonConfiguration {
        // The file's or the defaults, made once (not the defaults made and then replaced).
        var settings: DaemonConfiguration
        var fileFIFODirectory = Config.Boot().psplashFifoDir
        if let config {
            let file = try Config.load(path: config)
            fileFIFODirectory = file.boot.psplashFifoDir
            settings = DaemonConfiguration(file, path: config)
        } else {
            settings = DaemonConfiguration()
        }
        if let socket { settings.socketPath = socket }
        if let socketGroup { settings.socketGroup = socketGroup }
        if let loader {
            settings.loader = loader
            settings.assignments = []
        }
        if !assignments.isEmpty {
            settings.assignments = assignments.map { word in
                let (key, value) = Self.halves(word)!  // checked by problem()
                return Assignment(key: key, value: value)
            }
        }
        if checkingSet, let problem = setProblem(settings) { throw ConfigError(source: "command line", message: problem) }
        if let progress { settings.progress = Percent(parsing: Substring(progress)) }
        if let message { settings.message = message }
        if let maxClients { settings.maxClients = maxClients }
        if let idleTimeout { settings.idleTimeout = IdleTimeout.nanoseconds(seconds: idleTimeout) }
        if let displayTimeout { settings.displayTimeout = DisplayTimeout.nanoseconds(seconds: displayTimeout) }
        if let freezeTime { settings.freezeTime = Time.microseconds(seconds: freezeTime) }
        if let logLevel { settings.logLevel = Logger.Level(rawValue: logLevel.asciiLowercased()) ?? .info }  // any case, as the file
        // A bare --psplash-fifo without $PSPLASH_FIFO_DIR turns the front end on where the file
        // says, as `psplash_fifo = true` would: not in /run behind its back.
        if let psplashFifo { settings.boot.psplashFifoDirectory = psplashFifo == Self.configsFIFODirectory ? fileFIFODirectory : psplashFifo }
        if plymouth { settings.boot.plymouth = true }
        if let bootTimeline { settings.boot.timelinePath = bootTimeline }
        if bootStatusMessages { settings.boot.statusMessages = true }
        for pair in modeLoader {
            let (mode, name) = Self.halves(pair)!  // checked by problem()
            settings.boot.modeLoaders[mode] = Catalog.type(named: name)!.name
        }
        // Started for a shutdown or a reboot (loaderd-shutdown.service, loaderd-reboot.service):
        // the loader the settings name for that mode, as Plymouth's change-mode would switch to.
        if let mode, let name = settings.boot.modeLoaders[mode] {
            settings.loader = name
            settings.assignments = []
        }
        if !display.isEmpty {
            settings.displays = display.map { try! DisplaySpec(parsing: $0) }  // checked by problem()
        } else if settings.displays.isEmpty {
            // No display named: on a terminal (a person trying it) the terminal itself; otherwise
            // (a service, the shipped config) the first framebuffer, as a boot splash wants.
            let fallback = isatty(STDOUT_FILENO) == 1 ? "terminal:size=64x16" : Self.defaultDisplay
            settings.displays = [try! DisplaySpec(parsing: fallback)]
        }
        return settings
    }

    func fail(_ message: String) -> Never { fail([message]) }

    /// A config file's errors, each on its line.
    @inline(never)
    func fail(_ errors: [ConfigError]) -> Never { fail(errors.map { $0.description }) }

    /// Each message on a line of its own, with the error priority journald reads (not on a
    /// terminal: the daemon's log lines' rule, StandardErrorPriority).
    func fail(_ messages: [String]) -> Never {
        var text = ""
        for message in messages { text += filled("{}loaderd: {}\n", StandardErrorPriority.prefix(3), message) }
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        CLinux.exit(1)
    }
}
