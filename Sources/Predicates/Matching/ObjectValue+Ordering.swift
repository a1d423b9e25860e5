import Foundation

extension ObjectValue {
    /// How two values order for `<`, `>`, `BETWEEN`, `min:` and `max:`; `nil` when they do
    /// not compare (either is nil, or they are of kinds with no common order such as a
    /// string and a number).
    ///
    /// Numbers compare numerically across integers, doubles, decimals and booleans;
    /// strings compare by Unicode scalar order after folding for `options`; dates by time.
    /// Stores register this ordering so that SQL and memory agree.
    ///
    /// ```swift
    /// ObjectValue.compare(2, 2.5)                  // .orderedAscending
    /// ObjectValue.compare("b", "A", options: .caseInsensitive)   // .orderedDescending
    /// ObjectValue.compare(1, "1")                  // nil
    /// ```
    public static func compare(_ a: ObjectValue, _ b: ObjectValue, options: ComparisonOptions = []) -> ComparisonResult? {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            // By scalar (UTF-8 byte) order, as SQL's BINARY collation orders.
            let (a, b) = (options.fold(x), options.fold(y))
            if a.utf8.elementsEqual(b.utf8) { return .orderedSame }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : .orderedDescending
        case (.int(let x), .int(let y)):
            return order(x, y)
        case (.date(let x), .date(let y)):
            return order(x, y)
        case (.data(let x), .data(let y)):
            return x.lexicographicallyPrecedes(y) ? .orderedAscending
                : (x == y ? .orderedSame : .orderedDescending)
        case (.uuid(let x), .uuid(let y)):
            return order(x.uuidString, y.uuidString)
        case (.url(let x), .url(let y)):
            return order(x.absoluteString, y.absoluteString)
        default:
            guard a.isNumeric, b.isNumeric else { return nil }
            return numericOrder(a, b)
        }
    }

    /// An integer against a double without rounding the integer to a double (2^53 + 1 is
    /// more than 2^53), as SQLite compares them; nil against NaN.
    static func exactOrder(_ i: Int, _ d: Double) -> ComparisonResult? {
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if d < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = d.rounded(.down)
        let w = Int(whole)
        if i != w { return i < w ? .orderedAscending : .orderedDescending }
        return d > whole ? .orderedAscending : .orderedSame
    }

    private static func reversed(_ r: ComparisonResult) -> ComparisonResult {
        r == .orderedAscending ? .orderedDescending : r == .orderedDescending ? .orderedAscending : .orderedSame
    }

    private static func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
        x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
    }

    private static func numericOrder(_ a: ObjectValue, _ b: ObjectValue) -> ComparisonResult? {
        let decimal: Bool
        switch (a, b) {
        case (.decimal, _), (_, .decimal): decimal = true
        default: decimal = false
        }
        if decimal, let x = a.decimalValue, let y = b.decimalValue, !x.isNaN, !y.isNaN {
            return order(x, y)
        }
        switch (a, b) {
        case (.double(let y), _) where !decimal && b.intValue != nil && !b.isFloating:
            return exactOrder(b.intValue!, y).map(Self.reversed)
        case (_, .double(let y)) where !decimal && a.intValue != nil && !a.isFloating:
            return exactOrder(a.intValue!, y)
        case (.double, _), (_, .double), (.decimal, _), (_, .decimal):
            guard let x = a.doubleValue, let y = b.doubleValue, !x.isNaN, !y.isNaN else { return nil }
            return order(x, y)
        default:
            guard let x = a.intValue, let y = b.intValue else { return nil }
            return order(x, y)
        }
    }
}
