import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension FetchTranslator {
    /// A comparison of a column (or SQL expression) with the right-hand side.
    package func compare(_ left: Operand, _ op: ComparisonOperator, _ rhs: ObjectExpression,
                 options: ComparisonOptions, in scope: Scope) throws -> SQLExpression {
        let (column, type): (SQLExpression, AttributeType?)
        var objectEntity: String?
        switch left {
        case .attribute(let c, let t), .expression(let c, let t): (column, type) = (c, t)
        case .object(let c, let entity): (column, type, objectEntity) = (c, nil, entity)
        case .toMany: throw flavor.unsupported("a to-many relationship in a comparison")
        }
        let isString = type == .string || type == .uri
        let folding = isString && !options.isEmpty && !options.contains(.normalized)

        // Key path against key path (or a SUBQUERY variable's).
        if let right = try rightOperand(rhs, in: scope) {
            let rightColumn: SQLExpression
            var rightType: AttributeType?
            switch right {
            case .attribute(let c, let t), .expression(let c, let t): (rightColumn, rightType) = (c, t)
            case .object(let c, _): rightColumn = c
            case .toMany: throw flavor.unsupported("a to-many relationship on the right of \(op.rawValue)")
            }
            // Values of different kinds (a number and a string, a date and a number) are never
            // equal or ordered in memory; SQLite would compare them by its storage classes.
            if let type, let rightType, Self.kind(of: type) != Self.kind(of: rightType) {
                let bothNil = SQLExpression.and([column.isNull(), rightColumn.isNull()])
                switch op {
                case .equalTo: return bothNil
                case .notEqualTo: return .not(bothNil)
                case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: return .false
                default: break
                }
            }
            switch op {
            case .equalTo: return .binary(column, .is, rightColumn)
            case .notEqualTo: return .binary(column, .isNot, rightColumn)
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                return .binary(column, Self.sqlOperator(op), rightColumn)
            default:
                throw flavor.unsupported("\(op.rawValue) between two key paths")
            }
        }

        let value = try constant(rhs)
        if let objectEntity {
            return try compareObjects(column, entity: objectEntity, op, value)
        }
        let lhs = folding ? try flavor.folded(column, options: options) : column
        func bound(_ v: ObjectValue) -> SQLExpression {
            if folding, case .string(let s) = v { return .value(.text(options.fold(s))) }
            return .value(flavor.sqlValue(v))
        }
        switch op {
        case .equalTo, .notEqualTo:
            let equal = op == .equalTo
            if value.isNull { return column.isNull(negated: !equal) }
            guard Self.fits(value, type) else { return equal ? .false : .true }
            if folding, case .string(let text) = value, let fast = flavor.foldedEquality(column, text, options: options) {
                return equal ? fast : .not(fast)
            }
            return .binary(lhs, equal ? .equal : .isNot, bound(value))
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard !value.isNull, Self.fits(value, type), Self.ordered(value) else { return .false }
            return .binary(lhs, Self.sqlOperator(op), bound(value))
        case .between:
            guard let bounds = value.collectionElements, bounds.count == 2 else {
                throw flavor.unsupported("BETWEEN needs two values on the right")
            }
            guard bounds.allSatisfy({ !$0.isNull && Self.fits($0, type) && Self.ordered($0) }) else { return .false }
            return lhs.between(bound(bounds[0]), and: bound(bounds[1]))
        case .in:
            if case .string = value {
                // As in memory, where a number IN a string is an error rather than no match.
                guard isString else {
                    throw flavor.unsupported("IN with a string needs a string on its left, not \(type?.xcodeName ?? "an object")")
                }
                return try textTest(op, column, value, options)
            }
            let elements: [ObjectValue]
            switch value {
            case .array(let a), .set(let a): elements = a
            case .dictionary(let d): elements = Array(d.values)
            case .null: return .false
            default: throw flavor.unsupported("IN needs a collection on the right, got \(value.typeName)")
            }
            let fitting = elements.filter { !$0.isNull && Self.fits($0, type) }
            var parts: [SQLExpression] = []
            if !fitting.isEmpty { parts.append(lhs.isIn(fitting.map(bound))) }
            if elements.contains(where: \.isNull) { parts.append(column.isNull()) }
            return .or(parts)
        case .contains:
            guard isString else { throw flavor.unsupported("CONTAINS on a value that is not a string or a to-many relationship") }
            if value.isNull { return .false }
            guard case .string = value else { throw flavor.unsupported("CONTAINS with a string needs a string") }
            return try textTest(op, column, value, options)
        case .beginsWith, .endsWith:
            guard isString else { throw flavor.unsupported("\(op.rawValue) needs a string attribute") }
            if value.isNull { return .false }
            guard case .string = value else { throw flavor.unsupported("\(op.rawValue) needs a string") }
            return try textTest(op, column, value, options)
        case .like, .matches:
            guard isString else { throw flavor.unsupported("\(op.rawValue) needs a string attribute") }
            if value.isNull { return .false }
            guard case .string = value else { throw flavor.unsupported("\(op.rawValue) needs a string pattern") }
            guard case .string(let pattern) = value else { return .false }
            return try flavor.patternTest(op, column, pattern, options: options)
        }
    }

    /// A text test of a string constant, as the engine makes memory's test.
    private func textTest(_ op: ComparisonOperator, _ column: SQLExpression, _ value: ObjectValue,
                          _ options: ComparisonOptions) throws -> SQLExpression {
        guard case .string(let text) = value else { return .false }
        return try flavor.textTest(op, column, text, options: options)
    }

    /// The operand of a right-hand side that is a key path, or a `SUBQUERY` variable or its
    /// key path; nil for a value.
    private func rightOperand(_ rhs: ObjectExpression, in scope: Scope) throws -> Operand? {
        switch rhs {
        case .keyPath(let path): return try operand(path, from: scope)
        case .variable(let name) where variableScopes[name] != nil: return try operandOf(rhs, in: scope)
        case .member(.variable(let name), _) where variableScopes[name] != nil: return try operandOf(rhs, in: scope)
        default: return try arithmeticOperand(rhs, in: scope)
        }
    }

    /// Comparisons of a to-one foreign key or `SELF` with objects.
    private func compareObjects(_ column: SQLExpression, entity: String, _ op: ComparisonOperator, _ value: ObjectValue) throws -> SQLExpression {
        let root = schema.mapping(for: entity)?.table.name
        func key(_ v: ObjectValue) -> SQLExpression? {
            guard case .object(let o) = v else { return nil }
            let id: ManagedObjectID? = (o as? ManagedObjectID) ?? (o as? ManagedObject)?.objectID
            guard let id, let pk = id.primaryKey, schema.mapping(for: id.entityName)?.table.name == root else { return nil }
            return .value(.integer(pk))
        }
        switch op {
        case .equalTo, .notEqualTo:
            let equal = op == .equalTo
            if value.isNull { return column.isNull(negated: !equal) }
            guard let pk = key(value) else { return equal ? .false : .true }
            return .binary(column, equal ? .equal : .isNot, pk)
        case .in:
            guard let elements = value.collectionElements ?? (value.isNull ? [] : nil) else {
                throw flavor.unsupported("IN needs a collection of objects")
            }
            let keys = elements.compactMap(key)
            var parts: [SQLExpression] = []
            if !keys.isEmpty { parts.append(column.isIn(keys)) }
            if elements.contains(where: \.isNull) { parts.append(column.isNull()) }
            return .or(parts)
        default:
            throw flavor.unsupported("\(op.rawValue) between objects")
        }
    }

    /// A count (never NULL) compared with a constant, as memory compares an integer.
    package func compareCount(_ count: SQLExpression, _ op: ComparisonOperator, _ value: ObjectValue) throws -> SQLExpression {
        func number(_ v: ObjectValue) -> SQLExpression? {
            switch v {
            case .int, .double, .decimal, .bool: return .value(flavor.sqlValue(v))
            default: return nil
            }
        }
        switch op {
        case .equalTo, .notEqualTo:
            guard let n = number(value) else { return op == .equalTo ? .false : .true }
            return .binary(count, op == .equalTo ? .equal : .notEqual, n)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let n = number(value) else { return .false }
            return .binary(count, Self.sqlOperator(op), n)
        case .between:
            guard let bounds = value.collectionElements, bounds.count == 2 else {
                throw flavor.unsupported("BETWEEN needs two values on the right")
            }
            guard let low = number(bounds[0]), let high = number(bounds[1]) else { return .false }
            return count.between(low, and: high)
        case .in:
            return count.isIn((value.collectionElements ?? []).compactMap(number))
        default:
            throw flavor.unsupported("\(op.rawValue) with SUBQUERY(...).@count")
        }
    }

    /// The value of a right-hand side that SQL takes as an argument.
    package func constant(_ e: ObjectExpression) throws -> ObjectValue {
        switch e {
        case .constant(let v): return v
        case .aggregate(let items): return .array(try items.map(constant))
        case .function, .cast:
            // Functions of constants only (now(), CAST(..., "NSDate")): evaluate them once here.
            do { return try e.evaluate(with: .null) } catch {
                throw flavor.unsupported("the expression \(e) on the right of a comparison")
            }
        case .variable(let name):
            throw flavor.unsupported("variable $\(name) has no value (substitute variables first)")
        default:
            throw flavor.unsupported("the expression \(e) on the right of a comparison")
        }
    }

    /// The SQL operator of an ordering comparison.
    package static func sqlOperator(_ op: ComparisonOperator) -> SQLOperator {
        switch op {
        case .lessThan: return .less
        case .lessThanOrEqualTo: return .lessOrEqual
        case .greaterThan: return .greater
        case .greaterThanOrEqualTo: return .greaterOrEqual
        case .notEqualTo: return .notEqual
        default: return .equal
        }
    }

    /// Which attribute types hold values that compare with each other.
    private enum ValueKind { case number, text, date, bytes, other }

    private static func kind(of type: AttributeType) -> ValueKind {
        if type.isNumeric || type == .boolean { return .number }
        switch type {
        case .string, .uri: return .text
        case .date: return .date
        case .binary: return .bytes
        default: return .other
        }
    }

    /// Whether a constant can equal or order against values of an attribute type; memory
    /// evaluation never equates a string with a number, so neither may SQL.
    package static func fits(_ value: ObjectValue, _ type: AttributeType?) -> Bool {
        guard let type else { return true }
        switch value {
        case .null: return true
        case .bool, .int, .double, .decimal: return type.isNumeric || type == .boolean
        case .string: return type == .string
        case .date: return type == .date
        case .data: return type == .binary || type == .transformable
        case .uuid: return type == .uuid
        case .url: return type == .uri
        default: return false
        }
    }

    /// Whether `<` and `>` order the value in memory.
    package static func ordered(_ value: ObjectValue) -> Bool {
        switch value {
        case .bool, .int, .double, .decimal, .string, .date, .data, .uuid, .url: return true
        default: return false
        }
    }

    package static func mirrored(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return op
        }
    }
}
