import Displays
import CompactText

/// The display types `--display TYPE:...` (and the config) can name: one line per type.
public enum DisplayFactory {
    /// `open` and the readers below switch on a type's place here rather than keep a closure per
    /// type in the table (for size).
    public static let types: [(type: String, usage: String)] = [
        ("image", "image:path=FILE.ppm|FILE.png,size=WxH[,background=COLOR][,fps=N]"),
        ("terminal", "terminal:size=WxH[,fps=N][,background=COLOR]"),
        ("fb", "fb:device=/dev/fb0|FILE,geometry=WxH,format=F[,stride=N][,size=WxH][,scale=N][,anchor=A][,x=N][,y=N][,rotate=DEG][,background=COLOR][,console=graphics|keep][,vsync=on|off][,buffers=auto|1|2][,fps=N] (see docs/HARDWARE.md)"),
        ("drm", "drm:device=auto|/dev/dri/cardN[,connector=NAME][,mode=WxH[@HZ]][,format=xrgb8888|rgb565][,size=WxH][,scale=N][,anchor=A][,x=N][,y=N][,rotate=DEG][,background=COLOR][,console=graphics|keep][,buffers=auto|1|2][,fps=N] (see docs/HARDWARE.md)"),
        ("auto", "auto[:size=WxH,scale=N,…] (DRM when a card has a connected output, else /dev/fb0; the keys of drm: but device=)"),
        ("max7219", "max7219:spi=/dev/spidev0.0|gpiochip=CHIP,clock=N,data=N,latch=N[,modules=N][,rows=N][,block_orientation=0|90|-90|180][,reverse_order=BOOL][,rotate=DEG][,flip=…][,brightness=0-100][,mono=threshold|dither][,dry-run=true|FILE.png|FILE.ppm] (see docs/HARDWARE.md)"),
        ("apa102", "apa102:spi=/dev/spidev0.0|gpiochip=CHIP,clock=N,data=N,size=WxH[,layout=rows|serpentine|columns|column-serpentine][,origin=…][,rotate=DEG][,brightness=0-100][,gamma=G][,dry-run=true|FILE.png|FILE.ppm] (sk9822: the same)"),
        ("sk9822", "sk9822: as apa102, with SK9822's end frame"),
        ("ws2812", "ws2812:spi=/dev/spidev0.0,size=WxH[,encoding=3|8][,order=grb][,reset_us=N][,layout=…][,brightness=0-100][,gamma=G][,dry-run=true|FILE.png|FILE.ppm] (sk6812: the same)"),
        ("sk6812", "sk6812: as ws2812"),
    ]

    /// Places in `types` that `DisplaySlot.devicePath` and `AutoSearch` switch on: fb, drm, auto,
    /// and the LED types from here on.
    static let framebufferIndex = 2, drmIndex = 3, autoIndex = 4, firstLEDIndex = 5

    /// The keys each type accepts, to check a spec without opening anything (`--check-config`).
    static func acceptedKeys(for type: String) -> [String]? {
        guard let index = typeIndex(type) else { return nil }
        return acceptedKeys(at: index)
    }

    /// `type`'s place in `types`, nil for none: the types' names compared in one loop, and the
    /// functions below switching on the place (a jump table) rather than each on the name (a
    /// chain of string comparisons, each inline).
    @inline(never) static func typeIndex(_ type: String) -> Int? { types.firstIndex { $0.type == type } }

    /// The keys of the type at `index` in `types` (the cases follow the table's order).
    private static func acceptedKeys(at index: Int) -> [String] {
        switch index {
        case 0: return ImageDisplay.acceptedKeys
        case 1: return TerminalDisplay.acceptedKeys
        case 2: return FramebufferDisplay.acceptedKeys
        case 3: return DRMDisplay.acceptedKeys
        case 4: return AutoDisplay.acceptedKeys
        case 5: return MAX7219Display.acceptedKeys
        case 6, 7: return APA102Display.acceptedKeys
        default: return WS2812Display.acceptedKeys
        }
    }

    static func unknownType(_ spec: DisplaySpec) -> DisplaySpecError {
        let names = typeNames
        let hint = suggestion(for: spec.type, among: names).map { filled(" (did you mean '{}'?)", $0) } ?? ""
        return DisplaySpecError(spec: spec.description, message: filled("unknown display type '{}'{}; types: {}", spec.type, hint, joined(names, separator: ", ")))
    }

    /// The types' names in table order, by a loop: a `map` over `types` is a specialisation of
    /// its own for each closure (for size). For the refusals of an unknown type.
    @inline(never) static var typeNames: [String] {
        var names: [String] = []
        for t in types { names.append(t.type) }
        return names
    }

    /// Checks `spec` as opening it would — its type, its keys and every value — without opening
    /// anything: `--check-config`, the config file's [[display]] tables, and a display whose
    /// device is waited for (its values would otherwise be checked only when the device appears).
    /// Out of line: inlined into its callers, it cost more than the jump table saved.
    @inline(never) public static func check(_ spec: DisplaySpec) throws(DisplaySpecError) {
        guard let index = typeIndex(spec.type) else { throw unknownType(spec) }
        try spec.checkKeys(acceptedKeys(at: index))
        switch index {
        case 0: try ImageDisplay.checkOptions(spec)
        case 1: try TerminalDisplay.checkOptions(spec)
        case 2: try FramebufferDisplay.checkOptions(spec)
        case 3, 4: try DRMDisplay.checkOptions(spec)
        default: try LEDDisplays.checkOptions(spec)
        }
    }

    /// Out of line: the start's error and loaderd's help each had a copy (for size).
    /// The usages joined by a loop, not `map` and `joined` (for size).
    @inline(never) public static var typeList: String {
        var list = ""
        for t in types {
            if !list.isEmpty { list += "; " }
            list += t.usage
        }
        return list
    }

    public static func open(_ spec: DisplaySpec) throws(DisplaySpecError) -> any Display {
        guard let index = typeIndex(spec.type) else { throw unknownType(spec) }
        switch index {
        case 0: return try ImageDisplay.open(spec)
        case 1: return try TerminalDisplay.open(spec)
        default: break
        }
        // The other types report bad options as `DisplaySpecError` and unreachable hardware as
        // `DisplayError` (or a transport error): both become spec errors, keeping the message.
        do throws(DisplayOpenError) {
            switch index {
            case 2: return try FramebufferDisplay.open(spec)
            case 3: return try DRMDisplay.open(spec)
            case 4: return try AutoDisplay.open(spec)
            case 5: return try MAX7219Display.open(spec)
            case 6, 7: return try APA102Display.open(spec)
            default: return try WS2812Display.open(spec)
            }
        } catch { throw error.asSpecError(spec) }
    }
}
