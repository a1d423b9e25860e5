import Foundation

extension ObjectPredicate {
    /// Parses a predicate format string, taking `%@`, `%K`, `%d`... from the arguments.
    ///
    /// ```swift
    /// let p = try ObjectPredicate(format: "%K == %@", "name", "Joe")
    /// p.predicateFormat   // name == "Joe"
    /// ```
    ///
    /// - Throws: `PredicateSyntaxError` for malformed input or a missing argument.
    public init(format: String, _ arguments: any ObjectValueConvertible...) throws {
        try self.init(format: format, argumentArray: arguments.map(\.objectValue))
    }

    /// Parses a predicate format string with its arguments in an array.
    ///
    /// ```swift
    /// let p = try ObjectPredicate(format: "age BETWEEN %@", argumentArray: [[18, 65]])
    /// ```
    public init(format: String, argumentArray: [ObjectValue]) throws {
        var parser = try Parser(source: format, arguments: argumentArray)
        self = try parser.parseFormat()
    }
}
