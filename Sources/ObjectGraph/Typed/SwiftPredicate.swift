import Foundation
import Predicates

// Swift's `#Predicate<Item> { ... }` and `SortDescriptor<Item>` turned into the project's
// predicates and sort descriptors: the expression tree Foundation builds is walked, each node
// written as the format language writes it, and values passed as arguments (never as text).
// The result is the predicate a format string would give, and so it runs in SQL as that does.

extension ObjectPredicate {
    /// Swift's predicate on a generated class, as the model's predicate.
    ///
    /// ```swift
    /// let limit = 5
    /// let cheap = try ObjectPredicate(#Predicate<Item> { $0.price < limit && $0.name.contains("tea") })
    /// // price < 5 AND name CONTAINS "tea"
    /// ```
    ///
    /// - Throws: `SwiftPredicateError` naming a construct with no Core Data meaning (`??`, a
    ///   ternary, a regular expression, a property the class does not map to the model).
    public init<T: TypedObject>(_ predicate: Predicate<T>) throws {
        var translation = SwiftPredicateTranslation()
        translation.bind(predicate.variable.key, as: "SELF")
        let format = try translation.condition(predicate.expression)
        do {
            try self.init(format: format, argumentArray: translation.arguments)
        } catch {
            throw SwiftPredicateError(construct: "the predicate", reason: "it reads as \(format), which does not parse: \(error)")
        }
    }
}

extension ObjectSortDescriptor {
    /// Swift's sort descriptor on a generated class: its key path's model key and order,
    /// compared as `compare:` does.
    public init<T: TypedObject>(_ descriptor: SortDescriptor<T>) throws {
        guard let keyPath = descriptor.keyPath, let key = T.modelKeyPaths[keyPath] else {
            throw SwiftPredicateError(construct: "a sort descriptor on \(T.self)",
                                      reason: "its key path is not a property of the model (a generated class maps each of its properties)")
        }
        // Swift's string comparators other than the lexical one are not on Linux: `compare:`.
        self.init(key: key, ascending: descriptor.order == .forward, comparison: .compare)
    }
}

extension FetchRequest where Result: TypedObject {
    /// A typed request from Swift's predicate and sort descriptors:
    /// `try FetchRequest<Item>(#Predicate { $0.done == false }, sortBy: [SortDescriptor(\.name)])`.
    public init(_ predicate: Predicate<Result>?, sortBy sortDescriptors: [SortDescriptor<Result>] = [],
                fetchLimit: Int = 0, fetchBatchSize: Int = 0) throws {
        self.init(predicate: try predicate.map { try ObjectPredicate($0) },
                  sortDescriptors: try sortDescriptors.map { try ObjectSortDescriptor($0) },
                  fetchLimit: fetchLimit, fetchBatchSize: fetchBatchSize)
    }
}

/// A construct of a Swift predicate that has no Core Data meaning.
public struct SwiftPredicateError: Error, Equatable, CustomStringConvertible {
    /// The construct refused, in words: `integer division (/)`, `a half-open range`,
    /// `a sort descriptor on Item`.
    public var construct: String
    /// Why the construct has no Core Data meaning, or what to write instead.
    public var reason: String

    /// The error in words: the construct, and why it cannot be a Core Data predicate.
    public var description: String { "\(construct) cannot be a Core Data predicate: \(reason)" }
}

/// The state of one translation: the arguments so far and the name each closure variable has.
struct SwiftPredicateTranslation {
    private(set) var arguments: [ObjectValue] = []
    private var names: [PredicateExpressions.VariableID: String] = [:]
    private var subqueries = 0

    mutating func bind(_ variable: PredicateExpressions.VariableID, as name: String) { names[variable] = name }

    func name(of variable: PredicateExpressions.VariableID) throws -> String {
        guard let name = names[variable] else {
            throw SwiftPredicateError(construct: "a variable", reason: "it is not bound by the predicate or a closure in it")
        }
        return name
    }

    /// A new name for a subquery's variable.
    mutating func subqueryVariable() -> String {
        subqueries += 1
        return "$x\(subqueries)"
    }

    /// A value, as an argument.
    mutating func argument(_ value: ObjectValue) -> String {
        arguments.append(value)
        return "%@"
    }

    /// Any node of the tree, as format text.
    mutating func term(_ node: Any) throws -> String {
        guard let node = node as? any SwiftPredicateNode else {
            throw SwiftPredicateError(construct: Self.construct(of: node), reason: "it has no Core Data meaning")
        }
        return try node.format(&self)
    }

    /// A node where a condition goes (the whole predicate, an operand of `&&`, `||` or `!`):
    /// a Boolean property there (`!$0.done`) is a comparison with YES, as Core Data needs.
    mutating func condition(_ node: Any) throws -> String {
        let text = try term(node)
        if let keyPath = node as? any BooleanKeyPathNode, keyPath.isModelProperty { return "(\(text) == YES)" }
        return text
    }

    /// How a node's type is named in messages: `PredicateExpressions.NilCoalesce` as `??`.
    static func construct(of node: Any) -> String {
        let type = "\(type(of: node))"
        let name = String(type.prefix { $0 != "<" })
        let known = ["NilCoalesce": "?? (nil-coalescing)", "Conditional": "a ternary (?:)", "StringContainsRegex": "a regular expression",
                     "Filter": "filter", "SequenceMinimum": "min()", "SequenceMaximum": "max()", "ConditionalCast": "as?",
                     "TypeCheck": "is", "CollectionIndexSubscript": "a subscript", "DictionaryKeySubscript": "a subscript"]
        return known[name] ?? name
    }
}

/// A node of Foundation's predicate tree this translation understands.
protocol SwiftPredicateNode {
    func format(_ translation: inout SwiftPredicateTranslation) throws -> String
}

extension PredicateExpressions.Variable: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { try t.name(of: key) }
}

extension PredicateExpressions.KeyPath: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        let base = try t.term(root)
        let key: String
        if let model = type(of: keyPath).rootType as? any TypedObject.Type {
            guard let name = model.modelKeyPaths[keyPath] else {
                throw SwiftPredicateError(construct: "a key path of \(model)", reason: "it is not a property of the model (a generated class maps each of its properties)")
            }
            key = name
        } else if let collection = type(of: keyPath).rootType as? any CountedInPredicates.Type {
            if keyPath == collection.countKeyPath { key = "@count" }
            else if keyPath == collection.isEmptyKeyPath { return "(\(Self.join(base, "@count")) == 0)" }
            else { throw SwiftPredicateError(construct: "\(keyPath)", reason: "of a collection, only count and isEmpty have a Core Data meaning") }
        } else if type(of: keyPath).rootType == String.self {
            throw SwiftPredicateError(construct: "a string's \(String(describing: keyPath).contains("Bool") ? "isEmpty" : "count")",
                                      reason: "a fetch cannot ask a string's length; compare with \"\" for empty, or use LIKE or MATCHES")
        } else {
            throw SwiftPredicateError(construct: "\(keyPath)", reason: "it is not a property of a generated class")
        }
        return Self.join(base, key)
    }

    /// `SELF` and `name` give `name`; `$x1` and `name` give `$x1.name`.
    static func join(_ base: String, _ key: String) -> String {
        base == "SELF" ? key : "\(base).\(key)"
    }
}

/// A Boolean key path: a model property, or a collection's `isEmpty`.
protocol BooleanKeyPathNode {
    /// Whether it names a model property (not a collection's `isEmpty`, already a comparison).
    var isModelProperty: Bool { get }
}

extension PredicateExpressions.KeyPath: BooleanKeyPathNode where Output == Bool {
    var isModelProperty: Bool { type(of: keyPath).rootType is any TypedObject.Type }
}

/// Collections whose `count` and `isEmpty` a predicate can ask (`items.@count`).
protocol CountedInPredicates {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: CountedInPredicates {
    static var countKeyPath: AnyKeyPath { \Set<Element>.count }
    static var isEmptyKeyPath: AnyKeyPath { \Set<Element>.isEmpty }
}

extension Array: CountedInPredicates {
    static var countKeyPath: AnyKeyPath { \Array<Element>.count }
    static var isEmptyKeyPath: AnyKeyPath { \Array<Element>.isEmpty }
}

extension PredicateExpressions.Value: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        if let object = value as? ManagedObject { return t.argument(.object(object)) }
        if let objects = value as? any Sequence<ManagedObject> { return t.argument(.array(objects.map { .object($0) })) }
        guard let convertible = value as? any ObjectValueConvertible else {
            throw SwiftPredicateError(construct: "a value of type \(type(of: value))", reason: "it is not a value a store holds")
        }
        return t.argument(convertible.objectValue)
    }
}

extension PredicateExpressions.NilLiteral: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "nil" }
}

extension PredicateExpressions.Equal: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        if let test = try t.optionalTest(lhs, rhs) ?? t.optionalTest(rhs, lhs) { return test }
        return "(\(try t.term(lhs)) == \(try t.term(rhs)))"
    }
}

extension PredicateExpressions.NotEqual: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        if let test = try t.optionalTest(lhs, rhs) ?? t.optionalTest(rhs, lhs) { return "(NOT \(test))" }
        return "(\(try t.term(lhs)) != \(try t.term(rhs)))"
    }
}

/// A test reached through an optional chain (`$0.title?.contains("x")`), which Swift makes
/// an optional Boolean to compare with `true`.
protocol OptionalTestNode {}
extension PredicateExpressions.OptionalFlatMap: OptionalTestNode where Result == Bool {}

extension SwiftPredicateTranslation {
    /// `chain == true` as the chain's test: true where Swift's is (a nil on the way is false
    /// in a fetch as it is nil, not true, in Swift), and `chain != true` its negation. Other
    /// comparisons of such a chain (`== false`, where nil differs from false) are left to fail.
    mutating func optionalTest(_ chain: Any, _ other: Any) throws -> String? {
        guard chain is any OptionalTestNode, let value = other as? any BooleanValueNode, value.isTrue else { return nil }
        return try term(chain)
    }
}

/// A Boolean constant in a predicate.
protocol BooleanValueNode {
    var isTrue: Bool { get }
}

extension PredicateExpressions.Value: BooleanValueNode {
    var isTrue: Bool { (value as? Bool) == true || (value as? Bool?) == .some(true) }
}

extension PredicateExpressions.Comparison: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        let symbol: String
        switch op {
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        case .greaterThanOrEqual: symbol = ">="
        }
        return "(\(try t.term(lhs)) \(symbol) \(try t.term(rhs)))"
    }
}

extension PredicateExpressions.Conjunction: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(\(try t.condition(lhs)) AND \(try t.condition(rhs)))" }
}

extension PredicateExpressions.Disjunction: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(\(try t.condition(lhs)) OR \(try t.condition(rhs)))" }
}

extension PredicateExpressions.Negation: SwiftPredicateNode {
    // `!$0.done` is `done == NO`, as one writes it in a format string (and as an index on
    // it can serve); any other negation is NOT.
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        if let keyPath = wrapped as? any BooleanKeyPathNode, keyPath.isModelProperty { return "(\(try t.term(wrapped)) == NO)" }
        return "(NOT \(try t.condition(wrapped)))"
    }
}

extension PredicateExpressions.Arithmetic: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        let symbol: String
        switch op {
        case .add: symbol = "+"
        case .subtract: symbol = "-"
        case .multiply: symbol = "*"
        }
        return "(\(try t.term(lhs)) \(symbol) \(try t.term(rhs)))"
    }
}

extension PredicateExpressions.FloatDivision: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(\(try t.term(lhs)) / \(try t.term(rhs)))" }
}

extension PredicateExpressions.IntDivision: SwiftPredicateNode {
    // Swift's integer division drops the fraction; Core Data's `/` keeps it (7 / 2 is 3.5), so
    // the same text would match other objects.
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        throw SwiftPredicateError(construct: "integer division (/)",
                                  reason: "Swift drops the fraction and Core Data keeps it; multiply the other side instead (stock > 2 * n)")
    }
}

extension PredicateExpressions.IntRemainder: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "modulus:by:(\(try t.term(lhs)), \(try t.term(rhs)))" }
}

extension PredicateExpressions.UnaryMinus: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(0 - \(try t.term(wrapped)))" }
}

extension PredicateExpressions.OptionalFlatMap: SwiftPredicateNode {
    // `$0.category?.name`: a key path through a to-one is nil where the to-one is, as
    // optional chaining is.
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        t.bind(variable.key, as: try t.term(wrapped))
        return try t.term(transform)
    }
}

extension PredicateExpressions.ForcedUnwrap: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { try t.term(inner) }
}

extension PredicateExpressions.CollectionContainsCollection: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(\(try t.term(base)) CONTAINS \(try t.term(other)))" }
}

extension PredicateExpressions.SequenceStartsWith: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(\(try t.term(base)) BEGINSWITH \(try t.term(prefix)))" }
}

extension PredicateExpressions.SequenceContains: SwiftPredicateNode {
    func format(_ t: inout SwiftPredicateTranslation) throws -> String { "(\(try t.term(element)) IN \(try t.term(sequence)))" }
}

extension PredicateExpressions.SequenceContainsWhere: SwiftPredicateNode {
    // `$0.items.contains { $0.price > 5 }`: some member matches.
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        let members = try t.term(sequence), name = t.subqueryVariable()
        t.bind(variable.key, as: name)
        return "(SUBQUERY(\(members), \(name), \(try t.condition(test))).@count > 0)"
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SwiftPredicateNode {
    // `$0.items.allSatisfy { $0.price > 5 }`: no member fails.
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        let members = try t.term(sequence), name = t.subqueryVariable()
        t.bind(variable.key, as: name)
        return "(SUBQUERY(\(members), \(name), NOT \(try t.condition(test))).@count == 0)"
    }
}

extension PredicateExpressions.RangeExpressionContains: SwiftPredicateNode {
    // `(1...5).contains($0.rank)`: BETWEEN, for a closed range.
    func format(_ t: inout SwiftPredicateTranslation) throws -> String {
        guard let closed = range as? any ClosedRangeNode else {
            throw SwiftPredicateError(construct: "a half-open range", reason: "Core Data's BETWEEN includes both ends: write lower...upper, or two comparisons")
        }
        let (lower, upper) = try closed.bounds(&t)
        return "(\(try t.term(element)) BETWEEN {\(lower), \(upper)})"
    }
}

/// `lower...upper` in a predicate.
protocol ClosedRangeNode {
    func bounds(_ t: inout SwiftPredicateTranslation) throws -> (String, String)
}

extension PredicateExpressions.ClosedRange: ClosedRangeNode {
    func bounds(_ t: inout SwiftPredicateTranslation) throws -> (String, String) { (try t.term(lower), try t.term(upper)) }
}
