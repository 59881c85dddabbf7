/// The LED display types and their factory, for the daemon's display table.
public enum LEDDisplays {
    /// Spec types handled here. `open` and `checkOptions` switch on the index in this table
    /// rather than over the names (for size).
    public static let types = ["max7219", "apa102", "sk9822", "ws2812", "sk6812"]

    /// Opens `spec` if its type is an LED display, else returns nil. Throws `DisplaySpecError` for
    /// a bad option and `DisplayError` when the hardware cannot be reached.
    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> (any Display)? {
        switch types.firstIndex(of: spec.type) {
        case 0: return try MAX7219Display.open(spec)
        case 1, 2: return try APA102Display.open(spec)
        case 3, 4: return try WS2812Display.open(spec)
        default: return nil
        }
    }

    /// Checks an LED spec's keys and values as `open` would, opening nothing (`--check-config`,
    /// and a display whose device is waited for). Not an LED type: nothing to check here.
    public static func checkOptions(_ spec: DisplaySpec) throws(DisplaySpecError) {
        let options: LEDOptionReader
        switch types.firstIndex(of: spec.type) {
        case 0: options = try MAX7219Display.readOptions(spec).1
        case 1, 2: options = try APA102Display.readOptions(spec).1
        case 3, 4: options = try WS2812Display.readOptions(spec).1
        default: return
        }
        try options.checkDryRun()
    }
}
