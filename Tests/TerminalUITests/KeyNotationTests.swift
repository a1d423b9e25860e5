import Testing
@testable import TerminalUI

@Suite("Key notation")
struct KeyNotationTests {
    @Test("a script reads plain characters and named keys in angle brackets")
    func script() {
        #expect(Key.parse("jj<Enter>") == [.character("j"), .character("j"), .enter])
        #expect(Key.parse("<C-a><M-b><F10><S-Tab><PgDn>") == [.control("a"), .alt("b"), .function(10), .backTab, .pageDown])
        #expect(Key.parse("a<b") == [.character("a"), .character("<"), .character("b")])
        #expect(Key.parse("<Esc>日") == [.escape, .character("日")])
    }

    @Test("control codes from the terminal become named keys")
    func controlCodes() {
        #expect(Key.fromCharacter("\u{1}") == .control("a"))
        #expect(Key.fromCharacter("\r") == .enter)
        #expect(Key.fromCharacter("\u{7F}") == .backspace)
        #expect(Key.fromCharacter("\u{1F}") == .control("_"))
        #expect(Key.fromCharacter("\t") == .tab)
    }

    @Test("keys are written for people in help and hints")
    func descriptions() {
        #expect(Key.control("s").description == "Ctrl-S")
        #expect(Key.function(1).description == "F1")
        #expect(Key.character(" ").description == "Space")
        #expect(Key.backTab.description == "Shift-Tab")
    }
}
