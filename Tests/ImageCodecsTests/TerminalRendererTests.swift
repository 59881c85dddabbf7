import Displays
import Raster
import Testing

private let esc = "\u{1B}"

@Test func terminalTwoByTwo() {
    var canvas = Canvas(width: 2, height: 2)
    canvas[0, 0] = Color(r: 255, g: 0, b: 0).premultiplied
    canvas[1, 0] = Color(r: 0, g: 255, b: 0).premultiplied
    canvas[0, 1] = Color(r: 0, g: 0, b: 255).premultiplied
    canvas[1, 1] = Color(r: 0, g: 0, b: 255).premultiplied
    let text = TerminalRenderer.frame(canvas, background: .black)
    // One text row: both colours for the first cell, only the foreground changes for the second.
    #expect(text == "\(esc)[38;2;255;0;0;48;2;0;0;255m▀\(esc)[38;2;0;255;0m▀\(esc)[0m\n")
}

@Test func terminalOddHeightPadsWithBackground() {
    var canvas = Canvas(width: 1, height: 3)
    canvas[0, 0] = Color(r: 1, g: 2, b: 3).premultiplied
    canvas[0, 1] = Color(r: 4, g: 5, b: 6).premultiplied
    canvas[0, 2] = Color(r: 0, g: 0, b: 0, a: 0).premultiplied  // transparent: shows the background
    let text = TerminalRenderer.frame(canvas, background: Color(r: 10, g: 20, b: 30))
    #expect(text == "\(esc)[38;2;1;2;3;48;2;4;5;6m▀\(esc)[0m\n"
                  + "\(esc)[38;2;10;20;30;48;2;10;20;30m▀\(esc)[0m\n")
    #expect(TerminalRenderer.rows(forHeight: 3) == 2)
}

@Test func terminalBackgroundOnlyChange() {
    var canvas = Canvas(width: 2, height: 2)
    canvas.clear(to: Color(r: 200, g: 100, b: 50))
    canvas[1, 1] = Color(r: 0, g: 0, b: 0).premultiplied
    let text = TerminalRenderer.frame(canvas, background: .black)
    #expect(text == "\(esc)[38;2;200;100;50;48;2;200;100;50m▀\(esc)[48;2;0;0;0m▀\(esc)[0m\n")
}

@Test func terminalRendererReusesItsBufferAndControlSequences() {
    var renderer = TerminalRenderer()
    var canvas = Canvas(width: 3, height: 4)
    canvas.clear(to: .blue)
    let first = renderer.render(canvas, background: .black)
    let second = renderer.render(canvas, background: .black)
    #expect(first == second)
    #expect(first == TerminalRenderer.frame(canvas, background: .black))
    #expect(TerminalRenderer.cursorHome == "\(esc)[H")
    #expect(TerminalRenderer.hideCursor == "\(esc)[?25l")
    #expect(TerminalRenderer.showCursor == "\(esc)[?25h")
    #expect(TerminalRenderer.clearScreen == "\(esc)[2J")
    #expect(TerminalRenderer.cursorUp(2) == "\(esc)[2A")
    #expect(TerminalRenderer.cursorUp(0) == "")
}
