import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension FetchTranslator {
    /// The SQL condition for a predicate; a missing value never makes it NULL where memory
    /// evaluation would say true (`NOT` and `ALL` treat unknown as false first).
    package func condition(for predicate: ObjectPredicate) throws -> SQLExpression {
        try condition(for: predicate, in: root)
    }

    package func condition(for predicate: ObjectPredicate, in scope: Scope) throws -> SQLExpression {
        switch predicate {
        case .true: return .true
        case .false: return .false
        case .and(let parts):
            if parts.isEmpty { return .true }
            return Self.balanced(try Self.flattened(parts, and: true).map { try condition(for: $0, in: scope) }, and: true)
        case .or(let parts):
            if parts.isEmpty { return .false }
            return Self.balanced(try Self.flattened(parts, and: false).map { try condition(for: $0, in: scope) }, and: false)
        case .not(let inner):
            // NOT NOT p holds where p holds: a run of NOTs is one NOT or none, since nested
            // NOTs would fill SQLite's parser stack.
            var negated = true
            var core = inner
            while case .not(let deeper) = core { negated.toggle(); core = deeper }
            let known = SQLExpression.coalesce(try condition(for: core, in: scope), .false)
            return negated ? .not(known) : known
        case .comparison(let c):
            return try condition(for: c, in: scope)
        }
    }

    package func condition(for c: ComparisonPredicate, in scope: Scope) throws -> SQLExpression {
        // A constant on the left and a key path on the right: turn it around.
        if case .constant = c.lhs, case .keyPath = c.rhs, c.modifier == .direct {
            switch c.op {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                return try condition(for: ComparisonPredicate(c.rhs, Self.mirrored(c.op), c.lhs, options: c.options), in: scope)
            case .in:
                if case .keyPath(let path) = c.rhs, case .toMany(let r, let storage, let owner, let rest) = try operand(path, from: scope) {
                    let element = ComparisonPredicate(.keyPath(rest.isEmpty ? "self" : rest.joined(separator: ".")), .equalTo, c.lhs, options: c.options)
                    return try quantified(r, storage, owner: owner, condition: element, quantifier: .any, outer: scope)
                }
                // A string IN a string attribute is a substring test: the attribute CONTAINS it.
                if case .constant(.string) = c.lhs {
                    return try condition(for: ComparisonPredicate(c.rhs, .contains, c.lhs, options: c.options), in: scope)
                }
            default: break
            }
        }
        if case .member(.subquery(let collection, let variable, let inner), "@count") = c.lhs {
            let count = try subqueryCount(collection, variable: variable, inner, in: scope)
            return try compareCount(count, c.op, try constant(c.rhs))
        }
        let left = try operandOf(c.lhs, in: scope)
        switch left {
        case .toMany(let r, let storage, let owner, let rest):
            if c.modifier != .direct, let op = rest.first, op.hasPrefix("@") {
                // Memory takes the operator over the whole collection, a number ANY cannot range over.
                throw flavor.unsupported(
                    "\(c.modifier.rawValue) needs a collection, and \(r.name).\(rest.joined(separator: ".")) is one number; "
                    + "to test each member, use SUBQUERY(collection, $x, condition on $x).@count > 0")
            }
            if rest == ["@count"] {
                return try compare(.expression(memberCount(r, storage, owner: owner), .integer64), c.op, c.rhs, options: c.options, in: scope)
            }
            if rest.count == 2, ["@sum", "@avg", "@min", "@max"].contains(rest[0]) {
                let aggregate = try self.aggregate(rest[0], of: rest[1], over: r, storage, owner: owner)
                return try compare(aggregate, c.op, c.rhs, options: c.options, in: scope)
            }
            if c.modifier == .direct {
                if c.op == .contains {
                    // A collection CONTAINS a value: some member (or member's key) equals it.
                    let element = ComparisonPredicate(rest.isEmpty ? .evaluatedObject : .keyPath(rest.joined(separator: ".")),
                                                      .equalTo, c.rhs, options: rest.isEmpty ? [] : c.options)
                    return try quantified(r, storage, owner: owner, condition: element, quantifier: .any, outer: scope)
                }
                throw flavor.unsupported(
                    "comparing the to-many relationship '\(r.name)' needs ANY, ALL, NONE, @count, or @sum/@avg/@min/@max of an attribute")
            }
            // Through a second to-many step (ANY projects.members.name): the members' members
            // are quantified the same way, ALL within ALL, ANY within ANY and NONE.
            let crossesToMany = schema.mapping(for: r.destinationEntityName).map { Self.crossesToMany(rest, from: $0, in: schema) } ?? false
            let element = ComparisonPredicate(rest.isEmpty ? .evaluatedObject : .keyPath(rest.joined(separator: ".")),
                                              c.op, c.rhs, modifier: crossesToMany ? (c.modifier == .all ? .all : .any) : .direct,
                                              options: c.options)
            return try quantified(r, storage, owner: owner, condition: element, quantifier: c.modifier, outer: scope)
        default:
            if c.modifier != .direct {
                throw flavor.unsupported("\(c.modifier.rawValue) needs a to-many key path on the left")
            }
            return try compare(left, c.op, c.rhs, options: c.options, in: scope)
        }
    }

    package func operandOf(_ e: ObjectExpression, in scope: Scope) throws -> Operand {
        switch e {
        case .keyPath(let path): return try operand(path, from: scope)
        case .evaluatedObject: return .object(Self.primaryKey(of: scope.alias), entity: scope.mapping.entity.name)
        case .member(.evaluatedObject, let path): return try operand(path, from: scope)
        case .variable(let name) where variableScopes[name] != nil:
            let member = variableScopes[name]!
            return .object(Self.primaryKey(of: member.alias), entity: member.mapping.entity.name)
        case .member(.variable(let name), let path) where variableScopes[name] != nil:
            return try operand(path, from: variableScopes[name]!)
        case .variable(let name):
            throw flavor.unsupported("variable $\(name) has no value (substitute variables first)")
        case .ternary(let condition, let a, let b):
            // CASE WHEN: its value's type is the first branch's that has one.
            let (then, thenType) = try branch(a, in: scope), (otherwise, otherType) = try branch(b, in: scope)
            guard let type = thenType ?? otherType else { throw flavor.unsupported("TERNARY with nil on both sides") }
            return .expression(.caseWhen(try self.condition(for: condition, in: scope), then: then, else: otherwise), type)
        default:
            if let arithmetic = try arithmeticOperand(e, in: scope) { return arithmetic }
            throw flavor.unsupported("the expression \(e) on the left of a comparison")
        }
    }

    /// One side of a TERNARY in SQL, with its value's type (none for nil).
    private func branch(_ e: ObjectExpression, in scope: Scope) throws -> (SQLExpression, AttributeType?) {
        if case .ternary = e {} else if !Self.readsKeyPath(e) {
            let value = try constant(e)
            let type: AttributeType? = switch value {
            case .null: nil
            case .bool: .boolean
            case .int: .integer64
            case .double: .double
            case .decimal: .decimal
            case .string: .string
            case .date: .date
            case .uuid: .uuid
            case .url: .uri
            case .data: .binary
            default: throw flavor.unsupported("\(value.typeName) in a TERNARY")
            }
            return (value == .null ? .null : .value(flavor.sqlValue(value)), type)
        }
        switch try operandOf(e, in: scope) {
        case .attribute(let sql, let type), .expression(let sql, let type): return (sql, type)
        default: throw flavor.unsupported("a relationship in a TERNARY")
        }
    }

    /// The operands of an AND (or OR) with nested ANDs (ORs) taken in: `(a AND b) AND c`
    /// is `a AND b AND c`, without a level of parentheses for SQLite's parser per group.
    package static func flattened(_ parts: [ObjectPredicate], and: Bool) -> [ObjectPredicate] {
        var result: [ObjectPredicate] = []
        var pending = Array(parts.reversed())
        while let part = pending.popLast() {
            switch part {
            case .and(let inner) where and && !inner.isEmpty: pending.append(contentsOf: inner.reversed())
            case .or(let inner) where !and && !inner.isEmpty: pending.append(contentsOf: inner.reversed())
            default: result.append(part)
            }
        }
        return result
    }

    /// Operands joined in a balanced tree of groups: SQLite reads `a OR b OR c ...` as a
    /// chain as deep as it is long, and refuses one deeper than 1,000.
    package static func balanced(_ parts: [SQLExpression], and: Bool) -> SQLExpression {
        guard parts.count > 16 else { return and ? .and(parts) : .or(parts) }
        let middle = parts.count / 2
        let halves = [balanced(Array(parts[..<middle]), and: and), balanced(Array(parts[middle...]), and: and)]
        return and ? .and(halves) : .or(halves)
    }
}
