/// The keys that scroll a pane of lines, as a pager has them: j/k and the arrows a line,
/// PgDn/Space and PgUp a page, g/Home and G/End to the ends.
enum PagerKeys {
    /// The first line shown after `key`, or nil when the key does not scroll.
    static func offset(after key: Key, from offset: Int, page: Int, last: Int) -> Int? {
        switch key {
        case .down, .character("j"): return min(last, offset + 1)
        case .up, .character("k"): return max(0, offset - 1)
        case .pageDown, .character(" "): return min(last, offset + page)
        case .pageUp: return max(0, offset - page)
        case .home, .character("g"): return 0
        case .end, .character("G"): return last
        default: return nil
        }
    }
}
