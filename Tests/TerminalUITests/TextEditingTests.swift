import Testing
import TestSupport
@testable import TerminalUI

@Suite("Text editing")
struct TextEditingTests {
    func edit(_ text: String, _ script: String) -> TextEditingState {
        var state = TextEditingState(text)
        for key in Key.parse(script) { state.apply(key) }
        return state
    }

    @Test("Emacs keys move and delete like readline")
    func emacsKeys() {
        #expect(edit("hello world", "<C-a>>").text == ">hello world")
        #expect(edit("hello world", "<C-a><C-k>").text == "")
        #expect(edit("hello world", "<C-u>").text == "")
        #expect(edit("hello big world", "<C-w>").text == "hello big ")
        #expect(edit("hello world", "<Home><Right><Right><C-e>!").text == "hello world!")
        #expect(edit("abc", "<Left><BS>").text == "ac")
        #expect(edit("abc", "<Home><Del>").text == "bc")
    }

    @Test("word movement jumps over words")
    func words() {
        let state = edit("one two three", "<M-b><M-b>X")
        #expect(state.text == "one Xtwo three")
        #expect(edit("one two three", "<Home><M-f>_").text == "one_ two three")
        #expect(edit("one two", "<C-Left>[").text == "one [two")
    }

    @Test("undo goes back one typed word or one edit at a time")
    func undo() {
        var state = TextEditingState("")
        for key in Key.parse("hello world") { state.apply(key) }
        state.apply(.control("w"))
        #expect(state.text == "hello ")
        state.apply(.control("_"))
        #expect(state.text == "hello world")
        state.apply(.control("_"))
        #expect(state.text == "hello")
        state.apply(.control("_"))
        #expect(state.text == "")
        #expect(!state.canUndo)
    }

    @Test("long text scrolls so the cursor stays visible, counting wide characters as two cells")
    func scrolling() {
        var state = TextEditingState("日本語のテキストです")
        let (shown, column) = state.visibleText(width: 8)
        #expect(shown == "トです")
        #expect(column == 6)
        for key in Key.parse("<Home>") { state.apply(key) }
        let (start, cursor) = state.visibleText(width: 8)
        #expect(start == "日本語の")
        #expect(cursor == 0)
    }

    @Test("a text field in a window takes typing before the global keys")
    func textFieldGetsKeysFirst() {
        let driver = MemoryDriver(size: Size(width: 30, height: 5))
        let app = Application(driver: driver)
        let window = Window(title: "Find")
        let field = TextField()
        window.addSubview(field)
        window.layout = { _, area in field.frame = Rect(x: area.x, y: area.y, width: 20, height: 1) }
        app.show(window)
        var submitted: String?
        field.onSubmit = { submitted = $0 }
        app.runScript("quiet 日本<Enter>")
        #expect(submitted == "quiet 日本")
        #expect(!app.isQuitting)
        #expect(driver.screenLines[1] == "│quiet 日本                  │")
    }
}
