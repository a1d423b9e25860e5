import Foundation

/// An expression: what sits on either side of a comparison and what a value
/// expression (a migration's `$source.name`, a fetch's `max:(salary)`) computes.
///
/// Arithmetic is a function, as in Core Data: `a + b` is `.function("add:to:", [a, b])`,
/// and a minus in front of anything but a number is `0 - x`.
///
/// ```swift
/// let e = try ObjectExpression(format: "price * quantity")
/// try e.evaluate(with: ["price": 2.5, "quantity": 4])   // 10.0
/// ```
public indirect enum ObjectExpression {
    /// A value: `42`, `-1.5`, `0x1F`, `"text"`, `'text'`, `TRUE`, `NO`, `nil`, `%@`, `%d`.
    case constant(ObjectValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `name`, `department.name`, `#size`, `@count`, `items.@sum.price`: a key path read
    /// from the evaluated object (collection operators included).
    case keyPath(String)
    /// `$name`: a variable bound at evaluation or by substitution.
    case variable(String)
    /// `$x.name`, `SELF.name`, `SUBQUERY(...).@count`, `(a).b`: a key path read from the value
    /// of another expression.
    case member(ObjectExpression, keyPath: String)
    /// `{a, b, c}`: an array of the values of the expressions.
    case aggregate([ObjectExpression])
    /// `sum:(x)`, `now()`, `a + b` (`add:to:`), `-x` (`from:subtract:`): a predefined function,
    /// named by its selector (see `ExpressionFunction`).
    case function(String, [ObjectExpression])
    /// `FUNCTION(receiver, 'selector:', args...)`: a method called on the receiver, which
    /// must be an `ExpressionFunctionTarget`.
    case customFunction(receiver: ObjectExpression, selector: String, arguments: [ObjectExpression])
    /// `array[2]`, `dict["key"]`, `array[FIRST]`, `array[LAST]`, `array[SIZE]`.
    case index(ObjectExpression, IndexSelector)
    /// `SUBQUERY(collection, $x, predicate)`: the elements of the collection for which the
    /// predicate holds with `$x` bound to the element.
    case subquery(collection: ObjectExpression, variable: String, predicate: ObjectPredicate)
    /// `CAST(value, "NSDate")`, `CAST(value, "NSNumber")`, `CAST(value, "NSString")`.
    case cast(ObjectExpression, type: String)
    /// `TERNARY(predicate, a, b)`: `a` where the predicate holds, else `b`.
    case ternary(ObjectPredicate, ObjectExpression, ObjectExpression)
    /// `a UNION b`, `a INTERSECT b`, `a MINUS b`: set algebra on collections.
    case setOperation(SetOperation, ObjectExpression, ObjectExpression)
}

extension ObjectExpression: Equatable, Hashable {}

extension ObjectExpression: Sendable {}

extension ObjectExpression {
    /// The expression for a literal value.
    ///
    /// ```swift
    /// ObjectExpression.value(42)   // .constant(.int(42))
    /// ```
    public static func value(_ value: any ObjectValueConvertible) -> ObjectExpression {
        .constant(value.objectValue)
    }
}
