import TerminalUI
@preconcurrency import CNcursesw

/// A pair of colour numbers (-1 for the terminal's default).
struct ColorPairKey: Hashable {
    let foreground: Int16
    let background: Int16
}

extension CursesDriver {
    /// Writes the cells that changed since the last frame, places the cursor, and refreshes.
    public func draw(_ screen: ScreenBuffer) {
        guard isActive, let window = shim_stdscr() else { return }
        let rows = Int(getmaxy(window)), columns = Int(getmaxx(window))
        var wide: [wchar_t] = Array(repeating: 0, count: 8)
        var cell = cchar_t()
        for change in screen.changes(since: previousFrame) where change.y < rows {
            var x = change.x
            wmove(window, Int32(change.y), Int32(x))
            for item in change.cells {
                defer { x += max(1, Int(item.width)) }
                if item.isContinuation { x -= 1; continue }
                guard x + Int(item.width) <= columns else { break }
                var count = 0
                for scalar in item.character.unicodeScalars where count < 5 {
                    wide[count] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                wide[count] = 0
                let (attributes, pair) = attributesAndPair(for: item.style)
                setcchar(&cell, wide, attributes, pair, nil)
                wmove(window, Int32(change.y), Int32(x))
                wadd_wch(window, &cell)
            }
        }
        if let cursor = screen.cursor, cursor.y < rows, cursor.x < columns {
            curs_set(1)
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        wrefresh(window)
        previousFrame = screen.copy()
    }

    /// Attributes and colour pair for a style, with fallbacks: on a monochrome terminal (or with
    /// `NO_COLOR`) a coloured background turns into reverse video.
    func attributesAndPair(for style: Style) -> (attr_t, Int16) {
        var attributes = shim_a_normal()
        if style.bold { attributes |= shim_a_bold() }
        if style.underline { attributes |= shim_a_underline() }
        if style.dim { attributes |= shim_a_dim() }
        var reverse = style.reverse
        var pair: Int16 = 0
        switch colorSupport {
        case .monochrome:
            if !style.background.isDefault { reverse.toggle() }
        case .basic, .palette256:
            let count = colorSupport == .palette256 ? 256 : 8
            let fg = Int16(style.foreground.number(forColorCount: count) ?? -1)
            let bg = Int16(style.background.number(forColorCount: count) ?? -1)
            if fg != -1 || bg != -1 { pair = colorPair(ColorPairKey(foreground: fg, background: bg)) }
        }
        if reverse { attributes |= shim_a_reverse() }
        return (attributes, pair)
    }

    private func colorPair(_ key: ColorPairKey) -> Int16 {
        if let pair = colorPairs[key] { return pair }
        let next = colorPairs.count + 1
        guard next < Int(shim_color_pairs()), next < Int(Int16.max) else { return 0 }
        init_pair(Int16(next), key.foreground, key.background)
        colorPairs[key] = Int16(next)
        return Int16(next)
    }
}
