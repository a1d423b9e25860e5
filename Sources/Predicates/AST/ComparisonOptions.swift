import Foundation

/// String comparison options: the `[c]`, `[d]` and `[n]` after an operator.
///
/// ```swift
/// let o: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
/// o.formatSuffix   // "[cd]"
/// ```
public struct ComparisonOptions: OptionSet, Hashable, Sendable {
    /// The option bits, numbered as Foundation numbers them (c 0x01, d 0x02, n 0x04).
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 0x01)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 0x02)
    /// `[n]`: both sides are already normalised; other options are ignored.
    public static let normalized = ComparisonOptions(rawValue: 0x04)

    /// The option letters in brackets as the format language writes them, or `""`.
    public var formatSuffix: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
