import CLinux

/// The words the program was started with, argv[0] first. `CommandLine.arguments` in ordinary
/// Swift; Embedded Swift has no `CommandLine`, so both builds read argv from the C shim.
public enum ProcessArguments {
    public static var all: [String] {
        (0..<Int(loaderd_argument_count())).map { i in
            loaderd_argument(Int32(i)).map { String(cString: $0) } ?? ""
        }
    }

    /// An environment variable, or nil when unset.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
