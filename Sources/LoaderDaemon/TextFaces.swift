import Loaders
import Raster
import CompactText

/// A face loaded for screens' text (nil: it could not be, and the reason was logged).
struct LoadedFace {
    let font: ScreenFont
    let pixelSize: Int
    let atlas: GlyphAtlas?
}

extension Daemon {
    /// Gives every scene that waits for a face its face, loading each font and size once for the
    /// daemon's life (until SIGHUP): a new `start` on the same screen reuses the atlas, so FreeType
    /// and the font are opened once, after the first frame that wanted text. A face that cannot be
    /// had is logged once; those screens keep the bitmap font.
    /// A new scene gets the face already loaded for its font and size (or its absence) at once:
    /// its first frame then draws its text, rather than one frame without it on every `start`.
    func giveKnownFace(to scene: inout Scene) {
        guard scene.drawsFaceText else { return }
        let size = TextFace.pixelSize(canvasWidth: scene.canvas.width, height: scene.canvas.height)
        if let known = faces.first(where: { $0.font == scene.options.font && $0.pixelSize == size }) {
            scene.useFace(known.atlas)
        }
    }

    func giveFaces(now: Int64) {
        facesWanted = false
        for slot in slots {
            guard let request = slot.scene?.faceRequest else { continue }
            let face: GlyphAtlas?
            if let known = faces.first(where: { $0.font == request.font && $0.pixelSize == request.pixelSize }) {
                face = known.atlas
            } else {
                do throws(TextFaceError) {
                    face = try TextFace.load(request.font, pixelSize: request.pixelSize)
                    logger.debug(filled("text: {}-pixel face loaded", String(request.pixelSize)))
                } catch {
                    face = nil
                    logger.notice(filled("text: {}; screens use the bitmap font", error.description))
                }
                faces.append(LoadedFace(font: request.font, pixelSize: request.pixelSize, atlas: face))
            }
            slot.scene!.useFace(face)
            slot.invalidate(now: now)
            // The frame drawn without its text is replaced at once, not at the next tick.
            slot.deadline = now
        }
    }
}
