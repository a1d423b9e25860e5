import Foundation

extension ObjectPredicate: CustomStringConvertible {
    /// The canonical format string, as Core Data prints it; parsing it gives back the
    /// same predicate.
    ///
    /// ```swift
    /// try ObjectPredicate(format: "a = 1 and (b = 'x' or not c = yes)").predicateFormat
    /// // a == 1 AND (b == "x" OR NOT c == 1)
    /// ```
    public var predicateFormat: String { ExpressionFormatter.format(self) }

    /// The canonical format string.
    public var description: String { predicateFormat }
}
