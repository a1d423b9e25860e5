import Foundation
import Predicates

/// An expression in a predicate, under Core Data's name: a constant, a key path, a
/// variable, `SELF`, a function, an aggregate. A fetch's expression descriptions
/// (`sum:(amount)`) and comparisons are built of them.
///
/// ```swift
/// NSExpression(format: "price * quantity").expressionValue(with: ["price": 2.5, "quantity": 4], context: nil)  // 10.0
/// NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "amount")])
/// ```
///
/// Immutable: its one stored property is a `let` of a `Sendable` value (`@unchecked` only
/// because the class is open), as `NSPredicate` is.
open class NSExpression: NSObject, @unchecked Sendable {
    /// The kinds of expression; the raw values are Core Data's.
    public enum ExpressionType: UInt, Sendable {
        /// A constant: `42`, `"text"`, `nil`, or an argument such as `%@`.
        case constantValue = 0
        /// `SELF`: the object being evaluated.
        case evaluatedObject = 1
        /// `$name`: a variable bound at evaluation or by substitution.
        case variable = 2
        /// A key path, read from the evaluated object (`category.name`) or from another
        /// expression's value (`$x.name`).
        case keyPath = 3
        /// A function: a predefined one (`sum:`, `add:to:`), `FUNCTION(...)`, an index
        /// (`array[2]`) or a `CAST`.
        case function = 4
        /// `a UNION b`: the elements of either collection.
        case unionSet = 5
        /// `a INTERSECT b`: the elements of both collections.
        case intersectSet = 6
        /// `a MINUS b`: the elements of the first collection not in the second.
        case minusSet = 7
        /// `SUBQUERY(collection, $x, predicate)`: the elements of a collection for which a
        /// predicate holds.
        case subquery = 13
        /// `{a, b, c}`: the values of several expressions.
        case aggregate = 14
        /// Core Data's any-key expression; no expression here has this type.
        case anyKey = 15
        /// Core Data's block expression; no expression here has this type.
        case block = 19
        /// `TERNARY(predicate, a, b)`: `a` where the predicate holds, else `b`.
        case conditional = 20
    }

    /// The expression in the engine's terms.
    public let objectExpression: ObjectExpression

    /// An expression built in the engine's terms.
    public init(_ expression: ObjectExpression) {
        objectExpression = expression
        super.init()
    }

    /// An expression read from a format string, taking arguments as `NSPredicate` does.
    public convenience init(format expressionFormat: String, _ args: Any...) {
        self.init(format: expressionFormat, argumentArray: args)
    }

    /// An expression read from a format string, with its arguments in an array.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            self.init(try ObjectExpression(format: expressionFormat, argumentArray: arguments.map(CocoaValue.objectValue)))
        } catch {
            preconditionFailure("NSExpression(format: \(expressionFormat.debugDescription)): \(error)")
        }
    }

    /// A constant: a string, number, date, managed object, collection, or `nil`.
    public convenience init(forConstantValue value: Any?) {
        self.init(.constant(CocoaValue.objectValue(value)))
    }

    /// A key path read from the evaluated object: `name`, `category.name`, `items.@count`.
    public convenience init(forKeyPath keyPath: String) {
        self.init(.keyPath(keyPath))
    }

    /// `$name`: a variable bound when the expression is evaluated or substituted.
    public convenience init(forVariable string: String) {
        self.init(.variable(string))
    }

    /// One of the predefined functions, named by its selector (`sum:`, `count:`,
    /// `add:to:`, `now`, …), with its arguments (`NSExpression`s).
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        self.init(.function(name, parameters.map(Self.expression)))
    }

    /// `{a, b, c}`: the values of the expressions given.
    public convenience init(forAggregate subexpressions: [NSExpression]) {
        self.init(.aggregate(subexpressions.map(\.objectExpression)))
    }

    /// `SELF`: the object being evaluated.
    open class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(.evaluatedObject)
    }

    /// What kind of expression this is.
    open var expressionType: ExpressionType {
        switch objectExpression {
        case .constant: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable: return .variable
        case .keyPath: return .keyPath
        case .member: return .keyPath
        case .function, .customFunction, .index, .cast: return .function
        case .aggregate: return .aggregate
        case .subquery: return .subquery
        case .ternary: return .conditional
        case .setOperation(let operation, _, _):
            switch operation {
            case .union: return .unionSet
            case .intersect: return .intersectSet
            case .minus: return .minusSet
            }
        }
    }

    /// The constant of a constant expression, as Swift's own values.
    open var constantValue: Any? {
        guard case .constant(let value) = objectExpression else {
            preconditionFailure("\(objectExpression.expressionFormat) is not a constant expression")
        }
        return CocoaValue.any(value)
    }

    /// The key path of a key-path expression.
    open var keyPath: String {
        switch objectExpression {
        case .keyPath(let path): return path
        case .member(_, let path): return path
        default: preconditionFailure("\(objectExpression.expressionFormat) is not a key-path expression")
        }
    }

    /// The variable's name, without `$`.
    open var variable: String {
        guard case .variable(let name) = objectExpression else {
            preconditionFailure("\(objectExpression.expressionFormat) is not a variable expression")
        }
        return name
    }

    /// The function's selector (`sum:`); Core Data's names for a cast
    /// (`castObject:toType:`) and an index (`objectFrom:withIndex:`).
    open var function: String {
        switch objectExpression {
        case .function(let name, _): return name
        case .customFunction(_, let selector, _): return selector
        case .cast: return "castObject:toType:"
        case .index: return "objectFrom:withIndex:"
        default: preconditionFailure("\(objectExpression.expressionFormat) is not a function expression")
        }
    }

    /// The function's arguments (a cast's: the value and the type's name).
    open var arguments: [NSExpression]? {
        switch objectExpression {
        case .function(_, let arguments): return arguments.map(NSExpression.init)
        case .customFunction(_, _, let arguments): return arguments.map(NSExpression.init)
        case .cast(let value, let type): return [NSExpression(value), NSExpression(.constant(.string(type)))]
        default: return nil
        }
    }

    /// The expression's value for an object (a managed object, a dictionary, `nil`), with
    /// `$variables` read from `context`.
    ///
    /// A key the object lacks is a programming error, as in Core Data.
    open func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var variables: [String: ObjectValue] = [:]
        for (key, value) in context ?? [:] { variables["\(key)"] = CocoaValue.objectValue(value) }
        do {
            return CocoaValue.any(try objectExpression.evaluate(with: CocoaValue.objectValue(object), variables: variables))
        } catch {
            preconditionFailure("\(objectExpression.expressionFormat): \(error)")
        }
    }

    /// The expression in the format language: `price * quantity`.
    open override var description: String { objectExpression.expressionFormat }

    /// Whether the other is an equal expression.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSExpression)?.objectExpression == objectExpression
    }

    /// A hash of the expression, the same for equal expressions.
    open override var hash: Int { objectExpression.hashValue }

    /// A constant's value, where an expression stands as a predicate argument.
    var constantObjectValue: ObjectValue {
        if case .constant(let value) = objectExpression { return value }
        preconditionFailure("\(objectExpression.expressionFormat) given where a value belongs")
    }

    /// An argument of a function: an expression, or a value taken as a constant.
    private static func expression(_ argument: Any) -> ObjectExpression {
        (argument as? NSExpression)?.objectExpression ?? .constant(CocoaValue.objectValue(argument))
    }
}
