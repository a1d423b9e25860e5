import Testing
import TestSupport
@testable import TerminalUI

@Suite("Screen buffer and canvas")
struct ScreenBufferTests {
    @Test("a wide character takes two cells and reads back once")
    func wideCharacters() {
        let screen = ScreenBuffer(size: Size(width: 8, height: 1))
        let canvas = Canvas(screen)
        canvas.write("a日b", x: 0, y: 0)
        #expect(screen.lines == ["a日b"])
        #expect(screen[1, 0].width == 2)
        #expect(screen[2, 0].isContinuation)
        #expect(screen[3, 0].character == "b")
    }

    @Test("control characters show as control pictures, one cell each, and are counted when text is cut")
    func controlCharacters() {
        let screen = ScreenBuffer(size: Size(width: 20, height: 2))
        let canvas = Canvas(screen)
        let text = "hello\nworld\ttab\u{7F}"
        #expect(text.displayWidth == 16)
        canvas.write(text, x: 0, y: 0, width: 20, style: .plain)
        canvas.write(text, x: 0, y: 1, width: 12, style: .plain)
        #expect(screen.lines == ["hello␊world␉tab␡", "hello␊world…"])
    }

    @Test("overwriting half of a wide character blanks the other half")
    func overwritingHalf() {
        let screen = ScreenBuffer(size: Size(width: 6, height: 1))
        let canvas = Canvas(screen)
        canvas.write("日本", x: 0, y: 0)
        canvas.put("x", x: 1, y: 0, style: .plain)
        #expect(screen.lines == [" x本"])
    }

    @Test("drawing is clipped to the view and to the screen, never failing")
    func clipping() {
        let screen = ScreenBuffer(size: Size(width: 10, height: 3))
        let canvas = Canvas(screen).subcanvas(Rect(x: 6, y: 1, width: 10, height: 5))
        canvas.write("abcdefgh", x: 0, y: 0)
        canvas.write("below", x: 0, y: 4)
        canvas.write("left", x: -3, y: 1)
        canvas.box(Rect(x: -2, y: -2, width: 30, height: 30), style: .plain)
        #expect(screen.lines == ["", "      abcd", "      t"])
    }

    @Test("a wide character that would hang over the right edge leaves a blank")
    func wideAtEdge() {
        let screen = ScreenBuffer(size: Size(width: 3, height: 1))
        let canvas = Canvas(screen)
        canvas.write("ab日", x: 0, y: 0)
        #expect(screen.lines == ["ab"])
        canvas.put("本", x: 2, y: 0, style: .plain)
        #expect(screen.lines == ["ab"])
    }

    @Test("changes since the last frame cover only the cells that differ")
    func changes() {
        let first = ScreenBuffer(size: Size(width: 10, height: 3))
        Canvas(first).write("hello", x: 0, y: 1)
        let second = first.copy()
        Canvas(second).write("J", x: 0, y: 1)
        Canvas(second).write("日", x: 5, y: 2)
        let changes = second.changes(since: first)
        #expect(changes.count == 2)
        #expect(changes[0].y == 1 && changes[0].x == 0 && changes[0].cells.map(\.character) == ["J"])
        #expect(changes[1].y == 2 && changes[1].x == 5 && changes[1].cells.count == 2)
        #expect(second.changes(since: nil).count == 3)
        #expect(second.changes(since: second.copy()).isEmpty)
    }

    @Test("a box draws a titled border")
    func box() {
        let screen = ScreenBuffer(size: Size(width: 14, height: 3))
        Canvas(screen).box(Rect(x: 0, y: 0, width: 14, height: 3), style: .plain, title: "Tasks")
        assertScreen(screen.lines, [
            "┌─ Tasks ────┐",
            "│            │",
            "└────────────┘",
        ])
    }
}
