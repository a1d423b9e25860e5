import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates

/// Compiles predicates and sort descriptors over one entity into SQL against the store's
/// tables: key paths through to-one relationships become LEFT JOINs, to-many steps become
/// subqueries, constants become bound arguments.
///
/// ```swift
/// let compiler = QueryCompiler(schema: schema, entity: "ToDo")
/// let whereClause = try compiler.compile(predicate)   // t0.ZNAME = ?  ["Buy milk"]
/// compiler.fromClause                                  // ZTODO t0 LEFT JOIN ...
/// ```
final class QueryCompiler {
    /// A table in scope: its alias and the entity whose keys it answers.
    struct Scope {
        var alias: String
        var mapping: StoreSchema.EntityMapping
    }

    /// What a key path designates.
    enum Operand {
        /// A stored attribute's column.
        case attribute(String, AttributeType)
        /// A to-one relationship's foreign key (or `SELF`'s `Z_PK`), holding `Z_PK`s of `entity`.
        case object(String, entity: String)
        /// A to-many relationship from a scope, with the key path after it.
        case toMany(RelationshipDescription, storage: StoreSchema.ToManyStorage, owner: String, rest: [String])
        /// An SQL expression with a known result type (dictionary results, HAVING).
        case expression(String, AttributeType)
    }

    let schema: StoreSchema
    let root: Scope
    private var aliasCount = 0
    /// LEFT JOINs by (alias of the source, relationship name).
    private var joins: [(key: String, alias: String, sql: String)] = []
    /// For to-one foreign keys whose destination has sub-entities: the SQL of the column
    /// holding the destination's `Z_ENT`, by the SQL of the key column.
    private(set) var entityColumns: [String: String] = [:]
    /// Names standing for SQL expressions (HAVING and grouped ORDER BY).
    var namedExpressions: [String: (sql: String, type: AttributeType)] = [:]
    /// The members a `SUBQUERY` variable stands for, while its predicate is compiled.
    private var variableScopes: [String: Scope] = [:]

    init(schema: StoreSchema, entity: String) throws {
        guard let mapping = schema.mapping(for: entity) else { throw ObjectGraphError.unknownEntity(entity) }
        self.schema = schema
        self.root = Scope(alias: "t0", mapping: mapping)
    }

    /// `ZTABLE t0` followed by the joins the compiled key paths needed.
    var fromClause: String { fromClause(scanningRoot: false) }

    /// The FROM clause; `scanningRoot` reads the root table in order (`NOT INDEXED`).
    func fromClause(scanningRoot: Bool) -> String {
        ([root.mapping.table.name + " t0" + (scanningRoot ? " NOT INDEXED" : "")] + joins.map(\.sql)).joined(separator: " ")
    }

    private func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    // MARK: Key paths

    /// The operand a key path designates, adding joins for to-one steps.
    func operand(_ path: String, from scope: Scope) throws -> Operand {
        if let named = namedExpressions[path] { return .expression(named.sql, named.type) }
        let components = path.split(separator: ".").map(String.init)
        var scope = scope
        for (i, key) in components.enumerated() {
            let mapping = scope.mapping
            let last = i == components.count - 1
            if let column = mapping.column(forAttribute: key) {
                guard last else {
                    throw SQLiteStoreError.unsupportedInSQL("key path '\(path)' continues after attribute '\(key)'")
                }
                return .attribute("\(scope.alias).\(column)", mapping.entity.attribute(named: key)!.type)
            }
            if let fk = mapping.foreignKey(for: key) {
                if last {
                    let column = "\(scope.alias).\(fk.column)"
                    if let e = fk.entityColumn { entityColumns[column] = "\(scope.alias).\(e)" }
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
                return .object("\(scope.alias).Z_PK", entity: mapping.entity.name)
            }
            if let a = mapping.entity.attribute(named: key), a.isTransient {
                throw SQLiteStoreError.unsupportedInSQL("'\(key)' is transient and not stored")
            }
            throw SQLiteStoreError.unknownKey(entity: mapping.entity.name, key: key)
        }
        return .object("\(scope.alias).Z_PK", entity: scope.mapping.entity.name)
    }

    private func join(_ fk: StoreSchema.ForeignKey, from scope: Scope, key: String) throws -> Scope {
        guard let destination = schema.mapping(for: fk.destinationEntityName) else {
            throw ObjectGraphError.unknownEntity(fk.destinationEntityName)
        }
        let joinKey = "\(scope.alias).\(key)"
        if let existing = joins.first(where: { $0.key == joinKey }) {
            return Scope(alias: existing.alias, mapping: destination)
        }
        let alias = newAlias()
        joins.append((joinKey, alias,
                      "LEFT JOIN \(destination.table.name) \(alias) ON \(alias).Z_PK = \(scope.alias).\(fk.column)"))
        return Scope(alias: alias, mapping: destination)
    }

    // MARK: Predicates

    /// The SQL condition for a predicate; a missing value never makes it NULL where memory
    /// evaluation would say true (`NOT` and `ALL` treat unknown as false first).
    func compile(_ predicate: ObjectPredicate) throws -> SQLFragment {
        try compile(predicate, in: root)
    }

    func compile(_ predicate: ObjectPredicate, in scope: Scope) throws -> SQLFragment {
        switch predicate {
        case .true: return .alwaysTrue
        case .false: return .alwaysFalse
        case .and(let parts):
            if parts.isEmpty { return .alwaysTrue }
            return Self.balanced(try Self.flattened(parts, and: true).map { try compile($0, in: scope).parenthesized }, separator: " AND ")
        case .or(let parts):
            if parts.isEmpty { return .alwaysFalse }
            return Self.balanced(try Self.flattened(parts, and: false).map { try compile($0, in: scope).parenthesized }, separator: " OR ")
        case .not(let inner):
            // NOT NOT p holds where p holds: a run of NOTs is one NOT or none, since nested
            // NOTs would fill SQLite's parser stack.
            var negated = true
            var core = inner
            while case .not(let deeper) = core { negated.toggle(); core = deeper }
            let c = try compile(core, in: scope)
            return SQLFragment("\(negated ? "NOT " : "")COALESCE(\(c.sql), 0)", c.arguments)
        case .comparison(let c):
            return try compile(c, in: scope)
        }
    }

    private func compile(_ c: ComparisonPredicate, in scope: Scope) throws -> SQLFragment {
        // A constant on the left and a key path on the right: turn it around.
        if case .constant = c.lhs, case .keyPath = c.rhs, c.modifier == .direct {
            switch c.op {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                return try compile(ComparisonPredicate(c.rhs, Self.mirrored(c.op), c.lhs, options: c.options), in: scope)
            case .in:
                if case .keyPath(let path) = c.rhs, case .toMany(let r, let storage, let owner, let rest) = try operand(path, from: scope) {
                    let element = ComparisonPredicate(.keyPath(rest.isEmpty ? "self" : rest.joined(separator: ".")), .equalTo, c.lhs, options: c.options)
                    return try subquery(r, storage, owner: owner, condition: element, quantifier: .any, outer: scope)
                }
                // A string IN a string attribute is a substring test: the attribute CONTAINS it.
                if case .constant(.string) = c.lhs {
                    return try compile(ComparisonPredicate(c.rhs, .contains, c.lhs, options: c.options), in: scope)
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
                throw SQLiteStoreError.unsupportedInSQL(
                    "\(c.modifier.rawValue) needs a collection, and \(r.name).\(rest.joined(separator: ".")) is one number; "
                    + "to test each member, use SUBQUERY(collection, $x, condition on $x).@count > 0")
            }
            if rest == ["@count"] {
                let count = try countSQL(r, storage, owner: owner)
                return try compare(.expression(count, .integer64), c.op, c.rhs, options: c.options, in: scope)
            }
            if rest.count == 2, ["@sum", "@avg", "@min", "@max"].contains(rest[0]) {
                let aggregate = try aggregateSQL(rest[0], of: rest[1], over: r, storage, owner: owner)
                return try compare(aggregate, c.op, c.rhs, options: c.options, in: scope)
            }
            if c.modifier == .direct {
                if c.op == .contains {
                    // A collection CONTAINS a value: some member (or member's key) equals it.
                    let element = ComparisonPredicate(rest.isEmpty ? .evaluatedObject : .keyPath(rest.joined(separator: ".")),
                                                      .equalTo, c.rhs, options: rest.isEmpty ? [] : c.options)
                    return try subquery(r, storage, owner: owner, condition: element, quantifier: .any, outer: scope)
                }
                throw SQLiteStoreError.unsupportedInSQL(
                    "comparing the to-many relationship '\(r.name)' needs ANY, ALL, NONE, @count, or @sum/@avg/@min/@max of an attribute")
            }
            // Through a second to-many step (ANY projects.members.name): the members' members
            // are quantified the same way, ALL within ALL, ANY within ANY and NONE.
            let crossesToMany = schema.mapping(for: r.destinationEntityName).map { Self.crossesToMany(rest, from: $0, in: schema) } ?? false
            let element = ComparisonPredicate(rest.isEmpty ? .evaluatedObject : .keyPath(rest.joined(separator: ".")),
                                              c.op, c.rhs, modifier: crossesToMany ? (c.modifier == .all ? .all : .any) : .direct,
                                              options: c.options)
            return try subquery(r, storage, owner: owner, condition: element, quantifier: c.modifier, outer: scope)
        default:
            if c.modifier != .direct {
                throw SQLiteStoreError.unsupportedInSQL("\(c.modifier.rawValue) needs a to-many key path on the left")
            }
            return try compare(left, c.op, c.rhs, options: c.options, in: scope)
        }
    }

    private func operandOf(_ e: ObjectExpression, in scope: Scope) throws -> Operand {
        switch e {
        case .keyPath(let path): return try operand(path, from: scope)
        case .evaluatedObject: return .object("\(scope.alias).Z_PK", entity: scope.mapping.entity.name)
        case .member(.evaluatedObject, let path): return try operand(path, from: scope)
        case .variable(let name) where variableScopes[name] != nil:
            let member = variableScopes[name]!
            return .object("\(member.alias).Z_PK", entity: member.mapping.entity.name)
        case .member(.variable(let name), let path) where variableScopes[name] != nil:
            return try operand(path, from: variableScopes[name]!)
        case .variable(let name):
            throw SQLiteStoreError.unsupportedInSQL("variable $\(name) has no value (substitute variables first)")
        default:
            throw SQLiteStoreError.unsupportedInSQL("the expression \(e) on the left of a comparison")
        }
    }

    /// `EXISTS` / `NOT EXISTS` over the members of a to-many relationship.
    ///
    /// The member is compared with the right-hand side as written in `outer`: a key path or
    /// `SELF` there is the outer object's, as in memory.
    private func subquery(_ r: RelationshipDescription, _ storage: StoreSchema.ToManyStorage, owner: String,
                          condition: ComparisonPredicate, quantifier: ComparisonModifier, outer: Scope) throws -> SQLFragment {
        var (inner, from) = try overMembers(r, storage, owner: owner) { members in
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
            return try compile(condition, in: members)
        }
        if quantifier == .all { inner = SQLFragment("NOT COALESCE(\(inner.sql), 0)", inner.arguments) }
        let exists = "EXISTS (SELECT 1 \(from) AND \(inner.sql))"
        switch quantifier {
        case .any, .direct: return SQLFragment(exists, inner.arguments)
        case .all, .none: return SQLFragment("NOT " + exists, inner.arguments)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count` as a scalar subquery: the members of a
    /// to-many key path that match the predicate, `$x` standing for each; key paths without
    /// `$x` are the outer object's, as in memory.
    private func subqueryCount(_ collection: ObjectExpression, variable: String, _ predicate: ObjectPredicate,
                               in scope: Scope) throws -> SQLFragment {
        guard case .toMany(let r, let storage, let owner, let rest) = try operandOf(collection, in: scope), rest.isEmpty else {
            throw SQLiteStoreError.unsupportedInSQL("SUBQUERY over \(collection), which is not a to-many relationship")
        }
        let (condition, from) = try overMembers(r, storage, owner: owner) { members in
            let saved = variableScopes[variable]
            variableScopes[variable] = members
            defer { variableScopes[variable] = saved }
            return try compile(predicate, in: scope)
        }
        return SQLFragment("(SELECT COUNT(*) \(from) AND COALESCE(\(condition.sql), 0))", condition.arguments)
    }

    /// Work over the members of a to-many relationship: `body` gets their scope (a new
    /// alias), and what it joins stays inside the subquery. Returns the body's result and the
    /// members' `FROM … WHERE` clause, linked to `owner` and holding those joins.
    private func overMembers<T>(_ r: RelationshipDescription, _ storage: StoreSchema.ToManyStorage, owner: String,
                                _ body: (Scope) throws -> T) throws -> (result: T, from: String) {
        guard let destination = schema.mapping(for: r.destinationEntityName) else {
            throw ObjectGraphError.unknownEntity(r.destinationEntityName)
        }
        let alias = newAlias()
        let savedJoins = joins
        joins = []
        defer { joins = savedJoins }
        let result = try body(Scope(alias: alias, mapping: destination))
        let innerJoins = joins.map { " " + $0.sql }.joined()
        switch storage {
        case .foreignKey(let table, let column):
            return (result, "FROM \(table) \(alias)\(innerJoins) WHERE \(alias).\(column) = \(owner).Z_PK")
        case .joinTable(let name, let own, let other):
            return (result, "FROM \(name) j\(alias) JOIN \(destination.table.name) \(alias) ON \(alias).Z_PK = j\(alias).\(other)"
                        + "\(innerJoins) WHERE j\(alias).\(own) = \(owner).Z_PK")
        }
    }

    /// A count (never NULL) compared with a constant, as memory compares an integer.
    private func compareCount(_ count: SQLFragment, _ op: ComparisonOperator, _ value: ObjectValue) throws -> SQLFragment {
        func number(_ v: ObjectValue) -> DatabaseValue? {
            switch v {
            case .int, .double, .decimal, .bool: return DatabaseValueCoding.databaseValue(v)
            default: return nil
            }
        }
        switch op {
        case .equalTo, .notEqualTo:
            guard let n = number(value) else { return op == .equalTo ? .alwaysFalse : .alwaysTrue }
            return SQLFragment("\(count.sql) \(op == .equalTo ? "=" : "<>") ?", count.arguments + [n])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let n = number(value) else { return .alwaysFalse }
            return SQLFragment("\(count.sql) \(op.rawValue) ?", count.arguments + [n])
        case .between:
            guard let bounds = value.collectionElements, bounds.count == 2 else {
                throw SQLiteStoreError.unsupportedInSQL("BETWEEN needs two values on the right")
            }
            guard let low = number(bounds[0]), let high = number(bounds[1]) else { return .alwaysFalse }
            return SQLFragment("\(count.sql) BETWEEN ? AND ?", count.arguments + [low, high])
        case .in:
            let numbers = (value.collectionElements ?? []).compactMap(number)
            guard !numbers.isEmpty else { return .alwaysFalse }
            return SQLFragment("\(count.sql) IN (\(Array(repeating: "?", count: numbers.count).joined(separator: ", ")))",
                               count.arguments + numbers)
        default:
            throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) with SUBQUERY(...).@count")
        }
    }

    /// Whether a key path from an entity goes through a to-many relationship.
    static func crossesToMany(_ path: [String], from mapping: StoreSchema.EntityMapping, in schema: StoreSchema) -> Bool {
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
    private func aggregateSQL(_ function: String, of attribute: String, over r: RelationshipDescription,
                              _ storage: StoreSchema.ToManyStorage, owner: String) throws -> Operand {
        let ((column, type), from) = try overMembers(r, storage, owner: owner) { members -> (String, AttributeType) in
            guard case .attribute(let column, let type) = try operand(attribute, from: members), joins.isEmpty else {
                throw SQLiteStoreError.unsupportedInSQL("\(function) over '\(r.name)' needs an attribute of \(r.destinationEntityName)")
            }
            return (column, type)
        }
        let isNumber: Bool
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: isNumber = true
        default: isNumber = false
        }
        if (function == "@sum" || function == "@avg") && !isNumber {
            throw SQLiteStoreError.unsupportedInSQL("\(function) needs a number attribute, and '\(attribute)' is not one")
        }
        switch function {
        case "@sum": return .expression("COALESCE((SELECT SUM(\(column)) \(from)), 0)", type)
        case "@avg": return .expression("(SELECT AVG(\(column)) \(from))", .double)
        case "@min": return .expression("(SELECT MIN(\(column)) \(from))", type)
        default: return .expression("(SELECT MAX(\(column)) \(from))", type)
        }
    }

    private func countSQL(_ r: RelationshipDescription, _ storage: StoreSchema.ToManyStorage, owner: String) throws -> String {
        switch storage {
        case .foreignKey(let table, let column):
            return "(SELECT COUNT(*) FROM \(table) WHERE \(table).\(column) = \(owner).Z_PK)"
        case .joinTable(let name, let own, _):
            return "(SELECT COUNT(*) FROM \(name) WHERE \(name).\(own) = \(owner).Z_PK)"
        }
    }

    // MARK: Comparisons

    /// A comparison of a column (or SQL expression) with the right-hand side.
    private func compare(_ left: Operand, _ op: ComparisonOperator, _ rhs: ObjectExpression,
                         options: ComparisonOptions, in scope: Scope) throws -> SQLFragment {
        let (column, type): (String, AttributeType?)
        var objectEntity: String?
        switch left {
        case .attribute(let c, let t), .expression(let c, let t): (column, type) = (c, t)
        case .object(let c, let entity): (column, type, objectEntity) = (c, nil, entity)
        case .toMany: throw SQLiteStoreError.unsupportedInSQL("a to-many relationship in a comparison")
        }
        let isString = type == .string || type == .uri
        let folding = isString && !options.isEmpty && !options.contains(.normalized)

        // Key path against key path (or a SUBQUERY variable's).
        if let right = try rightOperand(rhs, in: scope) {
            let rightColumn: String
            var rightType: AttributeType?
            switch right {
            case .attribute(let c, let t), .expression(let c, let t): (rightColumn, rightType) = (c, t)
            case .object(let c, _): rightColumn = c
            case .toMany: throw SQLiteStoreError.unsupportedInSQL("a to-many relationship on the right of \(op.rawValue)")
            }
            // Values of different kinds (a number and a string, a date and a number) are never
            // equal or ordered in memory; SQLite would compare them by its storage classes.
            if let type, let rightType, Self.kind(of: type) != Self.kind(of: rightType) {
                let bothNil = "(\(column) IS NULL AND \(rightColumn) IS NULL)"
                switch op {
                case .equalTo: return SQLFragment(bothNil)
                case .notEqualTo: return SQLFragment("NOT \(bothNil)")
                case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: return .alwaysFalse
                default: break
                }
            }
            switch op {
            case .equalTo: return SQLFragment("\(column) IS \(rightColumn)")
            case .notEqualTo: return SQLFragment("\(column) IS NOT \(rightColumn)")
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                return SQLFragment("\(column) \(op.rawValue) \(rightColumn)")
            default:
                throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) between two key paths")
            }
        }

        let value = try constant(rhs)
        if let objectEntity {
            return try compareObjects(column, entity: objectEntity, op, value)
        }
        let lhsSQL = folding ? "td_fold(\(column), ?)" : column
        let lhsArgs: [DatabaseValue] = folding ? [options.rawValue.databaseValue] : []
        func bound(_ v: ObjectValue) -> DatabaseValue {
            if folding, case .string(let s) = v { return options.fold(s).databaseValue }
            return DatabaseValueCoding.databaseValue(v)
        }
        switch op {
        case .equalTo, .notEqualTo:
            let equal = op == .equalTo
            if value.isNull { return SQLFragment("\(column) \(equal ? "IS NULL" : "IS NOT NULL")") }
            guard Self.fits(value, type) else { return equal ? .alwaysFalse : .alwaysTrue }
            return SQLFragment("\(lhsSQL) \(equal ? "=" : "IS NOT") ?", lhsArgs + [bound(value)])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard !value.isNull, Self.fits(value, type), Self.ordered(value) else { return .alwaysFalse }
            return SQLFragment("\(lhsSQL) \(op.rawValue) ?", lhsArgs + [bound(value)])
        case .between:
            guard let bounds = value.collectionElements, bounds.count == 2 else {
                throw SQLiteStoreError.unsupportedInSQL("BETWEEN needs two values on the right")
            }
            guard bounds.allSatisfy({ !$0.isNull && Self.fits($0, type) && Self.ordered($0) }) else { return .alwaysFalse }
            return SQLFragment("\(lhsSQL) BETWEEN ? AND ?", lhsArgs + [bound(bounds[0]), bound(bounds[1])])
        case .in:
            if case .string = value {
                // As in memory, where a number IN a string is an error rather than no match.
                guard isString else {
                    throw SQLiteStoreError.unsupportedInSQL("IN with a string needs a string on its left, not \(type?.xcodeName ?? "an object")")
                }
                return SQLFragment("td_test('IN', \(column), ?, ?)", [bound(value), options.rawValue.databaseValue])
            }
            let elements: [ObjectValue]
            switch value {
            case .array(let a), .set(let a): elements = a
            case .dictionary(let d): elements = Array(d.values)
            case .null: return .alwaysFalse
            default: throw SQLiteStoreError.unsupportedInSQL("IN needs a collection on the right, got \(value.typeName)")
            }
            let fitting = elements.filter { !$0.isNull && Self.fits($0, type) }
            let hasNull = elements.contains { $0.isNull }
            var parts: [SQLFragment] = []
            if !fitting.isEmpty {
                let marks = Array(repeating: "?", count: fitting.count).joined(separator: ", ")
                parts.append(SQLFragment("\(lhsSQL) IN (\(marks))", lhsArgs + fitting.map(bound)))
            }
            if hasNull { parts.append(SQLFragment("\(column) IS NULL")) }
            if parts.isEmpty { return .alwaysFalse }
            return parts.count == 1 ? parts[0] : SQLFragment.joined(parts, separator: " OR ")
        case .contains:
            guard isString else { throw SQLiteStoreError.unsupportedInSQL("CONTAINS on a value that is not a string or a to-many relationship") }
            if value.isNull { return .alwaysFalse }
            guard case .string = value else { throw SQLiteStoreError.unsupportedInSQL("CONTAINS with a string needs a string") }
            return SQLFragment("td_test('CONTAINS', \(column), ?, ?)", [value.databaseValueForFunction, options.rawValue.databaseValue])
        case .beginsWith, .endsWith:
            guard isString else { throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) needs a string attribute") }
            if value.isNull { return .alwaysFalse }
            guard case .string = value else { throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) needs a string") }
            return SQLFragment("td_test('\(op.rawValue)', \(column), ?, ?)", [value.databaseValueForFunction, options.rawValue.databaseValue])
        case .like, .matches:
            guard isString else { throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) needs a string attribute") }
            if value.isNull { return .alwaysFalse }
            guard case .string = value else { throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) needs a string pattern") }
            let function = op == .like ? "td_like" : "td_matches"
            return SQLFragment("\(function)(\(column), ?, ?)", [value.databaseValueForFunction, options.rawValue.databaseValue])
        }
    }

    /// The operand of a right-hand side that is a key path, or a `SUBQUERY` variable or its
    /// key path; nil for a value.
    private func rightOperand(_ rhs: ObjectExpression, in scope: Scope) throws -> Operand? {
        switch rhs {
        case .keyPath(let path): return try operand(path, from: scope)
        case .variable(let name) where variableScopes[name] != nil: return try operandOf(rhs, in: scope)
        case .member(.variable(let name), _) where variableScopes[name] != nil: return try operandOf(rhs, in: scope)
        default: return nil
        }
    }

    /// Comparisons of a to-one foreign key or `SELF` with objects.
    private func compareObjects(_ column: String, entity: String, _ op: ComparisonOperator, _ value: ObjectValue) throws -> SQLFragment {
        let root = schema.mapping(for: entity)?.table.name
        func key(_ v: ObjectValue) -> Int64? {
            guard case .object(let o) = v else { return nil }
            let id: ManagedObjectID? = (o as? ManagedObjectID) ?? (o as? ManagedObject)?.objectID
            guard let id, let pk = id.primaryKey, schema.mapping(for: id.entityName)?.table.name == root else { return nil }
            return pk
        }
        switch op {
        case .equalTo, .notEqualTo:
            let equal = op == .equalTo
            if value.isNull { return SQLFragment("\(column) \(equal ? "IS NULL" : "IS NOT NULL")") }
            guard let pk = key(value) else { return equal ? .alwaysFalse : .alwaysTrue }
            return SQLFragment("\(column) \(equal ? "=" : "IS NOT") ?", [pk.databaseValue])
        case .in:
            guard let elements = value.collectionElements ?? (value.isNull ? [] : nil) else {
                throw SQLiteStoreError.unsupportedInSQL("IN needs a collection of objects")
            }
            let keys = elements.compactMap(key)
            var parts: [SQLFragment] = []
            if !keys.isEmpty {
                parts.append(SQLFragment("\(column) IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))",
                                         keys.map(\.databaseValue)))
            }
            if elements.contains(where: \.isNull) { parts.append(SQLFragment("\(column) IS NULL")) }
            if parts.isEmpty { return .alwaysFalse }
            return SQLFragment.joined(parts, separator: " OR ")
        default:
            throw SQLiteStoreError.unsupportedInSQL("\(op.rawValue) between objects")
        }
    }

    /// The value of a right-hand side that SQL takes as an argument.
    private func constant(_ e: ObjectExpression) throws -> ObjectValue {
        switch e {
        case .constant(let v): return v
        case .aggregate(let items): return .array(try items.map(constant))
        case .function, .cast:
            // Functions of constants only (now(), CAST(..., "NSDate")): evaluate them once here.
            do { return try e.evaluate(with: .null) } catch {
                throw SQLiteStoreError.unsupportedInSQL("the expression \(e) on the right of a comparison")
            }
        case .variable(let name):
            throw SQLiteStoreError.unsupportedInSQL("variable $\(name) has no value (substitute variables first)")
        default:
            throw SQLiteStoreError.unsupportedInSQL("the expression \(e) on the right of a comparison")
        }
    }

    /// The operands of an AND (or OR) with nested ANDs (ORs) taken in: `(a AND b) AND c`
    /// is `a AND b AND c`, without a level of parentheses for SQLite's parser per group.
    static func flattened(_ parts: [ObjectPredicate], and: Bool) -> [ObjectPredicate] {
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

    /// Operands joined in a balanced tree of parenthesised groups: SQLite reads `a OR b OR c ...`
    /// as a chain as deep as it is long, and refuses one deeper than 1,000.
    static func balanced(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        guard parts.count > 16 else { return SQLFragment.joined(parts, separator: separator) }
        let middle = parts.count / 2
        return SQLFragment.joined([balanced(Array(parts[..<middle]), separator: separator).parenthesized,
                                   balanced(Array(parts[middle...]), separator: separator).parenthesized],
                                  separator: separator)
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
    static func fits(_ value: ObjectValue, _ type: AttributeType?) -> Bool {
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
    static func ordered(_ value: ObjectValue) -> Bool {
        switch value {
        case .bool, .int, .double, .decimal, .string, .date, .data, .uuid, .url: return true
        default: return false
        }
    }

    static func mirrored(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return op
        }
    }

    // MARK: Sorting

    /// `ORDER BY` terms for sort descriptors, with collations that order as memory does.
    func orderBy(_ descriptors: [ObjectSortDescriptor]) throws -> [String] {
        try descriptors.map { d in
            let column: String
            var type: AttributeType?
            switch try operand(d.key, from: root) {
            case .attribute(let c, let t), .expression(let c, let t): (column, type) = (c, t)
            case .object(let c, _): column = c
            case .toMany(let r, _, _, _):
                throw SQLiteStoreError.unsupportedInSQL("sorting by the to-many relationship '\(r.name)'")
            }
            var term = column
            if d.comparison != .compare, type == .string || type == nil {
                term += " COLLATE " + SQLFunctions.collationName(d.comparison)
            }
            return term + (d.ascending ? " ASC" : " DESC")
        }
    }
}

private extension ObjectValue {
    /// A string bound for one of the registered functions, which fold it themselves.
    var databaseValueForFunction: DatabaseValue { DatabaseValueCoding.databaseValue(self) }
}
