import Foundation

/// The comparisons a sort descriptor may use: the selectors Core Data's SQLite store
/// accepts, with their selector names as raw values.
///
/// ```swift
/// SortComparison(rawValue: "localizedStandardCompare:")   // .localizedStandardCompare
/// ```
public enum SortComparison: String, Hashable, Sendable, CaseIterable {
    /// `compare:`: numbers numerically, strings by Unicode order, dates by time.
    case compare = "compare:"
    /// `caseInsensitiveCompare:`: strings with case folded.
    case caseInsensitiveCompare = "caseInsensitiveCompare:"
    /// `localizedCompare:`: strings as the current locale orders them.
    case localizedCompare = "localizedCompare:"
    /// `localizedCaseInsensitiveCompare:`: the same, ignoring case.
    case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
    /// `localizedStandardCompare:`: as a file browser orders names (`file2` before `file10`).
    case localizedStandardCompare = "localizedStandardCompare:"

    /// Orders two values. Strings use this comparison; other values compare as
    /// `compare:` does. `nil` orders before every value, and values of kinds that do not
    /// compare order by kind (numbers, strings, dates, then the rest), so the order is total.
    ///
    /// ```swift
    /// SortComparison.localizedStandardCompare.order("file2", "file10")   // .orderedAscending
    /// SortComparison.compare.order(.null, 0)                              // .orderedAscending
    /// ```
    public func order(_ a: ObjectValue, _ b: ObjectValue) -> ComparisonResult {
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let x), .string(let y)):
            switch self {
            case .compare: return ObjectValue.compare(a, b)!
            case .caseInsensitiveCompare: return ObjectValue.compare(a, b, options: .caseInsensitive)!
            case .localizedCompare: return x.localizedCompare(y)
            case .localizedCaseInsensitiveCompare: return LocalizedASCIIOrder.compare(x, y) ?? x.localizedCaseInsensitiveCompare(y)
            case .localizedStandardCompare: return x.localizedStandardCompare(y)
            }
        default:
            if let c = ObjectValue.compare(a, b) { return c }
            let (ra, rb) = (SortComparison.kindRank(a), SortComparison.kindRank(b))
            if ra != rb { return ra < rb ? .orderedAscending : .orderedDescending }
            return .orderedSame
        }
    }

    private static func kindRank(_ v: ObjectValue) -> Int {
        switch v {
        case .null: return 0
        case .bool, .int, .double, .decimal: return 1
        case .string: return 2
        case .date: return 3
        case .data: return 4
        case .uuid: return 5
        case .url: return 6
        case .array: return 7
        case .set: return 8
        case .dictionary: return 9
        case .object: return 10
        }
    }
}
