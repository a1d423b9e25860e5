import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates

/// The SELECT statement of a fetch: which rows (entities, predicate), in what order, how
/// many, and which columns for each result type.
///
/// ```swift
/// let query = try FetchQuery(schema: schema, request: storeRequest)
/// try query.selectIDs().sql
/// // SELECT t0.Z_PK, t0.Z_ENT FROM ZTODO t0 WHERE t0.ZCOMPLETED = ? ORDER BY t0.ZDUEDATE ASC, t0.Z_PK ASC
/// ```
struct FetchQuery {
    /// How a column of a dictionary result becomes a value.
    enum Decoder {
        case attribute(AttributeType)
        /// A binary value that may be kept in an external file; `attribute` names it in errors.
        case externalData(attribute: String)
        /// An object ID of `entity`, or of the entity whose `Z_ENT` is in result column `entityColumn`.
        case object(entity: String, entityColumn: Int?)
    }

    let schema: StoreSchema
    let request: StoreRequest
    let compiler: QueryCompiler
    /// The entity restriction and the predicate.
    let whereClause: SQLFragment?

    init(schema: StoreSchema, request: StoreRequest) throws {
        self.schema = schema
        self.request = request
        compiler = try QueryCompiler(schema: schema, entity: request.fetch.entityName)
        let table = compiler.root.mapping.table
        var conditions: [SQLFragment] = []
        let numbers = request.entityNames.compactMap { schema.mapping(for: $0)?.number }
        if Set(numbers) != Set(table.entityNumbers) {
            if numbers.count == 1 {
                conditions.append(SQLFragment("t0.Z_ENT = ?", [numbers[0].databaseValue]))
            } else if numbers.isEmpty {
                conditions.append(.alwaysFalse)
            } else {
                conditions.append(SQLFragment("t0.Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", ")))",
                                              numbers.map(\.databaseValue)))
            }
        }
        if let predicate = request.fetch.predicate, predicate != .true {
            conditions.append(try compiler.compile(predicate))
        }
        whereClause = conditions.isEmpty ? nil
            : conditions.count == 1 ? conditions[0] : SQLFragment.joined(conditions.map(\.parenthesized), separator: " AND ")
    }

    private var wherePart: SQLFragment {
        whereClause.map { SQLFragment(" WHERE " + $0.sql, $0.arguments) } ?? SQLFragment("")
    }

    private var limitPart: SQLFragment {
        let fetch = request.fetch
        guard request.appliesLimits, fetch.fetchLimit > 0 || fetch.fetchOffset > 0 else { return SQLFragment("") }
        return SQLFragment(" LIMIT ? OFFSET ?", [(fetch.fetchLimit > 0 ? fetch.fetchLimit : -1).databaseValue,
                                                   fetch.fetchOffset.databaseValue])
    }

    /// The statement for the request's result type.
    func selectForResult() throws -> SQLFragment {
        switch request.fetch.resultType {
        case .count: return try selectCount()
        case .dictionaries: return try selectDictionaries().fragment
        case .managedObjects, .objectIDs: return try selectIDs()
        }
    }

    /// `SELECT t0.Z_PK, t0.Z_ENT ...`: the matching objects in order; `scanning` reads the
    /// root table in order rather than through an index.
    func selectIDs(scanning: Bool = false) throws -> SQLFragment {
        var order = try compiler.orderBy(request.fetch.sortDescriptors)
        if !order.isEmpty { order.append("t0.Z_PK ASC") }
        let orderPart = order.isEmpty ? "" : " ORDER BY " + order.joined(separator: ", ")
        let w = wherePart, l = limitPart
        return SQLFragment("SELECT t0.Z_PK, t0.Z_ENT FROM \(compiler.fromClause(scanningRoot: scanning))\(w.sql)\(orderPart)\(l.sql)",
                           w.arguments + l.arguments)
    }

    /// `SELECT COUNT(*) ...`, counting within offset and limit; `scanning` reads the root
    /// table in order rather than through an index.
    func selectCount(scanning: Bool = false) throws -> SQLFragment {
        let w = wherePart, l = limitPart
        if l.sql.isEmpty {
            return SQLFragment("SELECT COUNT(*) FROM \(compiler.fromClause(scanningRoot: scanning))\(w.sql)", w.arguments)
        }
        return SQLFragment("SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM \(compiler.fromClause)\(w.sql)\(l.sql))",
                           w.arguments + l.arguments)
    }

    /// Whether the request has neither a limit nor an offset.
    var isUnlimited: Bool { limitPart.sql.isEmpty }

    /// Whether the request sorts its results.
    var isSorted: Bool { !request.fetch.sortDescriptors.isEmpty }

    /// Whether the statement has a WHERE clause (entity restriction or predicate).
    var isFiltered: Bool { !wherePart.sql.isEmpty }

    /// The number of matching rows, counting no further than `bound`.
    func selectCount(upTo bound: Int) -> SQLFragment {
        let w = wherePart
        return SQLFragment("SELECT COUNT(*) FROM (SELECT 1 FROM \(compiler.fromClause)\(w.sql) LIMIT ?)",
                           w.arguments + [bound.databaseValue])
    }

    /// The root table, for an estimate of its size.
    var rootTable: String { compiler.root.mapping.table.name }

    static let aggregates: [String: String] = ["sum:": "SUM", "count:": "COUNT", "min:": "MIN", "max:": "MAX", "average:": "AVG"]

    /// The statement of a dictionary fetch, with the result names and decoders of its columns.
    func selectDictionaries(scanning: Bool = false) throws -> (fragment: SQLFragment, names: [String], decoders: [Decoder]) {
        let fetch = request.fetch
        let entity = compiler.root.mapping.entity
        let properties = fetch.propertiesToFetch ?? entity.storedAttributes.map { FetchProperty.key($0.name) }
        var columns: [String] = [], names: [String] = [], decoders: [Decoder] = []
        var aggregating = false
        for property in properties {
            let (sql, decoder, isAggregate) = try column(for: property)
            columns.append(sql)
            names.append(property.name)
            decoders.append(decoder)
            aggregating = aggregating || isAggregate
            if case .attribute(let type) = decoder {
                compiler.namedExpressions[property.name] = (sql, type)
            }
        }
        // Object IDs of destinations with sub-entities read their entity from one more column.
        for i in decoders.indices {
            if case .object(let entity, nil) = decoders[i], let entityColumn = compiler.entityColumns[columns[i]] {
                columns.append(entityColumn)
                decoders[i] = .object(entity: entity, entityColumn: columns.count - 1)
            }
        }
        let groupBy = try (fetch.propertiesToGroupBy ?? []).map { try column(for: $0).sql }
        var having = SQLFragment("")
        if let predicate = fetch.havingPredicate {
            guard !groupBy.isEmpty else {
                throw SQLiteStoreError.unsupportedInSQL("a having predicate needs properties to group by")
            }
            let c = try compiler.compile(predicate)
            having = SQLFragment(" HAVING " + c.sql, c.arguments)
        }
        var order: [String] = []
        if !(aggregating && groupBy.isEmpty) {
            order = try compiler.orderBy(fetch.sortDescriptors)
        }
        if !groupBy.isEmpty {
            // Groups without a sort come in the order of their first row, as in memory.
            order.append("MIN(t0.Z_PK) ASC")
        }
        let w = wherePart, l = limitPart
        let distinct = fetch.returnsDistinctResults ? "DISTINCT " : ""
        var sql = "SELECT \(distinct)\(columns.joined(separator: ", ")) FROM \(compiler.fromClause(scanningRoot: scanning))\(w.sql)"
        if !groupBy.isEmpty { sql += " GROUP BY " + groupBy.joined(separator: ", ") }
        sql += having.sql
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        sql += l.sql
        return (SQLFragment(sql, w.arguments + having.arguments + l.arguments), names, decoders)
    }

    /// The SQL of one dictionary column.
    private func column(for property: FetchProperty) throws -> (sql: String, decoder: Decoder, isAggregate: Bool) {
        switch property {
        case .key(let path):
            return try keyColumn(path)
        case .expression(let description):
            switch description.expression {
            case .keyPath(let path):
                return try keyColumn(path)
            case .function(let name, let arguments):
                guard let function = Self.aggregates[name], arguments.count == 1 else {
                    throw SQLiteStoreError.unsupportedInSQL("the function \(name) in expression '\(description.name)'")
                }
                if name == "count:" { return ("COUNT(*)", .attribute(.integer64), true) }
                guard case .keyPath(let path) = arguments[0] else {
                    throw SQLiteStoreError.unsupportedInSQL("\(name) of something other than a key path in '\(description.name)'")
                }
                let (sql, decoder, _) = try keyColumn(path)
                if case .externalData(let attribute) = decoder {
                    throw SQLiteStoreError.unsupportedInSQL("\(name) of \(attribute), a binary value that may be kept outside the database, in '\(description.name)'")
                }
                guard case .attribute(let type) = decoder else {
                    throw SQLiteStoreError.unsupportedInSQL("\(name) of a relationship in '\(description.name)'")
                }
                switch name {
                case "sum:": return ("COALESCE(SUM(\(sql)), 0)", .attribute(type == .decimal ? .decimal : (type.isInteger ? .integer64 : .double)), true)
                case "average:": return ("AVG(\(sql))", .attribute(type == .decimal ? .decimal : .double), true)
                default: return ("\(function)(\(sql))", .attribute(type), true)
                }
            default:
                throw SQLiteStoreError.unsupportedInSQL("the expression of '\(description.name)'")
            }
        }
    }

    private func keyColumn(_ path: String) throws -> (sql: String, decoder: Decoder, isAggregate: Bool) {
        switch try compiler.operand(path, from: compiler.root) {
        case .attribute(let sql, let type), .expression(let sql, let type):
            if let (entity, attribute) = attribute(at: path), attribute.allowsExternalBinaryDataStorage,
               type == .binary || type == .transformable {
                return (sql, .externalData(attribute: "\(entity.name).\(attribute.name)"), false)
            }
            return (sql, .attribute(type), false)
        case .object(let sql, let entity): return (sql, .object(entity: entity, entityColumn: nil), false)
        case .toMany(let r, _, _, _):
            throw SQLiteStoreError.unsupportedInSQL("the to-many relationship '\(r.name)' as a dictionary value")
        }
    }

    /// The attribute a key path ends in, through to-one relationships, with its entity.
    private func attribute(at path: String) -> (Entity, AttributeDescription)? {
        var entity = compiler.root.mapping.entity
        let keys = path.split(separator: ".").map(String.init)
        for key in keys.dropLast() {
            guard let relationship = entity.relationship(named: key),
                  let destination = schema.mapping(for: relationship.destinationEntityName)?.entity else { return nil }
            entity = destination
        }
        guard let last = keys.last, let attribute = entity.attribute(named: last) else { return nil }
        return (entity, attribute)
    }
}
