import Raster

// A screen whose background is light (`screen.background=white`: a company's white splash with
// its logo). The catalog's designs are for a dark screen: the page dots, the worm and the bar are
// white, and vanished on it; the gray message line read at 3.3:1. On a light background those
// white parts are drawn black at the same opacity, and the default gray message darker (7.4:1).
// A colour given as anything but white is the user's choice and stays; QuizUp's bolt (drawn on its
// circles), the LinkedIn bar (blue on gray) and the skeleton (gray blocks) already show there.

extension Color {
    /// Opaque enough to be the screen, and lighter than the middle (luma with BT.601's weights).
    public var isLight: Bool { a >= 128 && 54 * Int(r) + 183 * Int(g) + 19 * Int(b) >= 160 * 256 }

    /// White at any opacity as black at that opacity; any other colour as it is.
    func inkOnLight() -> Color { r == 255 && g == 255 && b == 255 ? Color(r: 0, g: 0, b: 0, a: a) : self }

    /// The message line's default gray, darker for a light background.
    static let messageGrayOnLight = Color(r: 0x55, g: 0x55, b: 0x5A)
}

extension AnyLoader {
    /// The loader as drawn on a light background (see above).
    func onLightBackground() -> AnyLoader {
        switch self {
        case .pagedots(var l):
            l.color = l.color.inkOnLight()
            return .pagedots(l)
        case .worm(var l):
            l.baseColor = l.baseColor.inkOnLight()
            l.headColor = l.headColor.inkOnLight()
            return .worm(l)
        case .bar(var l):
            l.fill = l.fill.inkOnLight()
            l.track = l.track.inkOnLight()
            return .bar(l)
        case .linkedin, .quizup, .shimmer, .skeleton:
            return self
        }
    }
}
