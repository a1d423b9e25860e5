import Testing
import TestSupport
@testable import TerminalUI

@Suite("Colours, themes and labels")
struct StyleTests {
    @Test("palette colours fall back to their basic colour on 8-colour terminals")
    func colourFallback() {
        let accent = Color.palette(81, fallback: .cyan)
        #expect(accent.number(forColorCount: 256) == 81)
        #expect(accent.number(forColorCount: 8) == Color.Basic.cyan.rawValue)
        #expect(Color.bright(.red).number(forColorCount: 16) == 9)
        #expect(Color.bright(.red).number(forColorCount: 8) == 1)
        #expect(Color.default.number(forColorCount: 256) == nil)
    }

    @Test("a monochrome terminal gets the theme that marks selection with reverse video")
    func monochromeTheme() {
        let mono = Application(driver: MemoryDriver(colorSupport: .monochrome))
        #expect(mono.theme == .monochrome)
        #expect(mono.theme.selection.reverse)
        let colour = Application(driver: MemoryDriver(colorSupport: .palette256))
        #expect(colour.theme == .standard)
    }

    @Test("a selected row is drawn in the selection style, the selected cell in its own")
    func selectionStyles() {
        let harness = TableHarness(rows: RecordingRows(count: 3))
        harness.run("jl")
        let screen = harness.driver.screen!
        let theme = harness.app.theme
        #expect(screen[1, 4].style == theme.selection)
        #expect(screen[6, 4].style == theme.selectedCell)
        #expect(screen[1, 3].style == theme.normal)
        #expect(screen[1, 1].style == theme.header)
    }

    @Test("cells the data source marks as changed or dimmed stand out, except on the selected row")
    func emphasis() {
        let harness = TableHarness(rows: RecordingRows(count: 4))
        harness.run("jl<Enter><C-u>Changed<Enter>j")
        let screen = harness.driver.screen!
        let theme = harness.app.theme
        #expect(screen[6, 4].style == theme.modified)
        #expect(screen[6, 3].style == theme.normal)
        #expect(screen[27, 5].style == theme.selection)
        #expect(screen[27, 6].style == theme.normal)
        harness.run("j")
        #expect(harness.driver.screen![27, 5].style == theme.dimmed)
    }

    @Test("a label cuts its text to its width in its role's style")
    func label() {
        let screen = ScreenBuffer(size: Size(width: 10, height: 1))
        let label = Label("Due today and tomorrow", role: \.header)
        label.draw(in: Canvas(screen).subcanvas(Rect(x: 1, y: 0, width: 8, height: 1)))
        #expect(screen.lines == [" Due tod…"])
        #expect(screen[1, 0].style == Theme.standard.header)
    }
}
