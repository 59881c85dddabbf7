import Raster
import CompactText

/// Where on the screen a side of the placed image goes.
public enum Anchor: String, Sendable, CaseIterable {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// 0 = start (left/top), 1 = middle, 2 = end (right/bottom).
    public var horizontal: Int {
        switch self {
        case .left, .topLeft, .bottomLeft: 0
        case .center, .top, .bottom: 1
        case .right, .topRight, .bottomRight: 2
        }
    }

    public var vertical: Int {
        switch self {
        case .top, .topLeft, .topRight: 0
        case .center, .left, .right: 1
        case .bottom, .bottomLeft, .bottomRight: 2
        }
    }
}

/// Clockwise rotation of the canvas on the screen.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}

/// The canvas mapped onto the screen: an integer scale, a rotation and the top-left corner of
/// the placed (rotated, scaled) image. Resolved once at open; `show` only walks it.
public struct Placement: Sendable, Equatable {
    public let canvasWidth: Int
    public let canvasHeight: Int
    public let scale: Int
    public let rotation: Rotation
    /// Top-left corner of the placed image on the screen, in screen pixels.
    public let x: Int
    public let y: Int

    /// Size of the rotated canvas before scaling.
    public var rotatedWidth: Int { rotation.swapsAxes ? canvasHeight : canvasWidth }
    public var rotatedHeight: Int { rotation.swapsAxes ? canvasWidth : canvasHeight }
    /// Size of the placed image on the screen.
    public var width: Int { rotatedWidth * scale }
    public var height: Int { rotatedHeight * scale }

    public init(canvasWidth: Int, canvasHeight: Int, scale: Int, rotation: Rotation, x: Int, y: Int) {
        self.canvasWidth = canvasWidth; self.canvasHeight = canvasHeight
        self.scale = scale; self.rotation = rotation; self.x = x; self.y = y
    }

    /// Resolves the spec's choices against a screen. `size` nil: the screen divided by `scale`;
    /// `scale` nil: the largest that fits (or `automaticScale` when the size is not given either).
    /// Returns nil with a reason when the image does not fit.
    public static func resolve(screenWidth: Int, screenHeight: Int, size: (width: Int, height: Int)?, scale: Int?,
                        rotation: Rotation, anchor: Anchor, offsetX: Int, offsetY: Int) -> Result<Placement, PlacementError> {
        // The screen as the canvas sees it (rotated back).
        let sw = rotation.swapsAxes ? screenHeight : screenWidth
        let sh = rotation.swapsAxes ? screenWidth : screenHeight
        var canvasWidth: Int, canvasHeight: Int, s: Int
        switch (size, scale) {
        case let (size?, scale?):
            canvasWidth = size.width; canvasHeight = size.height; s = scale
        case let (size?, nil):
            canvasWidth = size.width; canvasHeight = size.height
            s = min(sw / size.width, sh / size.height)
            if s < 1 { return .failure(.doesNotFit(filled("the canvas {}x{} is larger than the screen ({}{})", String(size.width), String(size.height), filled("{}x{}", String(screenWidth), String(screenHeight)), rotation == .none ? "" : filled(" rotated {}°", String(rotation.rawValue))))) }
        case let (nil, scale):
            s = scale ?? automaticScale(screenWidth: sw, screenHeight: sh)
            canvasWidth = min(Canvas.maximumSide, sw / s); canvasHeight = min(Canvas.maximumSide, sh / s)
            if canvasWidth < 1 || canvasHeight < 1 { return .failure(.doesNotFit(filled("scale {} leaves no canvas on a {}x{} screen", String(s), String(screenWidth), String(screenHeight)))) }
        }
        let rw = (rotation.swapsAxes ? canvasHeight : canvasWidth) * s
        let rh = (rotation.swapsAxes ? canvasWidth : canvasHeight) * s
        func along(_ choice: Int, _ screen: Int, _ image: Int) -> Int { choice == 0 ? 0 : choice == 1 ? (screen - image) / 2 : screen - image }
        let x = along(anchor.horizontal, screenWidth, rw) + offsetX
        let y = along(anchor.vertical, screenHeight, rh) + offsetY
        guard x >= 0, y >= 0, x + rw <= screenWidth, y + rh <= screenHeight else {
            return .failure(.doesNotFit(filled("the canvas {}x{} at scale {}{} ", String(canvasWidth), String(canvasHeight), String(s), rotation == .none ? "" : filled(", rotated {}°,", String(rotation.rawValue)))
                + filled("placed at {},{} is {} screen pixels and leaves the {} screen", String(x), String(y), filled("{}x{}", String(rw), String(rh)), filled("{}x{}", String(screenWidth), String(screenHeight)))))
        }
        return .success(Placement(canvasWidth: canvasWidth, canvasHeight: canvasHeight, scale: s, rotation: rotation, x: x, y: y))
    }

    /// The scale of a whole-screen canvas when neither `size` nor `scale` is given: the smallest
    /// that keeps the canvas's shorter side at 600 pixels or less (800x480: 1, 1280x720 and
    /// 1920x1080: 2, 3840x2160: 4). Fine enough that a boot screen's anti-aliased bar and text
    /// look like a screen's and not like blown-up pixels (a fixed 4 made 1280x800 a 320x200
    /// canvas), and small enough that a frame stays cheap on a Pi Zero driving a 1080p monitor.
    public static func automaticScale(screenWidth: Int, screenHeight: Int) -> Int {
        Swift.max(1, (Swift.min(screenWidth, screenHeight) + 599) / 600)
    }

    /// The canvas pixel shown at placed (rotated, unscaled) position (u, v) is at
    /// `origin + u × du + v × dv` in the row-major canvas.
    public var sourceWalk: (origin: Int, du: Int, dv: Int) {
        let w = canvasWidth, h = canvasHeight
        switch rotation {
        case .none: return (0, 1, w)
        case .quarter: return ((h - 1) * w, -w, 1)          // x = v, y = h-1-u
        case .half: return (w * h - 1, -1, -w)              // x = w-1-u, y = h-1-v
        case .threeQuarters: return (w - 1, w, -1)          // x = w-1-v, y = u
        }
    }

    /// The placed (rotated, unscaled) rectangle covering canvas rectangle `r`.
    public func rotated(_ r: PixelRect) -> PixelRect {
        let w = canvasWidth, h = canvasHeight
        switch rotation {
        case .none: return r
        case .quarter: return PixelRect(x: h - r.maxY, y: r.x, width: r.height, height: r.width)
        case .half: return PixelRect(x: w - r.maxX, y: h - r.maxY, width: r.width, height: r.height)
        case .threeQuarters: return PixelRect(x: r.y, y: w - r.maxX, width: r.height, height: r.width)
        }
    }
}

public enum PlacementError: Error { case doesNotFit(String) }
