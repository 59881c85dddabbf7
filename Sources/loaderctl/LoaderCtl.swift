import ArgumentParser
import CLinux
import LinuxSystem

@main
struct LoaderCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loaderctl",
        abstract: "Drive the loaderd boot splash, and render its loaders offline.",
        discussion: """
            Daemon verbs talk to loaderd over its control socket (--socket, $LOADERD_SOCKET, \
            else /run/loaderd/loaderd.sock): start, stop, progress, message, status, ping, \
            brightness, version, list --daemon.
            Offline (no daemon needed): `render` writes a frame or an animation to a file, `preview` \
            animates a loader in this terminal, `list` shows every loader and its parameters.
            Exit status: 0 done; 1 the daemon refused (its message is printed) or an offline verb \
            failed; 2 usage error (nothing sent); 3 the daemon could not be reached.
            """,
        subcommands: [
            Start.self, Stop.self, ProgressCommand.self, Message.self, Status.self, Ping.self,
            Brightness.self, Version.self,
            Render.self, Preview.self, List.self,
        ]
    )

    /// Parses and runs like ArgumentParser's default `main()`, but with loaderctl's exit statuses:
    /// usage errors exit 2 (ArgumentParser's default is 64, EX_USAGE), `RuntimeFailure`s exit
    /// with their own status (1 or 3) after a one-line `loaderctl: ...` message, and help
    /// (`--help`, `help VERB`) still prints to stdout and exits 0.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as RuntimeFailure {
            printError("loaderctl: \(failure.description)")
            CLinux.exit(failure.exitCode)
        } catch {
            if exitCode(for: error) == .validationFailure {
                // ValidationError from validate()/run() and every parse error (unknown option,
                // missing argument, a value of the wrong type) land here.
                printError(fullMessage(for: error))
                CLinux.exit(ExitStatus.usage)
            }
            // CleanExit (help, --version), ExitCode, and anything else: ArgumentParser's way.
            exit(withError: error)
        }
    }
}

/// One line (or block) to stderr, newline-terminated.
func printError(_ text: String) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    fflush(nil)  // stdout first, so the two streams stay in order on a shared terminal
    line.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}
