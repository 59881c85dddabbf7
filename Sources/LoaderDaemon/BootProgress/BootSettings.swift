import Displays
import LinuxSystem
import FixedPoint
import CLinux
import Loaders
import CompactText

/// The boot front ends' settings (`[boot]` in loaderd.toml, `--psplash-fifo`, `--plymouth`).
public struct BootSettings: Sendable, Equatable {
    /// The directory of psplash's FIFO (`psplash_fifo` in it); nil: no psplash front end.
    public var psplashFifoDirectory: String? = nil
    /// Answer Plymouth's protocol on its abstract sockets.
    public var plymouth = false
    /// ... only when the socket name is free: a plymouthd that holds it (Plymouth installed and
    /// running) keeps it, and loaderd starts without the front end instead of failing.
    public var plymouthIfFree = false
    /// Where the Plymouth front end keeps the previous boot's timeline.
    public var timelinePath = BootTimeline.defaultPath
    /// Show each unit of PID 1's `U` messages on the message line.
    public var statusMessages = false
    /// Loaders `C` (change mode) switches to, by mode name (`shutdown`, `reboot`, ...); a mode not
    /// listed keeps the loader shown.
    public var modeLoaders = ModeLoaders()
    public init() {}

    /// The modes `loaderd --mode` starts in: plymouthd's `--mode` words.
    public static let modes = ["boot", "shutdown", "reboot", "updates", "system-upgrade", "application-upgrade", "firmware-upgrade", "system-reset"]
}

/// Mode name → loader name, for the few modes a config or command line names: a list searched
/// by name rather than a dictionary, whose hashing code a board binary would carry for it alone.
public struct ModeLoaders: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    private var pairs: [(mode: String, loader: String)] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        for (mode, loader) in elements { self[mode] = loader }
    }

    public var isEmpty: Bool { pairs.isEmpty }

    public subscript(mode: String) -> String? {
        get { pairs.first(where: { $0.mode == mode })?.loader }
        // Out of line: inlined, it was a kilobyte of loaderd's `settings` (for size).
        // The pair changed in place rather than removed and added again (removeAll(where:) was
        // more code; the order is never seen).
        @inline(never) set {
            if let i = pairs.firstIndex(where: { $0.mode == mode }) {
                if let newValue { pairs[i].loader = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append((mode, newValue))
            }
        }
    }

    /// The same modes with the same loaders, in any order.
    public static func == (a: ModeLoaders, b: ModeLoaders) -> Bool {
        a.pairs.count == b.pairs.count && a.pairs.allSatisfy { b[$0.mode] == $0.loader }
    }
}
