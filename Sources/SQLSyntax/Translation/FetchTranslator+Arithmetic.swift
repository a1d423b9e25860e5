import Foundation
import ObjectModel
import Predicates

/// Arithmetic in SQL: `price * 2 > 10`, `a + b == c`, `-salary < x`, with memory's rules
/// (`Arithmetic` in the evaluator):
///
/// - integers stay integers, and become doubles where they would overflow (SQLite's `+`, `-`,
///   `*` do the same; PostgreSQL computes them as `numeric`, which does not overflow); a double makes the result a double; a decimal, a decimal (computed by
///   the engine in floating point, as Core Data's own SQLite store computes it);
/// - division gives a double (`7 / 2` is 3.5), so integers are made real first;
/// - nil anywhere gives nil, which no comparison but `== nil` matches (SQL's NULL).
///
/// Division and `%` need a constant divisor other than zero: memory's `x / 0` is infinite
/// and SQL's is NULL, so a key path as divisor has no SQL form. `%` takes integers only.
extension FetchTranslator {
    private enum NumberKind: Comparable { case integer, double, decimal }

    private static let operators: [String: SQLOperator] = [
        "add:to:": .plus, "from:subtract:": .minus, "multiply:by:": .times, "divide:by:": .divide, "modulus:by:": .remainder,
    ]

    /// The operand an arithmetic expression over key paths makes; nil for any other
    /// expression (a constant one is evaluated once, as a value).
    package func arithmeticOperand(_ e: ObjectExpression, in scope: Scope) throws -> Operand? {
        guard case .function(let name, _) = e, Self.operators[name] != nil, Self.readsKeyPath(e) else { return nil }
        let (sql, kind) = try number(e, in: scope)
        switch kind {
        case .integer: return .expression(sql, .integer64)
        case .double: return .expression(sql, .double)
        case .decimal: return .expression(sql, .decimal)
        }
    }

    static func readsKeyPath(_ e: ObjectExpression) -> Bool {
        switch e {
        case .keyPath, .member, .evaluatedObject, .variable: return true
        case .function(_, let arguments): return arguments.contains(where: readsKeyPath)
        default: return false
        }
    }

    private func number(_ e: ObjectExpression, in scope: Scope) throws -> (SQLExpression, NumberKind) {
        switch e {
        case .constant(let value):
            switch value {
            case .int(let i): return (flavor.integerOperand(.value(.integer(Int64(i)))), .integer)
            case .bool(let b): return (flavor.integerOperand(.value(.integer(b ? 1 : 0))), .integer)
            case .double(let d): return (.value(.real(d)), .double)
            case .decimal: return (.value(flavor.sqlValue(value)), .decimal)
            case .null: return (.null, .integer)
            default: throw flavor.unsupported("arithmetic on \(value.typeName)")
            }
        case .function(let name, let arguments):
            guard let op = Self.operators[name], arguments.count == 2 else {
                if !Self.readsKeyPath(e) { return try number(.constant(try constant(e)), in: scope) }
                throw flavor.unsupported("the function \(name) of a key path")
            }
            let (l, lk) = try number(arguments[0], in: scope)
            let (r, rk) = try number(arguments[1], in: scope)
            let kind = max(lk, rk)
            switch op {
            case .divide, .remainder:
                guard case .constant(let divisor) = arguments[1], let d = divisor.doubleValue, d != 0 else {
                    throw flavor.unsupported("\(op == .divide ? "division" : "%") by \(arguments[1]): memory's x / 0 is infinite, SQL's NULL, so only a constant other than 0 divides in SQL")
                }
                if op == .remainder {
                    guard kind == .integer else { throw flavor.unsupported("% of numbers that are not integers") }
                    return (.binary(l, .remainder, r), .integer)
                }
                // Integers divide as doubles: 7 / 2 is 3.5.
                let real = kind == .integer ? SQLExpression.binary(l, .times, .value(.real(1))) : l
                return (.binary(real, .divide, r), kind == .decimal ? .decimal : .double)
            default:
                return (.binary(l, op, r), kind)
            }
        default:
            let (column, type): (SQLExpression, AttributeType)
            switch try operandOf(e, in: scope) {
            case .attribute(let c, let t), .expression(let c, let t):
                (column, type) = (c, t)
            case .toMany(let r, let storage, let owner, let rest) where rest == ["@count"]:
                (column, type) = (memberCount(r, storage, owner: owner), .integer64)
            case .toMany(let r, let storage, let owner, let rest) where rest.count == 2 && ["@sum", "@avg", "@min", "@max"].contains(rest[0]):
                guard case .expression(let c, let t) = try aggregate(rest[0], of: rest[1], over: r, storage, owner: owner) else {
                    throw flavor.unsupported("arithmetic on \(e), which is not a number")
                }
                (column, type) = (c, t)
            default:
                throw flavor.unsupported("arithmetic on \(e), which is not a number")
            }
            switch type {
            case .integer16, .integer32, .integer64, .boolean: return (flavor.integerOperand(column), .integer)
            case .double, .float: return (column, .double)
            case .decimal: return (column, .decimal)
            default: throw flavor.unsupported("arithmetic on \(e), a \(type.xcodeName) attribute")
            }
        }
    }
}
