import Foundation

/// String comparison options: the `[c]`, `[d]` and `[n]` after an operator.
///
/// ```swift
/// let o: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
/// o.formatSuffix   // "[cd]"
/// ```
public struct ComparisonOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
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
