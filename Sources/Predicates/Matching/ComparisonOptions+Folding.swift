import Foundation

extension ComparisonOptions {
    /// The string as `[c]`, `[d]` and `[n]` compare it: case-folded for `[c]`, stripped of
    /// diacritics for `[d]`, unchanged for `[n]` (already normalised) or no options.
    ///
    /// Stores register this as a SQL function so that their comparisons agree with
    /// evaluation in memory.
    ///
    /// ```swift
    /// ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).fold("Crème")   // "creme"
    /// ```
    public func fold(_ string: String) -> String {
        if isEmpty || contains(.normalized) { return string }
        let caseless = contains(.caseInsensitive)
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII has no diacritics; case folding is lower-casing.
            return caseless ? string.lowercased() : string
        }
        var fold: String.CompareOptions = []
        if caseless { fold.insert(.caseInsensitive) }
        if contains(.diacriticInsensitive) { fold.insert(.diacriticInsensitive) }
        // In normal form C, so that text folded from a composed é and from e + U+0301 is the
        // same text, compared literally (as SQL compares the folded bytes).
        return string.folding(options: fold, locale: nil).precomposedStringWithCanonicalMapping
    }
}
