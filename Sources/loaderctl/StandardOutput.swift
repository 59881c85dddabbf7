import CLinux
import CommandLineKit

/// What loaderctl prints on standard output (replies, summaries, help, the preview), checked:
/// output that cannot be written (a full disk, an I/O error, a closed descriptor) ends loaderctl
/// with `loaderctl: cannot write to standard output: <why>`, exit 1, as any other output file
/// that cannot be written. A reader that went away (`loaderctl list | head -1`) is no error:
/// SIGPIPE ends loaderctl then, as any program; where SIGPIPE is ignored the write fails with
/// EPIPE instead, and the rest is dropped quietly (false: the verb's work goes on, the preview
/// stops).
@discardableResult
func printOut(_ text: String) -> Bool {
    let error = writeOut(text)
    if error == 0 { return true }
    if error == EPIPE { return false }
    printError("loaderctl: cannot write to standard output: " + errorText(error))
    exit(ExitCode.failure)
}
