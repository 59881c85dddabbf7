import CLinux
import Displays
import LinuxSystem
import CompactText

/// A passphrase asked on the console while the splash is up. A volume in /etc/crypttab (in the
/// initramfs, or /home in the real root) is unlocked by systemd-cryptsetup, which asks through
/// systemd's password agents: it drops `ask.XXXXXX` in /run/systemd/ask-password, and with no
/// plymouthd the console agent prints the question on the console and reads the answer there.
/// A splash drawn on the framebuffer (the console in graphics mode) or holding the DRM card hides
/// that question, and the boot looks hung while it waits for an answer nobody can see.
///
/// So while a live question is there, the displays that share the screen with the console (fb,
/// drm, auto) step aside: each is closed, which puts the console back in text mode (and ends DRM
/// mastership, so the kernel console's mode comes back), and reopened with the current frame
/// once every question is answered. The loader goes on meanwhile (its progress and message are
/// kept, clients are served), and LED matrices and image files keep drawing. The directory is
/// watched with inotify, as display devices are: nothing polls.
extension Daemon {
    /// systemd's directory for password questions; `LOADERD_ASK_PASSWORD_DIR` names another
    /// (for tests: the real one is root's).
    static var passwordDirectory: String {
        getenv("LOADERD_ASK_PASSWORD_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? "/run/systemd/ask-password"
    }

    static let passwordEvents: Inotify.Events = [.created, .deleted, .movedIn, .movedOut]

    /// Whether `slot` draws where the console is: a framebuffer or a DRM card (`auto` opens one
    /// of the two).
    static func sharesConsole(_ slot: DisplaySlot) -> Bool {
        slot.spec.type == "fb" || slot.spec.type == "drm" || slot.spec.type == "auto"
    }

    /// Watches the question directory (or, until it exists, the deepest directory on its path),
    /// then looks at what is asked now. Nothing is watched when no display shares the console.
    func watchPasswordQuestions(now: Int64) {
        guard slots.contains(where: Self.sharesConsole), let watcher = watcher() else { return }
        let path = Self.passwordDirectory
        // Until the deepest existing directory is the one watched: a directory made on the way
        // between the look and the watch (mkdir -p makes them in a row) sends the parent no event.
        var watched: String? = nil
        while true {
            var directory = path
            while !Self.exists(directory) && directory != "/" { directory = Self.parent(directory) }
            if directory == watched { break }
            do {
                passwordWatch = (try watcher.watch(directory: directory, for: Self.passwordEvents), directory == path)
            } catch {
                passwordWatch = nil
                logger.warning(filled("cannot watch {} ({}); a password asked on the console during the splash may be hidden by it", directory, error.text))
                break
            }
            watched = directory
            if directory == path { break }
        }
        reviewPasswordQuestions(now: now)
    }

    /// An event in the watched directory: a question asked or answered, or (watching a parent)
    /// the directory made or removed on the way.
    func passwordDirectoryChanged(now: Int64) {
        guard let watch = passwordWatch else { return }
        if !watch.isTheDirectory || !Self.exists(Self.passwordDirectory) {
            watchPasswordQuestions(now: now)
        } else {
            reviewPasswordQuestions(now: now)
        }
    }

    /// Steps the console's displays aside while a live question is asked, and back when none is.
    /// Also after a reload, whose new displays follow the same rule.
    func reviewPasswordQuestions(now: Int64) {
        let asking = Self.firstLivePasswordQuestion(in: Self.passwordDirectory)
        // One loop picks the slots and names them (filter, map and joined cost more code).
        var chosen: [DisplaySlot] = []
        var names = ""
        for slot in slots where asking == nil ? slot.steppedAside : Self.sharesConsole(slot) && !slot.steppedAside {
            chosen.append(slot)
            Self.list(slot.display.name, in: &names)
        }
        guard !chosen.isEmpty else { return }
        if let first = asking {
            logger.notice(filled("a password is asked on the console ({}): {} steps aside until it is answered", first, names))
            for slot in chosen { stepAside(slot, now: now) }
        } else {
            logger.notice(filled("the password questions are answered: drawing on {} again", names))
            for slot in chosen { comeBack(slot, now: now) }
        }
    }

    /// Closes the display (the console's text mode comes back with it); the slot waits, with no
    /// `display_timeout`: a passphrase may take a person minutes.
    func stepAside(_ slot: DisplaySlot, now: Int64) {
        slot.steppedAside = true
        if !slot.waiting {
            startWaiting(slot, PlaceholderDisplay(name: slot.display.name, reason: "stepped aside while a password is asked on the console"), now: now)
        }
        slot.waitingSince = nil
    }

    /// Opens the display again and draws the current frame; a device gone meanwhile is waited
    /// for as any missing one is.
    func comeBack(_ slot: DisplaySlot, now: Int64) {
        slot.steppedAside = false
        slot.waitingSince = now
        if let search = slot.search { searchAgain(slot, search, now: now) } else { reopen(slot, now: now) }
    }

    /// A `PID=` line's number as `Int32(_:)` read the rest of the line, when above 0; nil
    /// otherwise. On the bytes: after `PID=` (four single-byte Characters) bytes and Characters
    /// are the same, and the generic integer parser was more code (for size).
    static func processID(_ line: Substring.UTF8View) -> Int32? {
        var value: Int64 = 0
        var count = 0
        for byte in line {
            count += 1
            if count <= 4 || count == 5 && byte == UInt8(ascii: "+") { continue }  // `PID=`, a `+`
            // A `-` (whose number is not above 0) and anything but a digit end it.
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
            guard value <= Int64(Int32.max) else { return nil }
        }
        return value > 0 ? Int32(value) : nil
    }

    /// The first question in `directory` whose asker is alive: a short description of it (its
    /// `Message=`, or the file's name); nil when none is. A file left by a process that died is
    /// not a question anyone waits for (systemd's agents skip them too). Only the first is logged,
    /// so no list of them is made.
    static func firstLivePasswordQuestion(in directory: String) -> String? {
        for name in DirectoryEntries.names(in: directory, prefix: "ask.") {
            var message = name
            var alive = true
            if let text = GroupFile.readSmallFile(filled("{}/{}", directory, name)) {
                for line in text.split(separator: "\n") {
                    if line.hasPrefix("PID="), let pid = processID(line.utf8) {
                        alive = kill(pid, 0) == 0 || errno != ESRCH
                    } else if line.hasPrefix("Message="), line.utf8.count > 8 {
                        message = filled("\"{}\"", String(line[line.utf8.index(line.startIndex, offsetBy: 8)...].prefix(scalars: 160)))
                    }
                }
            }
            if alive { return message }
        }
        return nil
    }
}
