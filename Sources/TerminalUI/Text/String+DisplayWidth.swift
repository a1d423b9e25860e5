extension String {
    /// The number of terminal cells this string takes.
    ///
    ///     "日本語".displayWidth   // 6
    public var displayWidth: Int { DisplayWidth.of(self) }

    /// The longest prefix that fits in `width` cells, with `…` when something was cut.
    ///
    ///     "Groceries".truncated(toWidth: 6)   // "Groce…"
    public func truncated(toWidth width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if displayWidth <= width { return self }
        let limit = ellipsis ? width - 1 : width
        var result = "", used = 0
        for character in self {
            let w = DisplayWidth.of(character)
            if used + w > limit { break }
            result.append(character)
            used += w
        }
        return ellipsis ? result + "…" : result
    }

    /// The longest suffix that fits in `width` cells, after `…` when something was cut: for
    /// text whose end matters most.
    ///
    ///     "3 items · 2 unsaved changes".truncatedFromStart(toWidth: 18)   // "…2 unsaved changes"
    public func truncatedFromStart(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if displayWidth <= width { return self }
        var kept: [Character] = [], used = 0
        for character in reversed() {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return "…" + String(kept.reversed())
    }

    /// The string cut or padded with spaces to exactly `width` cells.
    ///
    ///     "42".padded(toWidth: 5, alignment: .right)   // "   42"
    public func padded(toWidth width: Int, alignment: Alignment = .left) -> String {
        let text = truncated(toWidth: width)
        let gap = max(0, width - text.displayWidth)
        switch alignment {
        case .left: return text + String(repeating: " ", count: gap)
        case .right: return String(repeating: " ", count: gap) + text
        case .center:
            let left = gap / 2
            return String(repeating: " ", count: left) + text + String(repeating: " ", count: gap - left)
        }
    }
}
