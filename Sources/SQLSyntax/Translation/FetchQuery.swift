import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// The SELECT statement of a fetch: which rows (entities, predicate), in what order, how
/// many, and which columns for each result type.
///
/// ```swift
/// let query = try FetchQuery(schema: schema, request: storeRequest)
/// SQLiteDialect().render(try query.selectIDs()).sql
/// // SELECT t0.Z_PK, t0.Z_ENT FROM ZTODO t0 WHERE t0.ZCOMPLETED = ? ORDER BY t0.ZDUEDATE ASC, t0.Z_PK ASC
/// ```
package struct FetchQuery {
    /// How a column of a dictionary result becomes a value.
    package enum Decoder {
        case attribute(AttributeType)
        /// A binary value that may be kept in an external file; `attribute` names it in errors.
        case externalData(attribute: String)
        /// An object ID of `entity`, or of the entity whose `Z_ENT` is in result column `entityColumn`.
        case object(entity: String, entityColumn: Int?)
    }

    package let schema: StoreSchema
    package let request: StoreRequest
    package let translator: FetchTranslator
    /// The entity restriction and the predicate.
    package let filter: SQLExpression?

    package init(schema: StoreSchema, request: StoreRequest, flavor: any FetchFlavor) throws {
        self.schema = schema
        self.request = request
        translator = try FetchTranslator(schema: schema, entity: request.fetch.entityName, flavor: flavor)
        let table = translator.root.mapping.table
        var conditions: [SQLExpression] = []
        let numbers = request.entityNames.compactMap { schema.mapping(for: $0)?.number }
        if Set(numbers) != Set(table.entityNumbers) {
            let column = SQLExpression.column("Z_ENT", of: "t0")
            let values = numbers.map { SQLExpression.value(.integer(Int64($0))) }
            conditions.append(values.count == 1 ? column == values[0] : column.isIn(values))
        }
        if let predicate = request.fetch.predicate, predicate != .true {
            conditions.append(try translator.condition(for: predicate))
        }
        filter = conditions.isEmpty ? nil : .and(conditions)
    }

    /// `LIMIT ? OFFSET ?` when the request has a limit or an offset that applies.
    private func limited(_ select: SQLSelect) -> SQLSelect {
        let fetch = request.fetch
        guard !isUnlimited else { return select }
        var select = select
        select.limit = .value(.integer(Int64(fetch.fetchLimit > 0 ? fetch.fetchLimit : -1)))
        select.offset = .value(.integer(Int64(fetch.fetchOffset)))
        return select
    }

    /// The rows that match, from the root table and the joins the predicate needed.
    private func matching(_ columns: [SQLExpression], scanning: Bool = false) -> SQLSelect {
        SQLSelect(columns: columns, from: translator.rootSource(scanning: scanning), joins: translator.joinClauses, filter: filter)
    }

    /// The statement for the request's result type.
    package func selectForResult() throws -> SQLSelect {
        switch request.fetch.resultType {
        case .count: return try selectCount()
        case .dictionaries: return try selectDictionaries().select
        case .managedObjects, .objectIDs: return try selectIDs()
        }
    }

    /// `SELECT t0.Z_PK, t0.Z_ENT ...`: the matching objects in order; `scanning` reads the
    /// root table in order rather than through an index.
    package func selectIDs(scanning: Bool = false) throws -> SQLSelect {
        // Ordering first: a sort key through a to-one relationship adds a join.
        var order = try translator.ordering(request.fetch.sortDescriptors)
        if !order.isEmpty { order.append(SQLOrdering(.column("Z_PK", of: "t0"))) }
        var select = matching([.column("Z_PK", of: "t0"), .column("Z_ENT", of: "t0")], scanning: scanning)
        select.orderBy = order
        return limited(select)
    }

    /// `SELECT COUNT(*) ...`, counting within offset and limit; `scanning` reads the root
    /// table in order rather than through an index.
    package func selectCount(scanning: Bool = false) throws -> SQLSelect {
        if isUnlimited { return matching([.countAll], scanning: scanning) }
        return SQLSelect(columns: [.countAll], from: .subquery(limited(matching([.column("Z_PK", of: "t0")]))))
    }

    /// Whether the request has neither a limit nor an offset.
    package var isUnlimited: Bool {
        !(request.appliesLimits && (request.fetch.fetchLimit > 0 || request.fetch.fetchOffset > 0))
    }

    /// Whether the request sorts its results.
    package var isSorted: Bool { !request.fetch.sortDescriptors.isEmpty }

    /// Whether the statement has a WHERE clause (entity restriction or predicate).
    package var isFiltered: Bool { filter != nil }

    /// The number of matching rows, counting no further than `bound`.
    package func selectCount(upTo bound: Int) -> SQLSelect {
        var inner = matching([.literal(1)])
        inner.limit = .value(.integer(Int64(bound)))
        return SQLSelect(columns: [.countAll], from: .subquery(inner))
    }

    /// The root table, for an estimate of its size.
    package var rootTable: String { translator.root.mapping.table.name }

    package static let aggregates: [String: String] = ["sum:": "SUM", "count:": "COUNT", "min:": "MIN", "max:": "MAX", "average:": "AVG"]

    /// The statement of a dictionary fetch, with the result names and decoders of its columns.
    package func selectDictionaries(scanning: Bool = false) throws -> (select: SQLSelect, names: [String], decoders: [Decoder]) {
        let fetch = request.fetch
        let entity = translator.root.mapping.entity
        let properties = fetch.propertiesToFetch ?? entity.storedAttributes.map { FetchProperty.key($0.name) }
        var columns: [SQLExpression] = [], names: [String] = [], decoders: [Decoder] = []
        var aggregating = false
        for property in properties {
            let (expression, decoder, isAggregate) = try column(for: property)
            columns.append(expression)
            names.append(property.name)
            decoders.append(decoder)
            aggregating = aggregating || isAggregate
            if case .attribute(let type) = decoder {
                translator.namedExpressions[property.name] = (expression, type)
            }
        }
        // Object IDs of destinations with sub-entities read their entity from one more column.
        for i in decoders.indices {
            if case .object(let entity, nil) = decoders[i], let entityColumn = translator.entityColumns[columns[i]] {
                columns.append(entityColumn)
                decoders[i] = .object(entity: entity, entityColumn: columns.count - 1)
            }
        }
        // A computed value is grouped by its place among the columns: the same expression
        // written twice binds its constants twice, and PostgreSQL sees two expressions.
        let groupBy = try (fetch.propertiesToGroupBy ?? []).map { property in
            if case .expression(let description) = property, !Self.isPlainKey(description.expression),
               let place = properties.firstIndex(of: property) {
                return SQLExpression.literal(Int64(place + 1))
            }
            return try column(for: property).expression
        }
        var having: SQLExpression?
        if let predicate = fetch.havingPredicate {
            guard !groupBy.isEmpty else {
                throw translator.flavor.unsupported("a having predicate needs properties to group by")
            }
            having = try translator.condition(for: predicate)
        }
        var order: [SQLOrdering] = []
        if !(aggregating && groupBy.isEmpty) {
            order = try translator.ordering(fetch.sortDescriptors)
        }
        if !groupBy.isEmpty {
            // Groups without a sort come in the order of their first row, as in memory.
            order.append(SQLOrdering(.function("MIN", [.column("Z_PK", of: "t0")])))
        }
        var select = matching(columns, scanning: scanning)
        select.distinct = fetch.returnsDistinctResults
        select.groupBy = groupBy
        select.having = having
        select.orderBy = order
        return (limited(select), names, decoders)
    }

    private static func isPlainKey(_ e: ObjectExpression) -> Bool {
        if case .keyPath = e { true } else { false }
    }

    /// The SQL of one dictionary column.
    private func column(for property: FetchProperty) throws -> (expression: SQLExpression, decoder: Decoder, isAggregate: Bool) {
        switch property {
        case .key(let path):
            return try keyColumn(path)
        case .expression(let description):
            switch description.expression {
            case .keyPath(let path):
                return try keyColumn(path)
            case .function(let name, let arguments) where Self.aggregates[name] != nil || !FetchTranslator.readsKeyPath(description.expression):
                guard let function = Self.aggregates[name], arguments.count == 1 else {
                    throw translator.flavor.unsupported("the function \(name) in expression '\(description.name)'")
                }
                if name == "count:" { return (.countAll, .attribute(.integer64), true) }
                guard case .keyPath(let path) = arguments[0] else {
                    throw translator.flavor.unsupported("\(name) of something other than a key path in '\(description.name)'")
                }
                let (expression, decoder, _) = try keyColumn(path)
                if case .externalData(let attribute) = decoder {
                    throw translator.flavor.unsupported("\(name) of \(attribute), a binary value that may be kept outside the database, in '\(description.name)'")
                }
                guard case .attribute(let type) = decoder else {
                    throw translator.flavor.unsupported("\(name) of a relationship in '\(description.name)'")
                }
                switch name {
                case "sum:": return (.coalesce(.function("SUM", [expression]), .literal(0)), .attribute(type == .decimal ? .decimal : (type.isInteger ? .integer64 : .double)), true)
                case "average:": return (.function("AVG", [expression]), .attribute(type == .decimal ? .decimal : .double), true)
                default: return (.function(function, [expression]), .attribute(type), true)
                }
            case .ternary, .function:
                // A computed value (TERNARY, arithmetic over key paths), as its description types it.
                switch try translator.operandOf(description.expression, in: translator.root) {
                case .attribute(let expression, _), .expression(let expression, _):
                    return (expression, .attribute(description.resultType), false)
                default: throw translator.flavor.unsupported("the expression of '\(description.name)'")
                }
            default:
                throw translator.flavor.unsupported("the expression of '\(description.name)'")
            }
        }
    }

    private func keyColumn(_ path: String) throws -> (expression: SQLExpression, decoder: Decoder, isAggregate: Bool) {
        switch try translator.operand(path, from: translator.root) {
        case .attribute(let expression, let type), .expression(let expression, let type):
            if let (entity, attribute) = attribute(at: path), attribute.allowsExternalBinaryDataStorage,
               type == .binary || type == .transformable {
                return (expression, .externalData(attribute: "\(entity.name).\(attribute.name)"), false)
            }
            return (expression, .attribute(type), false)
        case .object(let expression, let entity): return (expression, .object(entity: entity, entityColumn: nil), false)
        case .toMany(let r, _, _, _):
            throw translator.flavor.unsupported("the to-many relationship '\(r.name)' as a dictionary value")
        }
    }

    /// The attribute a key path ends in, through to-one relationships, with its entity.
    private func attribute(at path: String) -> (Entity, AttributeDescription)? {
        var entity = translator.root.mapping.entity
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
