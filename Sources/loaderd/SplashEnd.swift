import CLinux
import CommandLineKit
import Displays
import LinuxSystem
import CompactText

/// The two steps between a splash and the login prompt that run as processes of their own, each
/// one process of this binary where a shell and its commands were several: under emulation every
/// process started or ended on this path held the gettys back 0.05-0.2 s (scripts/boot-test).
///
/// `loaderd --end-splash PIDFILE` ends a loaderd that is not a unit of systemd's, the one the
/// initramfs started (loaderd-initramfs-quit.service), and returns once it has gone, so the
/// gettys ordered after that unit find the console in text mode (it replaced a shell, timeout(1)
/// and tail(1), which looked for the process every 50 ms).
///
/// `loaderd --after-stop` is loaderd.service's ExecStopPost= (it replaced a shell).
enum SplashEnd {
    /// How long the splash may take to show its completed state and exit after SIGTERM before it
    /// is killed. Its finish takes at most 0.3 s; 5 s means it hangs.
    static let graceMilliseconds: Int32 = 5000

    /// The exit status: 0 when the splash is gone and the console is usable, 1 when the console
    /// could not be put back or the process could not be signalled (the log says why).
    static func run(pidFile path: String) -> Int32 {
        guard let bytes = PidFile.read(path) else { return 0 }  // no file: no splash from the initramfs
        var status: Int32 = 0
        if let pid = PidFile.processID(bytes) {
            status = end(pid)
        } else {
            complain(path + " holds no process id")
        }
        // The daemon removes its pid file when it ends by itself. A file left means it crashed
        // before, hung or was killed, leaving the console in graphics mode: put it back in text
        // mode, so the login prompt the gettys draw is on the screen.
        if access(path, F_OK) == 0 {
            _ = unlink(path)
            if restoreConsole() != 0 { status = 1 }
        }
        return status
    }

    /// SIGTERM to `pid` if it is a loaderd, and the wait for it to end (SIGKILL after the grace).
    private static func end(_ pid: Int32) -> Int32 {
        let process: ProcessHandle
        do {
            process = try ProcessHandle(pid: pid)
        } catch {
            if error.rawValue == ESRCH { return 0 }  // already gone; its pid file says how
            if error.rawValue == ENOSYS { return endWithoutPidfd(pid) }
            complain(filled("cannot reach process {}: {}", String(pid), error.description))
            return 1
        }
        // Opened first, then named: a process id reused since the file was written is refused here,
        // and the signal goes through the handle to the process that was checked.
        guard let name = process.name, name == "loaderd" else { return 0 }
        do { try process.send(SIGTERM) } catch {
            complain(filled("cannot signal loaderd (pid {}): {}", String(pid), error.description))
            return 1
        }
        if (try? process.awaitExit(milliseconds: graceMilliseconds)) == true { return 0 }
        reportKill(pid)
        try? process.send(SIGKILL)
        _ = try? process.awaitExit(milliseconds: 1000)
        return 0
    }

    /// The same on a kernel before 5.3 (no pidfd): the name checked and the process looked for
    /// every 20 ms.
    private static func endWithoutPidfd(_ pid: Int32) -> Int32 {
        guard isLoaderd(pid) else { return 0 }
        guard kill(pid, SIGTERM) == 0 else { return 0 }
        var pause = timespec(nanoseconds: 20_000_000)
        for _ in 0..<(graceMilliseconds / 20) {
            if kill(pid, 0) != 0 { return 0 }
            _ = nanosleep(&pause, nil)
        }
        reportKill(pid)
        if isLoaderd(pid) { _ = kill(pid, SIGKILL) }
        return 0
    }

    /// Whether process `pid` is a loaderd, by its name (a comparison kept once, not inlined twice).
    @inline(never)
    private static func isLoaderd(_ pid: Int32) -> Bool { ProcessHandle.name(of: pid) == "loaderd" }

    /// `loaderd: MESSAGE` on standard error: one copy of the printing, not one inlined at each
    /// message (for size).
    @inline(never)
    private static func complain(_ message: String) { printError("loaderd: " + message) }

    private static func reportKill(_ pid: Int32) {
        complain(filled("loaderd (pid {}) did not end within {} s of SIGTERM: killed", String(pid), String(graceMilliseconds / 1000)))
    }

    /// `--after-stop`, run by systemd after every end of loaderd.service, with `$SERVICE_RESULT`
    /// saying how it ended. Not a success (killed, crashed, a start that failed): the daemon could
    /// not put the console back itself, so it is done here, before a restart (a restarted daemon
    /// takes the mode it finds as the one to give back) or for good when systemd's start limit
    /// ends the restarts. A success the boot's end did not cause (psplash's QUIT, Plymouth's
    /// quit: the daemon ends by itself): the boot is marked finished as loaderd-quit.service
    /// would mark it, and loaderd.socket is stopped, so a later client does not start the splash
    /// again over the login prompt. After the boot's end (the marker is there): nothing.
    static func afterStop() -> Int32 {
        guard let result = getenv("SERVICE_RESULT") else {
            complain("--after-stop is for loaderd.service's ExecStopPost= ($SERVICE_RESULT, which systemd sets there, is missing)")
            return 2
        }
        // Compared as C strings (no String made, for size): "success" has no other spelling.
        if strcmp(result, "success") != 0 { return restoreConsole() }
        var status = stat()
        if stat(bootFinished, &status) == 0 && loaderd_s_isdir(status.st_mode) != 0 { return 0 }
        _ = mkdir("/run/loaderd", 0o755)
        if mkdir(bootFinished, 0o755) != 0 && errno != EEXIST {
            complain(filled("cannot make {}: {}", bootFinished, Errno.current.description))
        }
        // The words as C strings straight from their literals (no array of Strings to convert).
        var pointers = [strdup("systemctl"), strdup("--no-block"), strdup("stop"), strdup("loaderd.socket"), nil]
        _ = execv(systemctl, &pointers)
        complain(filled("cannot run {}: {}", systemctl, Errno.current.description))
        return 1
    }

    /// `--restore-console`, and the same step of the two above: the foreground virtual terminal
    /// back in text mode, a line saying so when it was in graphics mode; 1, and the reason at the
    /// error priority, when it could not be done (no virtual terminal is nothing to do).
    static func restoreConsole() -> Int32 {
        switch ConsoleRestore.toText() {
        case .restored: writeOut("loaderd: the console is back in text mode\n")
        case .alreadyText, .noTerminal: break
        case .failed(let why):
            printError(filled("{}loaderd: {}", StandardErrorPriority.prefix(3), why))
            return 1
        }
        return 0
    }

    /// What loaderd-quit.service (its RuntimeDirectory=) makes at the boot's end; loaderd.service
    /// and loaderd.socket do not start while it exists.
    static let bootFinished = "/run/loaderd/boot-finished"
    static let systemctl = "/bin/systemctl"
}
