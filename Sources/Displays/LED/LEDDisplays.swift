/// The LED display types and their factory, for the daemon's display table.
public enum LEDDisplays {
    /// Spec types handled here.
    public static let types = ["max7219", "apa102", "sk9822", "ws2812", "sk6812"]

    /// Opens `spec` if its type is an LED display, else returns nil. Throws `DisplaySpecError` for
    /// a bad option and `DisplayError` when the hardware cannot be reached.
    public static func open(_ spec: DisplaySpec) throws(DisplayOpenError) -> (any Display)? {
        switch spec.type {
        case "max7219": return try MAX7219Display.open(spec)
        case "apa102", "sk9822": return try APA102Display.open(spec)
        case "ws2812", "sk6812": return try WS2812Display.open(spec)
        default: return nil
        }
    }

    /// Checks an LED spec's keys and values as `open` would, opening nothing (`--check-config`,
    /// and a display whose device is waited for). Not an LED type: nothing to check here.
    public static func checkOptions(_ spec: DisplaySpec) throws(DisplaySpecError) {
        let options: LEDOptionReader
        switch spec.type {
        case "max7219": options = try MAX7219Display.readOptions(spec).1
        case "apa102", "sk9822": options = try APA102Display.readOptions(spec).1
        case "ws2812", "sk6812": options = try WS2812Display.readOptions(spec).1
        default: return
        }
        try options.checkDryRun()
    }
}
