import Foundation

/// A predicate or expression that cannot be evaluated against a value: an unknown key,
/// an unbound variable, an operator applied to the wrong kind of value.
///
/// ```swift
/// do { _ = try ObjectPredicate(format: "$limit > 3").evaluate(with: .null) }
/// catch let e as PredicateEvaluationError { print(e) }  // no value for variable $limit
/// ```
public struct PredicateEvaluationError: Error, CustomStringConvertible, Equatable {
    /// What went wrong, as data.
    public enum Reason: String, Sendable, Equatable {
        /// The object has no such key.
        case unknownKey
        /// A `$variable` has no value.
        case missingVariable
        /// An operator or function got a value of the wrong kind.
        case typeMismatch
        /// A function was given arguments it cannot use.
        case invalidArgument
        /// A `MATCHES` pattern is not a valid regular expression.
        case invalidRegularExpression
        /// `FUNCTION` was called on something that cannot perform it.
        case unsupportedFunction
        /// An index is outside a collection.
        case indexOutOfRange
    }

    /// What went wrong.
    public var reason: Reason
    /// The key, variable or selector concerned, when there is one.
    public var key: String?
    /// The entity or type of the value concerned, when there is one, as the message names it.
    public var typeName: String?
    /// The entity of the object concerned, when the value is a managed object.
    public var entityName: String?
    /// The sentence describing the failure.
    public var message: String

    /// An evaluation error with its message and, when known, the key and type involved.
    public init(_ reason: Reason, _ message: String, key: String? = nil, typeName: String? = nil) {
        self.reason = reason
        self.message = message
        self.key = key
        self.typeName = typeName
    }

    /// The message as one line: `no value for variable $limit`.
    public var description: String { message }
}
