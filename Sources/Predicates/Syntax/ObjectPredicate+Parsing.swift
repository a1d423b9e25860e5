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

    /// Parses a predicate format string whose placeholders must take every argument: an
    /// argument left over is a mistake to report, where Foundation's parser ignores it.
    ///
    /// ```swift
    /// try ObjectPredicate(format: "name == %@", usingAll: ["Ada", 3])   // throws .unusedArguments(given: 2, taken: 1)
    /// ```
    public init(format: String, usingAll arguments: [ObjectValue]) throws {
        var parser = try Parser(source: format, arguments: arguments)
        let taken = parser.placeholderCount
        if arguments.count > taken { throw PredicateArgumentError.unusedArguments(given: arguments.count, taken: taken) }
        self = try parser.parseFormat()
    }
}

/// Arguments that do not fit a format's placeholders.
public enum PredicateArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More arguments were given than the placeholders take.
    case unusedArguments(given: Int, taken: Int)

    public var description: String {
        switch self {
        case .unusedArguments(let given, let taken):
            return "\(given) argument\(given == 1 ? " was" : "s were") given and the format's placeholders take \(taken)"
        }
    }
}
