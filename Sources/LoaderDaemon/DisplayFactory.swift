import Displays

/// The display types `--display TYPE:...` (and the config) can name: one line per type.
public enum DisplayFactory {
    public static let types: [(type: String, usage: String, open: @Sendable (DisplaySpec) throws(DisplaySpecError) -> any Display)] = [
        ("image", "image:path=FILE.ppm|FILE.png,size=WxH[,background=COLOR][,fps=N]", { spec throws(DisplaySpecError) in try ImageDisplay.open(spec) }),
        ("terminal", "terminal:size=WxH[,fps=N][,background=COLOR]", { spec throws(DisplaySpecError) in try TerminalDisplay.open(spec) }),
        ("fb", "fb:device=/dev/fb0[,size=WxH][,scale=N][,anchor=A][,x=N][,y=N][,rotate=DEG][,background=COLOR][,console=graphics|keep][,vsync=on|off][,buffers=auto|1|2][,fps=N] (see docs/HARDWARE.md)", { spec throws(DisplaySpecError) in do throws(DisplayOpenError) { return try FramebufferDisplay.open(spec) } catch { throw error.asSpecError(spec) } }),
    ]

    public static var typeList: String { types.map(\.usage).joined(separator: "; ") }

    public static func open(_ spec: DisplaySpec) throws(DisplaySpecError) -> any Display {
        guard let entry = types.first(where: { $0.type == spec.type }) else {
            throw DisplaySpecError(spec: spec.description, message: "unknown display type '\(spec.type)'; types: " + types.map(\.type).joined(separator: ", "))
        }
        return try entry.open(spec)
    }
}
