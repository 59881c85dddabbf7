import FixedPoint
import ImageCodecs
import Raster

/// Where the parts of a scene go: the composed boot screen of a framebuffer (logo, loader at a
/// size chosen for the screen, message below it with a gap that scales, margins), or the packed
/// layout of an LED matrix (the loader fills what the message leaves).
///
/// A canvas is a *screen* from 320x200 on (the smallest framebuffers); anything smaller is an LED
/// matrix or a small panel, where every pixel goes to the loader.
public struct BootScreenLayout: Sendable, Equatable {
    /// The area the loader is laid out in (its own layout then fits or stretches inside).
    public var loader: PixelRect
    /// Where the message line goes, when there is room for one.
    public var message: PixelRect?
    /// Where the logo goes (its scaled size), when there is one.
    public var logo: PixelRect?
    /// The area of the success/failure mark.
    public var mark: PixelRect

    /// At least this wide and this tall: a framebuffer, composed as a boot screen.
    public static let screenMinimum = (width: 320, height: 200)

    public static func isScreen(width: Int, height: Int) -> Bool {
        width >= screenMinimum.width && height >= screenMinimum.height
    }

    /// The largest margin that leaves a `width × height` canvas a pixel to draw in: a margin is
    /// taken from every side, and a larger one leaves a blank frame.
    public static func largestMargin(width: Int, height: Int) -> Int {
        Swift.max(0, (Swift.min(width, height) - 1) / 2)
    }

    /// Lays out a `width × height` canvas for `loader` (its design size `design`), the message
    /// line `messageHeight` tall (0: no message), and a logo of `logoSize` (already scaled).
    /// Out of line, for size: the scene's placement and the daemon's message check each had a copy.
    @inline(never)
    public static func compute(width: Int, height: Int, options: SceneOptions, design: DesignSize, kind: LoaderKind,
                               drawsMessage: Bool, messageHeight: Int, logoSize: (width: Int, height: Int)?) -> BootScreenLayout {
        let screen = isScreen(width: width, height: height)
        // A margin too large for the canvas is cut to the largest that fits rather than leave a
        // blank frame; the daemon says so in its log (loaderctl refuses it).
        let margin = Swift.min(options.margin ?? (screen ? Swift.min(width, height) / 20 : 0), largestMargin(width: width, height: height))
        let inner = PixelRect(x: margin, y: margin, width: Swift.max(1, width - 2 * margin), height: Swift.max(1, height - 2 * margin))
        if !screen { return packed(inner, messageHeight: drawsMessage ? 0 : messageHeight) }

        // A screen: sizes follow the shorter side u, so 800x480 and 1920x1080 look alike.
        let u = Swift.min(inner.width, inner.height)
        let percent = Swift.max(10, options.loaderSize)
        var box: (w: Int, h: Int)
        switch kind {
        case .linkedin, .bar:
            box = (u * 45 / 100, Swift.max(6, u / 45))
        case .pagedots, .skeleton:
            box = (u * 45 / 100, u * 12 / 100)
        case .shimmer:
            // The message is the loader: as wide as a message line, so a long one is cut where
            // any loader's message line would cut it.
            box = (inner.width, Swift.max(messageHeight, 9))
        case .quizup, .worm:
            box = (u * 14 / 100, u * 14 / 100)
        }
        box = (Swift.min(inner.width, Swift.max(1, box.w * percent / 100)), Swift.min(inner.height, Swift.max(1, box.h * percent / 100)))
        if kind != .linkedin && kind != .bar && kind != .shimmer {
            // The box the design fits in, no larger: the stack below is measured from it.
            let fitted = Layout.fit(design: design, into: PixelRect(x: 0, y: 0, width: box.w, height: box.h)).rect
            box = (fitted.width.rounded, fitted.height.rounded)
        }
        let gap = Swift.max(4, u * 5 / 100)
        let showMessage = messageHeight > 0 && !drawsMessage
        let logoGap = Swift.max(8, u * 8 / 100)
        var stack = box.h
        if let logoSize { stack += logoSize.height + logoGap }
        var top = inner.y + (inner.height - stack) / 2
        var logoRect: PixelRect? = nil
        if let logoSize {
            logoRect = PixelRect(x: inner.x + (inner.width - logoSize.width) / 2, y: top, width: logoSize.width, height: logoSize.height)
            top += logoSize.height + logoGap
        }
        let loader = PixelRect(x: inner.x + (inner.width - box.w) / 2, y: top, width: box.w, height: box.h)
        var message: PixelRect? = nil
        if showMessage {
            let y = loader.maxY + gap
            if y + messageHeight <= inner.maxY { message = PixelRect(x: inner.x, y: y, width: inner.width, height: messageHeight) }
        }
        // The mark is a disc at least 14 % of u, centred where the loader was.
        let side = Swift.min(inner.height, Swift.max(box.h, u * 14 / 100))
        let mark = PixelRect(x: loader.x + (loader.width - side) / 2, y: loader.y + (loader.height - side) / 2, width: side, height: side)
        return BootScreenLayout(loader: loader, message: message, logo: logoRect, mark: mark)
    }

    /// LED matrices: the loader takes everything the message line (and its gap) leaves; the message
    /// is left out where the loader would keep less than a third of the height (or 4 pixels).
    static func packed(_ inner: PixelRect, messageHeight: Int) -> BootScreenLayout {
        guard messageHeight > 0 else { return BootScreenLayout(loader: inner, message: nil, logo: nil, mark: inner) }
        let gap = Swift.max(1, messageHeight / 4)
        let loaderHeight = inner.height - messageHeight - gap
        guard loaderHeight >= Swift.max(4, inner.height / 3) else {
            return BootScreenLayout(loader: inner, message: nil, logo: nil, mark: inner)
        }
        let loader = PixelRect(x: inner.x, y: inner.y, width: inner.width, height: loaderHeight)
        return BootScreenLayout(loader: loader, message: PixelRect(x: inner.x, y: loader.maxY + gap, width: inner.width, height: messageHeight),
                                logo: nil, mark: loader)
    }
}

/// A logo decoded once and scaled once, premultiplied, ready to be copied into each frame.
public struct Logo: Sendable {
    public let width: Int
    public let height: Int
    let pixels: [Pixel]

    /// The largest logo file read, and the most pixels decoded: a logo is at most a screen's worth,
    /// and a wrong path must not cost a board its memory.
    public static let maximumFileBytes = 16 << 20
    public static let maximumPixels = 4096 * 4096

    /// Reads the PNG or binary PPM at `path` and scales it (area average, never enlarged) to fit
    /// `maxWidth × maxHeight`.
    public static func load(path: String, maxWidth: Int, maxHeight: Int) throws(ImageCodecError) -> Logo {
        let image = try ImageFile.readStill(path: path, background: .black, maxBytes: maximumFileBytes, maxPixels: maximumPixels)
        return Logo(image, maxWidth: maxWidth, maxHeight: maxHeight)
    }

    init(_ image: RGBImage, maxWidth: Int, maxHeight: Int) {
        let iw = Swift.max(1, image.width), ih = Swift.max(1, image.height)
        var w = iw, h = ih
        if w > maxWidth || h > maxHeight {
            // Fit, comparing ratios in integers.
            if Int64(maxWidth) * Int64(ih) <= Int64(maxHeight) * Int64(iw) {
                w = Swift.max(1, maxWidth); h = Swift.max(1, Int(Int64(ih) * Int64(w) / Int64(iw)))
            } else {
                h = Swift.max(1, maxHeight); w = Swift.max(1, Int(Int64(iw) * Int64(h) / Int64(ih)))
            }
        }
        var pixels = [Pixel](transparentCount: w * h)
        // Box filter: each output pixel averages the source pixels whose centres fall in it.
        for y in 0..<h {
            let sy0 = y * ih / h, sy1 = Swift.max(sy0 + 1, (y + 1) * ih / h)
            for x in 0..<w {
                let sx0 = x * iw / w, sx1 = Swift.max(sx0 + 1, (x + 1) * iw / w)
                var r = 0, g = 0, b = 0, n = 0
                for sy in sy0..<sy1 {
                    for sx in sx0..<sx1 {
                        let i = (sy * iw + sx) * 3
                        r += Int(image.bytes[i]); g += Int(image.bytes[i + 1]); b += Int(image.bytes[i + 2]); n += 1
                    }
                }
                pixels[y * w + x] = Pixel(r: UInt8(r / n), g: UInt8(g / n), b: UInt8(b / n), a: 255)
            }
        }
        width = w; height = h; self.pixels = pixels
    }

    /// Copies the logo with its top-left at (x, y), clipped to the canvas.
    func draw(into canvas: inout Canvas, x: Int, y: Int, opacity: UInt8) {
        canvas.store(pixels, blockWidth: width, x: x, y: y, opacity: opacity)
    }
}
