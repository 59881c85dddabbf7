import CompactText

/// Rotation of the whole picture: the canvas rotated clockwise by this gives what the LEDs show.
public enum MatrixRotation: Int, Sendable, CaseIterable {
    case none = 0, clockwise90 = 90, half = 180, clockwise270 = 270
    var swapsSides: Bool { self == .clockwise90 || self == .clockwise270 }
}

/// Mirroring applied after the rotation.
public enum MatrixFlip: String, Sendable, CaseIterable {
    case none, horizontal, vertical, both
}

/// Maps physical LED positions (x, y on the panel as seen, after mounting) to canvas pixels:
/// the canvas rotated clockwise by `rotation`, then mirrored by `flip`, is the physical picture.
/// Decided once at open; displays turn it into an index table.
struct MatrixTransform {
    let physicalWidth: Int, physicalHeight: Int
    let rotation: MatrixRotation
    let flip: MatrixFlip

    var canvasWidth: Int { rotation.swapsSides ? physicalHeight : physicalWidth }
    var canvasHeight: Int { rotation.swapsSides ? physicalWidth : physicalHeight }

    /// The canvas pixel shown at physical (x, y).
    func canvasPoint(x px: Int, y py: Int) -> (x: Int, y: Int) {
        var x = px, y = py
        if flip == .horizontal || flip == .both { x = physicalWidth - 1 - x }
        if flip == .vertical || flip == .both { y = physicalHeight - 1 - y }
        let cw = canvasWidth, ch = canvasHeight
        switch rotation {
        case .none: return (x, y)
        case .clockwise90: return (y, ch - 1 - x)
        case .half: return (cw - 1 - x, ch - 1 - y)
        case .clockwise270: return (cw - 1 - y, x)
        }
    }

    func canvasIndex(x: Int, y: Int) -> Int {
        let p = canvasPoint(x: x, y: y)
        return p.y * canvasWidth + p.x
    }
}

/// How LEDs of a strip are wired across a W×H panel.
public enum StripLayout: String, Sendable, CaseIterable {
    /// Every row runs the same way.
    case rows
    /// Rows alternate direction (zig-zag), the usual for flexible panels.
    case serpentine
    /// Every column runs the same way.
    case columns
    /// Columns alternate direction (the common 8x32 flexible WS2812 panels).
    case columnSerpentine = "column-serpentine"
}

/// The corner where the strip's first LED (nearest the controller) sits.
public enum StripOrigin: String, Sendable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
}

enum StripGeometry {
    /// Physical (x, y) of LED `index` on a `width × height` panel.
    static func position(of index: Int, width: Int, height: Int, layout: StripLayout, origin: StripOrigin) -> (x: Int, y: Int) {
        var x: Int, y: Int
        switch layout {
        case .rows, .serpentine:
            y = index / width; x = index % width
            if layout == .serpentine && y % 2 == 1 { x = width - 1 - x }
        case .columns, .columnSerpentine:
            x = index / height; y = index % height
            if layout == .columnSerpentine && x % 2 == 1 { y = height - 1 - y }
        }
        if origin == .topRight || origin == .bottomRight { x = width - 1 - x }
        if origin == .bottomLeft || origin == .bottomRight { y = height - 1 - y }
        return (x, y)
    }

    /// LED index → canvas pixel index, for every LED of the strip.
    static func indexMap(width: Int, height: Int, layout: StripLayout, origin: StripOrigin, transform: MatrixTransform) -> [Int32] {
        (0..<(width * height)).map { i in
            let p = position(of: i, width: width, height: height, layout: layout, origin: origin)
            return Int32(transform.canvasIndex(x: p.x, y: p.y))
        }
    }
}

extension LEDOptionReader {
    // The choices spelled out (the raw values, in `allCases` order) rather than mapped from the
    // cases at each read (for size).
    func stripLayout() -> StripLayout {
        choice("layout", default: .rows, names: "rows, serpentine, columns, column-serpentine", [.rows, .serpentine, .columns, .columnSerpentine])
    }
    func stripOrigin() -> StripOrigin {
        choice("origin", default: .topLeft, names: "top-left, top-right, bottom-left, bottom-right", [.topLeft, .topRight, .bottomLeft, .bottomRight])
    }
}

/// The settings APA102 and WS2812 strips share in their `Configuration`s: where each LED sits
/// and how bright it is. One function reads them from a spec and one turns them into the
/// LED → pixel table, so the two strip displays cannot drift apart. (MAX7219 modules are placed
/// by their own rules and have no gamma, so they are not a strip here.)
protocol StripConfiguration {
    var width: Int { get set }
    var height: Int { get set }
    var layout: StripLayout { get set }
    var origin: StripOrigin { get set }
    var rotation: MatrixRotation { get set }
    var flip: MatrixFlip { get set }
    var brightness: Int { get set }
    var gamma: Double { get set }
}

extension LEDOptionReader {
    /// Reads `size` (required), `layout`, `origin`, `rotate`, `flip`, `brightness` and `gamma`
    /// into `c`, in that order (so a spec with several bad values names the same one first).
    func stripSettings(into c: inout some StripConfiguration) {
        (c.width, c.height) = size("size", default: nil, in: 1...1024)
        if c.width * c.height > 16384 { fail(filled("'size' {}x{} has more than 16384 LEDs", String(c.width), String(c.height))) }
        c.layout = stripLayout()
        c.origin = stripOrigin()
        c.rotation = rotation()
        c.flip = flip()
        c.brightness = brightness(default: 50)
        c.gamma = gamma()
    }
}

extension StripGeometry {
    /// The canvas size and the LED index → canvas pixel table of a strip; built once at open.
    static func resolve(_ c: some StripConfiguration) -> (canvasWidth: Int, canvasHeight: Int, map: [Int32]) {
        let transform = MatrixTransform(physicalWidth: c.width, physicalHeight: c.height, rotation: c.rotation, flip: c.flip)
        let map = indexMap(width: c.width, height: c.height, layout: c.layout, origin: c.origin, transform: transform)
        return (transform.canvasWidth, transform.canvasHeight, map)
    }
}
