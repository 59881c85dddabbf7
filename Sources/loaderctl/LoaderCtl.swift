import CLinux
import CommandLineKit
import LinuxSystem
import CompactText

@main
enum LoaderCtl {
    static let verbs: [Verb] = [
        DaemonVerbs.start, StopVerb.verb, ProgressVerb.verb, DaemonVerbs.message, StatusVerb.verb, DaemonVerbs.ping,
        DaemonVerbs.brightness, DaemonVerbs.version, RenderVerb.verb, PreviewVerb.verb, ListVerb.verb,
    ]

    static let rootPage: HelpPage = {
        var page = HelpPage(
            abstract: "Drive the loaderd boot splash, and render its loaders offline.",
            discussion: """
                Daemon verbs talk to loaderd over its control socket (--socket, $LOADERD_SOCKET, \
                else /run/loaderd/loaderd.sock): start, stop, progress, message, status, ping, \
                brightness, version, list --daemon. Their options may come before the verb too: \
                loaderctl --socket PATH ping.
                Offline (no daemon needed): `render` writes a frame or an animation to a file, `preview` \
                animates a loader in this terminal, `list` shows every loader and its parameters.
                Exit status: 0 done; 1 the daemon refused (its message is printed) or an offline verb \
                failed; 2 usage error (nothing sent); 3 the daemon could not be reached.
                """,
            usage: "loaderctl [--socket <PATH>] [--timeout <SECONDS>] [--quiet] <subcommand>")
        page.options = ConnectionOptions.options
        page.listsVersion = true
        page.subcommands = verbs.map { (name: $0.name, abstract: $0.page.abstract) }
        page.subcommandsFooter = "  See 'loaderctl help <subcommand>' for detailed help."
        return page
    }()

    static func main() {
        let arguments: [String]
        do throws(InvalidArgumentEncoding) {
            arguments = try ProcessArguments.validated()
        } catch {
            exitWithUsageError(UsageError(message: error.description), usage: rootPage.usage, helpCommand: "loaderctl --help")
        }
        // The words before the verb: options of the verb given early (`--socket PATH ping`).
        // They join the verb's own words, so the verb checks them as if given after it.
        var early: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "-h" || word == "--help" { showHelp(rootPage, trailingBlank: false) }
            if word == "--version" { printOut("loaderctl " + ProjectVersion.version + "\n"); exit(ExitCode.success) }
            // A negative number or a word with a space is no option (ArgumentSyntax): it is taken
            // as the verb, and refused as one.
            if !word.hasPrefix("-") || word == "-" || ArgumentSyntax.looksNegative(word) || ArgumentSyntax.namesNoOption(word) { break }
            early.append(word)
            index += 1
            // A value option given as two words takes the next one (even one like a verb's name).
            if (word == "--socket" || word == "--timeout"), index < arguments.count {
                early.append(arguments[index])
                index += 1
            }
        }
        guard index < arguments.count else {
            // Options and no verb: the help, unless they are wrong (`--socket` without its value).
            if let error = earlyOnlyError(early) {
                exitWithUsageError(error, usage: rootPage.usage, helpCommand: "loaderctl --help")
            }
            showHelp(rootPage, trailingBlank: false)
        }
        var name = arguments[index]
        var rest = early + arguments[(index + 1)...]
        if name == "help" {
            // `loaderctl help VERB`: VERB's help; `loaderctl help`: this one.
            // `loaderctl help help` is this one too: help is a command, if not a verb.
            guard let verbName = rest.first(where: { !$0.hasPrefix("-") }), verbName != "help" else { showHelp(rootPage, trailingBlank: false) }
            name = verbName
            rest = ["--help"]
        }
        guard let verb = verbs.first(where: { $0.name == name }) else {
            exitWithUsageError(unknownCommand(name), usage: "loaderctl <subcommand>", helpCommand: "loaderctl --help")
        }
        run(verb, Array(rest))
    }

    /// Parses the verb's words and runs it: help and --version first, then the verb's own checks;
    /// a usage error exits 2 (nothing was sent), a failure 1 or 3 with `loaderctl: <why>`.
    static func run(_ verb: Verb, _ words: [String]) -> Never {
        let parsed: ParsedArguments
        do throws(UsageError) {
            parsed = try ArgumentSyntax.parse(words, options: verb.page.options + verb.unlistedOptions)
        } catch {
            exitWithUsageError(error, usage: verb.page.usage, helpCommand: "loaderctl \(verb.name) --help")
        }
        if parsed.helpRequested { showHelp(verb.page, trailingBlank: true) }
        if parsed.versionRequested { printOut("loaderctl " + ProjectVersion.version + "\n"); exit(ExitCode.success) }
        do throws(CommandError) {
            try verb.run(parsed)
        } catch {
            switch error {
            case .usage(let usage):
                exitWithUsageError(usage, usage: verb.page.usage, helpCommand: "loaderctl \(verb.name) --help")
            case .failure(let failure):
                // It may name a word as given (a socket's path, a file's): written out as usage errors are.
                printError("loaderctl: " + TerminalText.escaped(failure.description))
                exit(failure.exitCode)
            }
        }
        exit(ExitCode.success)
    }

    /// Options given before no verb at all: a missing value or an unknown option is an error,
    /// anything else shows the help.
    static func earlyOnlyError(_ words: [String]) -> UsageError? {
        do throws(UsageError) {
            let parsed = try ArgumentSyntax.parse(words, options: ConnectionOptions.options)
            return ArgumentSyntax.leftovers(parsed, options: ConnectionOptions.options)
        } catch {
            return error
        }
    }

    /// `loaderctl frobnicate`, `loaderctl help frobnicate`: which word, that it is no command,
    /// the closest command when one is near, and the commands there are.
    static func unknownCommand(_ name: String) -> UsageError {
        let names = verbs.map { $0.name }
        let hint = suggestion(for: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        return UsageError(message: "Unexpected argument '\(name)': not a command\(hint); the commands are "
            + names.joined(separator: ", ") + ", and help")
    }

    static func showHelp(_ page: HelpPage, trailingBlank: Bool) -> Never {
        printOut(page.render(width: HelpText.screenWidth) + (trailingBlank ? "\n" : ""))
        exit(ExitCode.success)
    }
}
