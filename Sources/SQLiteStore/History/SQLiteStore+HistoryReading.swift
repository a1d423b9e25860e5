import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

/// Reading the store's persistent history (transactions and their changes, as a request asks)
/// and trimming it.
extension SQLiteStore {
    public func currentHistoryToken() throws -> HistoryToken {
        let last = try reading { db -> Int64 in
            guard try hasHistoryTables(db) else { return 0 }
            return try Self.lastTransactionNumber(in: db)
        }
        return HistoryToken([identifier: last])
    }

    public func fetchHistory(_ request: HistoryRequest) throws -> [HistoryTransaction] {
        let after = request.after?.transactionNumbers[identifier] ?? 0
        let numbers = entityNumbers
        let wanted: Set<Int>? = request.entityNames.map { names in
            Set(names.flatMap { model.entity(named: $0)?.kindNames ?? [] }.compactMap { numbers[$0] })
        }
        return try reading { db in
            guard try hasHistoryTables(db) else { return [] }
            var conditions = ["number > ?"]
            var arguments: [(any DatabaseValueConvertible)?] = [after]
            func names(_ set: Set<String>, column: String, negated: Bool) {
                let marks = Array(repeating: "?", count: set.count).joined(separator: ", ")
                conditions.append(negated ? "(\(column) IS NULL OR \(column) NOT IN (\(marks)))" : "\(column) IN (\(marks))")
                arguments += set.sorted().map { $0 as (any DatabaseValueConvertible)? }
            }
            if let authors = request.authors { names(authors, column: "author", negated: false) }
            if !request.excludingAuthors.isEmpty { names(request.excludingAuthors, column: "author", negated: true) }
            if let contexts = request.contextNames { names(contexts, column: "contextName", negated: false) }
            let transactions = try Row.fetchAll(db, sql: """
                SELECT * FROM (SELECT t.Z_PK AS number, t.ZTIMESTAMP AS timestamp,
                    COALESCE(a.ZNAME, t.ZAUTHOR) AS author, COALESCE(c.ZNAME, t.ZCONTEXTNAME) AS contextName,
                    COALESCE(p.ZNAME, t.ZPROCESSID) AS processID
                FROM ATRANSACTION t
                LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
                LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS
                LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS) t
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY number
                """, arguments: StatementArguments(arguments))
            guard let first: Int64 = transactions.first?["number"], let last: Int64 = transactions.last?["number"] else { return [] }
            var changes: [Int64: [HistoryChange]] = [:]
            let history = historySchema
            let tombstoneColumns = Set(try db.columns(in: HistorySchema.changeTable).map(\.name))
            for row in try Row.fetchAll(db, sql: "SELECT * FROM ACHANGE WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY Z_PK",
                                        arguments: [first, last]) {
                guard let transaction: Int64 = row["ZTRANSACTIONID"], let number: Int = row["ZENTITY"],
                      wanted?.contains(number) ?? true,
                      let change = change(from: row, entityNumber: number, history: history, tombstoneColumns: tombstoneColumns) else { continue }
                changes[transaction, default: []].append(change)
            }
            try addPreviousValues(to: &changes, from: first, through: last, in: db)
            var result: [HistoryTransaction] = []
            for row in transactions {
                let number: Int64 = row["number"]
                let own = changes[number] ?? []
                if wanted != nil, own.isEmpty { continue }
                result.append(HistoryTransaction(
                    transactionNumber: number, storeIdentifier: identifier,
                    timestamp: Date(timeIntervalSinceReferenceDate: row["timestamp"] ?? 0),
                    author: row["author"], contextName: row["contextName"], processID: row["processID"], changes: own))
                if let limit = request.fetchLimit, result.count >= limit { break }
            }
            return result
        }
    }

    /// One `ACHANGE` row as a change; nil for an entity the model does not have.
    private func change(from row: Row, entityNumber: Int, history: HistorySchema, tombstoneColumns: Set<String>) -> HistoryChange? {
        guard let name = schema.entityNamesByNumber[entityNumber], let mapping = schema.mapping(for: name),
              let type = HistoryChangeType(rawValue: row["ZCHANGETYPE"] ?? -1), let key: Int64 = row["ZENTITYPK"] else { return nil }
        var change = HistoryChange(changeID: row["Z_PK"], changeType: type, changedObjectID: objectID(entityName: name, primaryKey: key))
        switch type {
        case .update:
            let mask: Int64 = row["ZCOLUMNS"] ?? 0
            guard let slots = history.slots[mapping.table.name] else { break }
            var properties: Set<String> = []
            for slot in slots.slots(in: mask) {
                if slot >= slots.columns.count {
                    let relationship = slots.toMany[slot - slots.columns.count]
                    if mapping.entity.relationship(named: relationship) != nil { properties.insert(relationship) }
                } else if let property = Self.property(ofColumn: slots.columns[slot], in: mapping) {
                    properties.insert(property)
                }
            }
            change.updatedProperties = properties
        case .delete:
            let preserved = HistorySchema.preserved(mapping)
            guard !preserved.isEmpty else { break }
            var tombstone: [String: ObjectValue] = [:]
            for (i, kept) in preserved.enumerated() where tombstoneColumns.contains(HistorySchema.tombstoneColumn(i)) {
                let value: DatabaseValue = row[HistorySchema.tombstoneColumn(i)]
                tombstone[kept.attribute.name] = DatabaseValueCoding.objectValue(value, type: kept.attribute.type)
            }
            change.tombstone = tombstone
        case .insert:
            break
        }
        return change
    }

    /// The property a column of an entity's table holds: an attribute, or a to-one
    /// relationship (its key or its entity column).
    private static func property(ofColumn column: String, in mapping: StoreSchema.EntityMapping) -> String? {
        if let attribute = mapping.attributes.first(where: { $0.column == column }) { return attribute.attribute.name }
        if let relationship = mapping.toOne.first(where: { $0.key.column == column || $0.key.entityColumn == column }) {
            return relationship.relationship.name
        }
        return mapping.orderColumns.first { $0.value == column }?.key
    }

    // MARK: Deleting

    public func deleteHistory(through token: HistoryToken) throws -> Int {
        guard let last = token.transactionNumbers[identifier] else { return 0 }
        return try deleteHistory(upTo: last)
    }

    public func deleteHistory(before date: Date) throws -> Int {
        let last = try reading { db -> Int64? in
            guard try hasHistoryTables(db) else { return nil }
            return try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ATRANSACTION WHERE ZTIMESTAMP < ?",
                                      arguments: [date.timeIntervalSinceReferenceDate])
        }
        guard let last else { return 0 }
        return try deleteHistory(upTo: last)
    }

    private func deleteHistory(upTo last: Int64) throws -> Int {
        guard !isReadOnly else { throw ObjectGraphError.readOnlyStore(url?.path ?? identifier) }
        var deleted = 0
        do {
            try database.inTransaction(.immediate) { db in
                guard try hasHistoryTables(db) else { return .commit }
                // The counters first, so that the numbers deleted are never given again.
                try Self.updateHistoryCounters(in: db)
                if try db.tableExists(HistorySchema.valueTable) {
                    try db.execute(sql: "DELETE FROM \(HistorySchema.valueTable) WHERE ZCHANGE IN (SELECT Z_PK FROM ACHANGE WHERE ZTRANSACTIONID <= ?)",
                                   arguments: [last])
                    try db.execute(sql: "DELETE FROM \(HistorySchema.memberTable) WHERE ZTRANSACTIONID <= ?", arguments: [last])
                }
                try db.execute(sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID <= ?", arguments: [last])
                try db.execute(sql: "DELETE FROM ATRANSACTION WHERE Z_PK <= ?", arguments: [last])
                deleted = db.changesCount
                return .commit
            }
            return deleted
        } catch {
            throw ObjectGraphError.storeFormat(file: url?.path ?? ":memory:", reason: "could not delete history: \(Self.describe(error))")
        }
    }
}
