import Foundation
import Predicates

/// Reads an archived `NSPredicate` or `NSExpression` (a fetch request's predicate, an
/// attribute's validation predicates) into the predicate tree.
///
/// The archive keys are Foundation's: a comparison keeps `NSLeftExpression`,
/// `NSRightExpression` and an operator object (`NSOperatorType`, `NSModifier`, and its
/// options in `NSOptions` or `NSFlags`); a compound keeps `NSCompoundPredicateType` and
/// `NSSubpredicates`; an expression keeps its kind in `NSExpressionType`.
package struct ArchivedPredicate {
    package typealias Problem = KeyedArchive.Problem

    let archive: KeyedArchive

    package init(archive: KeyedArchive) {
        self.archive = archive
    }

    /// How deep predicates and expressions may nest: far past any written by hand, and short
    /// of the stack. An archive nests as deep as it likes, or refers to itself (a compound
    /// predicate among its own subpredicates); such a file is refused, not followed until
    /// the stack runs out.
    static let maximumDepth = 200
    private let depth = Depth()

    /// How many predicates and expressions one archive may unfold into: an archive refers to
    /// an object as often as it likes (a compound listing the next one twice, 60 deep, would
    /// unfold without end in practice).
    static let maximumNodes = 100_000

    private final class Depth {
        var level = 0
        var nodes = 0
    }

    /// Runs `body` one level deeper, refusing to go past `maximumDepth` or `maximumNodes`.
    private func deeper<T>(_ body: () throws -> T) throws -> T {
        depth.nodes += 1
        guard depth.nodes <= Self.maximumNodes else {
            throw Problem(message: "a predicate unfolds into more than \(Self.maximumNodes) parts")
        }
        depth.level += 1
        defer { depth.level -= 1 }
        guard depth.level <= Self.maximumDepth else {
            throw Problem(message: "a predicate nests more than \(Self.maximumDepth) levels deep, or contains itself")
        }
        return try body()
    }

    /// `NSPredicateOperatorType` as Foundation numbers it.
    static let operators: [Int: ComparisonOperator] = [
        0: .lessThan, 1: .lessThanOrEqualTo, 2: .greaterThan, 3: .greaterThanOrEqualTo, 4: .equalTo,
        5: .notEqualTo, 6: .matches, 7: .like, 8: .beginsWith, 9: .endsWith, 10: .in, 99: .contains, 100: .between,
    ]
    /// `NSComparisonPredicateModifier`.
    static let modifiers: [Int: ComparisonModifier] = [0: .direct, 1: .all, 2: .any]

    /// The predicate a field refers to; `nil` for none.
    package func predicate(_ value: PropertyListValue?) throws -> ObjectPredicate? {
        guard let object = try archive.object(value) else { return nil }
        return try deeper { try predicate(object) }
    }

    private func predicate(_ object: KeyedArchive.Object) throws -> ObjectPredicate {
        if object.isKind(of: "NSTruePredicate") { return .true }
        if object.isKind(of: "NSFalsePredicate") { return .false }
        if object.isKind(of: "NSCompoundPredicate") {
            let subpredicates = try archive.elements(object["NSSubpredicates"]).map { value -> ObjectPredicate in
                guard let sub = try predicate(value) else { throw Problem(message: "a compound predicate holds a null") }
                return sub
            }
            switch object["NSCompoundPredicateType"]?.int {
            case 0?:
                guard subpredicates.count == 1 else { throw Problem(message: "a NOT predicate with \(subpredicates.count) subpredicates") }
                return .not(subpredicates[0])
            case 1?: return .and(subpredicates)
            case 2?: return .or(subpredicates)
            case let other: throw Problem(message: "compound predicate type \(other.map(String.init) ?? "none") (0 NOT, 1 AND, 2 OR)")
            }
        }
        if object.isKind(of: "NSComparisonPredicate") {
            guard let op = try archive.object(object["NSPredicateOperator"]) else {
                throw Problem(message: "a comparison predicate has no operator")
            }
            let code = op["NSOperatorType"]?.int ?? -1
            guard let comparison = Self.operators[code] else {
                throw Problem(message: "comparison operator \(code) (\(op.className)) has no meaning in the format language")
            }
            let modifierCode = op["NSModifier"]?.int ?? 0
            guard let modifier = Self.modifiers[modifierCode] else {
                throw Problem(message: "comparison modifier \(modifierCode) (0 direct, 1 ALL, 2 ANY)")
            }
            let options = ComparisonOptions(rawValue: (op["NSOptions"]?.int ?? op["NSFlags"]?.int ?? 0) & 0x07)
            return .comparison(ComparisonPredicate(
                try expression(object["NSLeftExpression"]), comparison, try expression(object["NSRightExpression"]),
                modifier: modifier, options: options))
        }
        throw Problem(message: "a predicate of class \(object.className)")
    }

    /// `NSExpressionType` values.
    private enum Kind {
        static let constant = 0, evaluatedObject = 1, variable = 2, keyPath = 3, function = 4,
                   keyPathSpecifier = 10, subquery = 13, aggregate = 14
    }

    package func expression(_ value: PropertyListValue?) throws -> ObjectExpression {
        guard let object = try archive.object(value) else {
            throw Problem(message: "an expression is missing")
        }
        return try deeper { try expression(object) }
    }

    private func expression(_ object: KeyedArchive.Object) throws -> ObjectExpression {
        switch object["NSExpressionType"]?.int {
        case Kind.constant?:
            return try constant(object["NSConstantValue"])
        case Kind.evaluatedObject?:
            return .evaluatedObject
        case Kind.variable?:
            guard let name = try archive.string(object["NSVariable"]) else { throw Problem(message: "a variable expression has no name") }
            return .variable(name)
        case Kind.keyPathSpecifier?:
            guard let path = try archive.string(object["NSKeyPath"]) else { throw Problem(message: "a key path expression has no key path") }
            return .keyPath(path)
        case Kind.keyPath?, Kind.function?:
            return try function(object)
        case Kind.subquery?:
            guard let variable = try archive.string(object["NSVariable"]) ?? (try? variableName(object["NSVariable"])) else {
                throw Problem(message: "a SUBQUERY has no variable")
            }
            guard let condition = try predicate(object["NSSubpredicate"]) else { throw Problem(message: "a SUBQUERY has no predicate") }
            return .subquery(collection: try expression(object["NSExpression"]), variable: variable, predicate: condition)
        case Kind.aggregate?:
            return .aggregate(try archive.elements(object["NSCollection"]).map { try expression($0) })
        case let other:
            throw Problem(message: "expression kind \(other.map(String.init) ?? "none") (\(object.className)) is not one this reader knows")
        }
    }

    private func variableName(_ value: PropertyListValue?) throws -> String {
        guard case .variable(let name) = try expression(value) else { throw Problem(message: "not a variable") }
        return name
    }

    private func constant(_ value: PropertyListValue?) throws -> ObjectExpression {
        if let values = try? archive.elements(value), try archive.object(value) != nil {
            return .aggregate(try deeper { try values.map { try constant($0) } })
        }
        guard let v = try archive.value(value) else {
            throw Problem(message: "a constant of a class this reader does not know")
        }
        return .constant(v)
    }

    /// A function expression: a key path read (`valueForKey:` and `valueForKeyPath:` on its
    /// operand), a predefined function (`sum:`, `add:to:`), or a method on a receiver.
    private func function(_ object: KeyedArchive.Object) throws -> ObjectExpression {
        if let path = try archive.string(object["NSKeyPath"]) { return .keyPath(path) }
        guard let selector = try archive.string(object["NSSelectorName"]) else {
            throw Problem(message: "a function expression names no selector")
        }
        let arguments = try archive.elements(object["NSArguments"]).map { try expression($0) }
        let operand = object["NSOperand"].flatMap { archive.resolve($0) } == nil ? nil : try expression(object["NSOperand"])
        switch selector {
        case "valueForKey:", "valueForKeyPath:":
            guard arguments.count == 1 else { throw Problem(message: "\(selector) with \(arguments.count) arguments") }
            let path: String
            switch arguments[0] {
            case .keyPath(let p): path = p
            case .constant(.string(let p)): path = p
            default: throw Problem(message: "\(selector) of something other than a key")
            }
            switch operand {
            case nil, .evaluatedObject?: return .keyPath(path)
            case .keyPath(let base)?: return .keyPath(base + "." + path)
            case let base?: return .member(base, keyPath: path)
            }
        default:
            if ExpressionFunction.named(selector) != nil, operand == nil || isFunctionUtilities(operand!) {
                return .function(selector, arguments)
            }
            guard let operand else { throw Problem(message: "the function \(selector) is not one of the format language's") }
            return .customFunction(receiver: operand, selector: selector, arguments: arguments)
        }
    }

    /// Foundation's predefined functions are sent to a constant that stands for its utility
    /// class; the archive keeps that as a constant expression.
    private func isFunctionUtilities(_ operand: ObjectExpression) -> Bool {
        if case .constant = operand { return true }
        return false
    }
}
