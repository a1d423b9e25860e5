extension Key: CustomStringConvertible {
    /// How the key is written in help screens and the status bar: `j`, `Enter`, `Ctrl-A`, `F1`.
    public var description: String {
        switch self {
        case let .character(c): return c == " " ? "Space" : String(c)
        case let .control(c): return "Ctrl-" + String(c).uppercased()
        case let .alt(c): return "Alt-" + String(c)
        case let .function(n): return "F\(n)"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .controlLeft: return "Ctrl-←"
        case .controlRight: return "Ctrl-→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .insert: return "Ins"
        case .delete: return "Del"
        case .backspace: return "Backspace"
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .escape: return "Esc"
        }
    }

    private static let named: [String: Key] = [
        "enter": .enter, "cr": .enter, "return": .enter, "tab": .tab, "s-tab": .backTab,
        "backtab": .backTab, "esc": .escape, "escape": .escape, "bs": .backspace,
        "backspace": .backspace, "del": .delete, "delete": .delete, "ins": .insert,
        "insert": .insert, "up": .up, "down": .down, "left": .left, "right": .right,
        "c-left": .controlLeft, "c-right": .controlRight, "home": .home, "end": .end,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "space": .character(" "), "lt": .character("<"),
    ]

    /// One key in script notation: `j`, `<Enter>`, `<C-a>`, `<M-b>`, `<F1>`, `<S-Tab>`, `<PgDn>`.
    public init?(notation: String) {
        if notation.count == 1, let c = notation.first {
            self = Key.fromCharacter(c)
            return
        }
        guard notation.hasPrefix("<"), notation.hasSuffix(">") else { return nil }
        let name = notation.dropFirst().dropLast().lowercased()
        if let key = Key.named[name] { self = key; return }
        if name.hasPrefix("c-"), name.count == 3, let c = name.last { self = .control(c); return }
        if name.hasPrefix("m-") || name.hasPrefix("a-"), name.count == 3 {
            self = .alt(notation.dropFirst().dropLast().last!)
            return
        }
        if name.hasPrefix("f"), let n = Int(name.dropFirst()), (1...24).contains(n) { self = .function(n); return }
        return nil
    }

    /// A key script as a list of keys: `"jj<Enter>x<Esc>"`.
    ///
    /// Text outside angle brackets types one key per character; `<` alone is `<lt>`.
    public static func parse(_ script: String) -> [Key] {
        var keys: [Key] = []
        var index = script.startIndex
        while index < script.endIndex {
            let c = script[index]
            if c == "<", let close = script[index...].firstIndex(of: ">"),
               let key = Key(notation: String(script[index...close])) {
                keys.append(key)
                index = script.index(after: close)
            } else {
                keys.append(Key.fromCharacter(c))
                index = script.index(after: index)
            }
        }
        return keys
    }
}
