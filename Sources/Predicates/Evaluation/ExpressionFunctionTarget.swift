import Foundation

/// An object that answers `FUNCTION(receiver, "selector:", args...)` expressions.
///
/// When the receiver of a `FUNCTION` expression evaluates to an `.object` that conforms,
/// the selector and the argument values are handed to it; any other receiver is an
/// evaluation error naming the selector.
///
/// ```swift
/// final class Manager: KeyValueObject, ExpressionFunctionTarget {
///     func performFunction(_ selector: String, arguments: [ObjectValue]) throws -> ObjectValue {
///         selector == "double:" ? .int((arguments[0].intValue ?? 0) * 2) : .null
///     }
///     // identity, value(forKey:), keyValueTypeName ...
/// }
/// ```
public protocol ExpressionFunctionTarget {
    /// Performs the named selector with the evaluated arguments.
    func performFunction(_ selector: String, arguments: [ObjectValue]) throws -> ObjectValue
}
