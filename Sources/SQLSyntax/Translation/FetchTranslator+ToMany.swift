import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension FetchTranslator {
    /// The members of a to-many relationship, as a subquery reads them: the source, the
    /// joins (the destination's table for a join table, then those the body needed) and
    /// the condition linking them to their owner.
    package struct Members {
        var source: SQLSource
        var joins: [SQLJoin]
        var link: SQLExpression

        /// `SELECT columns FROM <members> WHERE link AND condition`.
        func select(_ columns: [SQLExpression], where condition: SQLExpression? = nil) -> SQLSelect {
            SQLSelect(columns: columns, from: source, joins: joins, filter: .and([link] + (condition.map { [$0] } ?? [])))
        }
    }

    /// `EXISTS` / `NOT EXISTS` over the members of a to-many relationship.
    ///
    /// The member is compared with the right-hand side as written in `outer`: a key path or
    /// `SELF` there is the outer object's, as in memory.
    package func quantified(_ r: RelationshipDescription, _ storage: StoreSchema.ToManyStorage, owner: String,
                    condition: ComparisonPredicate, quantifier: ComparisonModifier, outer: Scope) throws -> SQLExpression {
        var (inner, members) = try overMembers(r, storage, owner: owner) { members in
            // The outer object as a variable no predicate can name (the parser takes no control characters).
            let outerName = "\u{1}outer-\(members.alias)"
            var condition = condition
            switch condition.rhs {
            case .keyPath(let path): condition.rhs = .member(.variable(outerName), keyPath: path)
            case .evaluatedObject: condition.rhs = .variable(outerName)
            default: break
            }
            variableScopes[outerName] = outer
            defer { variableScopes[outerName] = nil }
            return try self.condition(for: condition, in: members)
        }
        if quantifier == .all { inner = .not(.coalesce(inner, .false)) }
        let exists = SQLExpression.exists(members.select([.literal(1)], where: inner))
        switch quantifier {
        case .any, .direct: return exists
        case .all, .none: return .not(exists)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count` as a scalar subquery: the members of a
    /// to-many key path that match the predicate, `$x` standing for each; key paths without
    /// `$x` are the outer object's, as in memory.
    package func subqueryCount(_ collection: ObjectExpression, variable: String, _ predicate: ObjectPredicate,
                       in scope: Scope) throws -> SQLExpression {
        guard case .toMany(let r, let storage, let owner, let rest) = try operandOf(collection, in: scope), rest.isEmpty else {
            throw flavor.unsupported("SUBQUERY over \(collection), which is not a to-many relationship")
        }
        let (inner, members) = try overMembers(r, storage, owner: owner) { members in
            let saved = variableScopes[variable]
            variableScopes[variable] = members
            defer { variableScopes[variable] = saved }
            return try condition(for: predicate, in: scope)
        }
        return .subquery(members.select([.countAll], where: .coalesce(inner, .false)))
    }

    /// Work over the members of a to-many relationship: `body` gets their scope (a new
    /// alias), and what it joins stays inside the subquery. Returns the body's result and
    /// the members as a subquery reads them, linked to `owner`.
    package func overMembers<T>(_ r: RelationshipDescription, _ storage: StoreSchema.ToManyStorage, owner: String,
                        _ body: (Scope) throws -> T) throws -> (result: T, members: Members) {
        guard let destination = schema.mapping(for: r.destinationEntityName) else {
            throw ObjectGraphError.unknownEntity(r.destinationEntityName)
        }
        let alias = newAlias()
        let (result, innerJoins) = try withOwnJoins { try body(Scope(alias: alias, mapping: destination)) }
        switch storage {
        case .foreignKey(let table, let column):
            return (result, Members(source: .table(table, as: alias), joins: innerJoins,
                                    link: .column(column, of: alias) == Self.primaryKey(of: owner)))
        case .joinTable(let name, let own, let other):
            let joinAlias = "j" + alias
            let members = SQLJoin(.inner, destination.table.name, as: alias, on: Self.primaryKey(of: alias) == .column(other, of: joinAlias))
            return (result, Members(source: .table(name, as: joinAlias), joins: [members] + innerJoins,
                                    link: .column(own, of: joinAlias) == Self.primaryKey(of: owner)))
        }
    }

    /// Whether a key path from an entity goes through a to-many relationship.
    package static func crossesToMany(_ path: [String], from mapping: StoreSchema.EntityMapping, in schema: StoreSchema) -> Bool {
        var mapping = mapping
        for key in path {
            if mapping.toManyStorage(for: key) != nil { return true }
            guard let fk = mapping.foreignKey(for: key), let next = schema.mapping(for: fk.destinationEntityName) else { return false }
            mapping = next
        }
        return false
    }

    /// `@sum`, `@avg`, `@min` or `@max` of an attribute over a to-many relationship's
    /// members, as a scalar subquery. Missing values are skipped as in memory; the sum of
    /// no members is 0, the others are NULL.
    package func aggregate(_ function: String, of attribute: String, over r: RelationshipDescription,
                   _ storage: StoreSchema.ToManyStorage, owner: String) throws -> Operand {
        let ((column, type), members) = try overMembers(r, storage, owner: owner) { members -> (SQLExpression, AttributeType) in
            guard case .attribute(let column, let type) = try operand(attribute, from: members), joins.isEmpty else {
                throw flavor.unsupported("\(function) over '\(r.name)' needs an attribute of \(r.destinationEntityName)")
            }
            return (column, type)
        }
        let isNumber: Bool
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: isNumber = true
        default: isNumber = false
        }
        if (function == "@sum" || function == "@avg") && !isNumber {
            throw flavor.unsupported("\(function) needs a number attribute, and '\(attribute)' is not one")
        }
        func over(_ name: String) -> SQLExpression { .subquery(members.select([.function(name, [column])])) }
        switch function {
        case "@sum": return .expression(.coalesce(over("SUM"), .literal(0)), type)
        case "@avg": return .expression(over("AVG"), .double)
        case "@min": return .expression(over("MIN"), type)
        default: return .expression(over("MAX"), type)
        }
    }

    /// The number of members, as a scalar subquery on the table that holds their keys.
    package func memberCount(_ r: RelationshipDescription, _ storage: StoreSchema.ToManyStorage, owner: String) -> SQLExpression {
        let (table, column): (String, String)
        switch storage {
        case .foreignKey(let t, let c): (table, column) = (t, c)
        case .joinTable(let name, let own, _): (table, column) = (name, own)
        }
        return .subquery(SQLSelect(columns: [.countAll], from: .table(table),
                                   filter: .column(column, of: table) == Self.primaryKey(of: owner)))
    }
}
