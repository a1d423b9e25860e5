import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Translates a fetch's predicates and sort descriptors over one entity into SQL syntax
/// trees against the store's tables: key paths through to-one relationships become LEFT
/// JOINs, to-many steps become subqueries, constants become bound values.
///
/// ```swift
/// let translator = try FetchTranslator(schema: schema, entity: "ToDo")
/// let condition = try translator.condition(for: predicate)   // t0.ZNAME = ?  ["Buy milk"]
/// translator.joins                                           // LEFT JOIN ... for the key paths it met
/// ```
///
/// The work is split by concern: key paths and joins here, predicates in
/// `+Predicates`, comparisons with values in `+Comparisons`, to-many relationships in
/// `+ToMany`, and sorting in `+Sorting`.
package final class FetchTranslator {
    /// A table in scope: its alias and the entity whose keys it answers.
    package struct Scope {
        package var alias: String
        package var mapping: StoreSchema.EntityMapping
    }

    /// What a key path designates.
    package enum Operand {
        /// A stored attribute's column.
        case attribute(SQLExpression, AttributeType)
        /// A to-one relationship's foreign key (or `SELF`'s `Z_PK`), holding `Z_PK`s of `entity`.
        case object(SQLExpression, entity: String)
        /// A to-many relationship from a scope, with the key path after it.
        case toMany(RelationshipDescription, storage: StoreSchema.ToManyStorage, owner: String, rest: [String])
        /// An SQL expression with a known result type (dictionary results, HAVING).
        case expression(SQLExpression, AttributeType)
    }

    package let schema: StoreSchema
    package let flavor: any FetchFlavor
    package let root: Scope
    private var aliasCount = 0
    /// LEFT JOINs by (alias of the source, relationship name).
    package private(set) var joins: [(key: String, join: SQLJoin)] = []
    /// For to-one foreign keys whose destination has sub-entities: the column holding the
    /// destination's `Z_ENT`, by the key column.
    package private(set) var entityColumns: [SQLExpression: SQLExpression] = [:]
    /// Names standing for SQL expressions (HAVING and grouped ORDER BY).
    package var namedExpressions: [String: (expression: SQLExpression, type: AttributeType)] = [:]
    /// The members a `SUBQUERY` variable stands for, while its predicate is translated.
    package var variableScopes: [String: Scope] = [:]

    package init(schema: StoreSchema, entity: String, flavor: any FetchFlavor) throws {
        guard let mapping = schema.mapping(for: entity) else { throw ObjectGraphError.unknownEntity(entity) }
        self.schema = schema
        self.flavor = flavor
        self.root = Scope(alias: "t0", mapping: mapping)
    }

    /// The root table as `ZTABLE t0`; `scanning` reads it in order (`NOT INDEXED`).
    package func rootSource(scanning: Bool = false) -> SQLSource {
        .table(root.mapping.table.name, alias: root.alias, notIndexed: scanning)
    }

    /// The joins the translated key paths needed, in the order they were met.
    package var joinClauses: [SQLJoin] { joins.map(\.join) }

    package func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// The primary key column of a scope.
    package static func primaryKey(of alias: String) -> SQLExpression { .column("Z_PK", of: alias) }

    // MARK: Key paths

    /// The operand a key path designates, adding joins for to-one steps.
    package func operand(_ path: String, from scope: Scope) throws -> Operand {
        if let named = namedExpressions[path] { return .expression(named.expression, named.type) }
        let components = path.split(separator: ".").map(String.init)
        var scope = scope
        for (i, key) in components.enumerated() {
            let mapping = scope.mapping
            let last = i == components.count - 1
            if let column = mapping.column(forAttribute: key) {
                guard last else {
                    throw flavor.unsupported("key path '\(path)' continues after attribute '\(key)'")
                }
                return .attribute(.column(column, of: scope.alias), mapping.entity.attribute(named: key)!.type)
            }
            if let fk = mapping.foreignKey(for: key) {
                if last {
                    let column = SQLExpression.column(fk.column, of: scope.alias)
                    if let e = fk.entityColumn { entityColumns[column] = .column(e, of: scope.alias) }
                    return .object(column, entity: fk.destinationEntityName)
                }
                scope = try join(fk, from: scope, key: key)
                continue
            }
            if let storage = mapping.toManyStorage(for: key) {
                let relationship = mapping.entity.relationship(named: key)!
                return .toMany(relationship, storage: storage, owner: scope.alias, rest: Array(components[(i + 1)...]))
            }
            if key == "self" || key == "SELF" || key == "objectID" {
                guard last else { continue }
                return .object(Self.primaryKey(of: scope.alias), entity: mapping.entity.name)
            }
            if let a = mapping.entity.attribute(named: key), a.isTransient {
                throw flavor.unsupported("'\(key)' is transient and not stored")
            }
            throw flavor.unknownKey(entity: mapping.entity.name, key: key)
        }
        return .object(Self.primaryKey(of: scope.alias), entity: scope.mapping.entity.name)
    }

    private func join(_ fk: StoreSchema.ForeignKey, from scope: Scope, key: String) throws -> Scope {
        guard let destination = schema.mapping(for: fk.destinationEntityName) else {
            throw ObjectGraphError.unknownEntity(fk.destinationEntityName)
        }
        let joinKey = "\(scope.alias).\(key)"
        if let existing = joins.first(where: { $0.key == joinKey }) {
            return Scope(alias: existing.join.alias, mapping: destination)
        }
        guard joins.count < flavor.maximumJoins else {
            throw flavor.unsupported(
                "the key paths follow more than \(flavor.maximumJoins) to-one relationships, and \(flavor.engine) joins at most \(flavor.maximumJoins + 1) tables in one query")
        }
        let alias = newAlias()
        joins.append((joinKey, SQLJoin(.left, destination.table.name, as: alias,
                                       on: Self.primaryKey(of: alias) == .column(fk.column, of: scope.alias))))
        return Scope(alias: alias, mapping: destination)
    }

    /// Runs `body` with no joins recorded, returning what it joined apart: the joins of a
    /// subquery stay inside it.
    package func withOwnJoins<T>(_ body: () throws -> T) rethrows -> (result: T, joins: [SQLJoin]) {
        let saved = joins
        joins = []
        defer { joins = saved }
        let result = try body()
        return (result, joins.map(\.join))
    }
}
