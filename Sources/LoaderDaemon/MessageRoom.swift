import Displays
import Loaders
import Raster
import CompactText

extension Daemon {
    /// A screen with no room for the message under its loader (a large logo and loader on a small
    /// screen, a wide margin) leaves the message out. The display's log line says so once, and
    /// again once the message has fitted in between. Asked when the message or the loader changes,
    /// not each frame.
    func noteMessageRoom() {
        guard let message = state.drawnMessage, !message.isEmpty else { return }
        for slot in slots {
            guard let room = slot.messageRoom(message) else { continue }
            if !room.fits && !slot.saidNoRoom {
                logger.warning(filled("{}: no room for the message under the loader ({}x{}): not drawn; a smaller screen.logo, screen.loaderSize or screen.margin makes room", slot.display.name, String(room.width), String(room.height)))
            }
            slot.saidNoRoom = !room.fits
        }
    }
}
