import Testing
@testable import TerminalUI

@Suite("Display width")
struct DisplayWidthTests {
    @Test("counts cells the way a terminal does", arguments: [
        ("abc", 3), ("日本語", 6), ("😀", 2), ("e\u{301}", 1), ("Ünïcödé", 7),
        ("한글", 4), ("ｆｕｌｌ", 8), ("❤️", 2), ("", 0), ("a\u{200B}b", 2), ("1️⃣", 2),
        // Clusters of several scalars that take cells, counted as wcwidth (and curses) does.
        ("👍🏽", 4), ("🇫🇷", 2), ("👨‍👩‍👧", 6),
    ])
    func widths(text: String, cells: Int) {
        #expect(text.displayWidth == cells)
    }

    @Test("truncates by cells and marks the cut with an ellipsis")
    func truncation() {
        #expect("Groceries".truncated(toWidth: 6) == "Groce…")
        #expect("日本語テキスト".truncated(toWidth: 5) == "日本…")
        #expect("short".truncated(toWidth: 10) == "short")
        #expect("日本".padded(toWidth: 6, alignment: .right) == "  日本")
        #expect("42".padded(toWidth: 5, alignment: .center) == " 42  ")
    }

    @Test("a joined emoji sequence or a flag is drawn as one cell run per scalar that takes cells, nothing left out")
    func clusterUnits() {
        #expect(DisplayWidth.units(of: "👨‍👩‍👧") == ["👨\u{200D}", "👩\u{200D}", "👧"])
        #expect(DisplayWidth.units(of: "🇫🇷") == ["🇫", "🇷"])
        #expect(DisplayWidth.units(of: "e\u{301}") == ["e\u{301}"])
        let buffer = ScreenBuffer(size: Size(width: 12, height: 1))
        let canvas = Canvas(buffer)
        #expect(canvas.write("🇫🇷👍🏽x", x: 0, y: 0) == 7)
        let cells = (0..<8).map { buffer[$0, 0] }
        #expect(cells.map(\.character) == ["🇫", "🇷", "👍", "\u{0}", "🏽", "\u{0}", "x", " "])
        #expect(cells.map(\.width) == [1, 1, 2, 0, 2, 0, 1, 1])
    }
}
