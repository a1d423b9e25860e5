import Testing
@testable import TerminalUI

@Suite("Display width")
struct DisplayWidthTests {
    @Test("counts cells the way a terminal does", arguments: [
        ("abc", 3), ("日本語", 6), ("😀", 2), ("e\u{301}", 1), ("Ünïcödé", 7),
        ("한글", 4), ("ｆｕｌｌ", 8), ("👍🏽", 2), ("❤️", 2), ("", 0), ("a\u{200B}b", 2),
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
}
