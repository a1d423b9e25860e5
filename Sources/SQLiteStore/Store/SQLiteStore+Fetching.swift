import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// Runs a fetch as one SQL statement: object IDs (rows stay in the file until their
    /// faults fire), dictionaries, or a count.
    ///
    /// - Throws: `SQLiteStoreError.unsupportedInSQL` for a predicate or sort with no SQL
    ///   form, `.unknownKey` for a key the entity does not have.
    public func execute(_ request: StoreRequest) throws -> StoreResult {
        do {
            return try run(request)
        } catch let error as DatabaseError {
            // Damaged, or stopped by `interrupt`.
            if case let damaged as ObjectGraphError = Self.damage(error, path: url?.path ?? ":memory:") { throw damaged }
            // The message alone: the SQL behind it means nothing to the person who typed the predicate.
            var message = error.message ?? "\(error.resultCode)"
            if message.hasPrefix("Expression tree is too large") || message == "parser stack overflow"
                || message.hasPrefix("too many SQL variables") {
                message = "the predicate is too large or too deeply nested for SQLite (\(message))"
            }
            throw SQLiteStoreError.fetchFailed(message)
        }
    }

    private func run(_ request: StoreRequest) throws -> StoreResult {
        let query = try FetchQuery(schema: schema, request: request, flavor: Self.flavor)
        switch request.fetch.resultType {
        case .count:
            return .count(try onReader { db in try count(query, in: db) })
        case .dictionaries:
            let (_, names, decoders) = try query.selectDictionaries()
            return .dictionaries(try onReader { db in
                let fragment = try plannedStatement(query, everyMatchRead: true, in: db) { try query.selectDictionaries(scanning: $0).select }
                let cursor = try Row.fetchCursor(db.cachedStatement(sql: fragment.sql), arguments: fragment.statementArguments)
                var dictionaries: [[String: ObjectValue]] = []
                while let row = try cursor.next() {
                    var d: [String: ObjectValue] = [:]
                    for (i, name) in names.enumerated() {
                        let value = row.storedValue(atIndex: i)
                        switch decoders[i] {
                        case .attribute(let type): d[name] = DatabaseValueCoding.objectValue(value, type: type)
                        case .externalData(let attribute):
                            guard case .blob(let stored) = value.storage else {
                                d[name] = DatabaseValueCoding.objectValue(value, type: .binary)
                                continue
                            }
                            d[name] = .data(try externalData.bytes(of: stored, attribute: attribute))
                        case .object(let entity, let entityColumn):
                            guard let pk = Int64.fromDatabaseValue(value) else { d[name] = .null; continue }
                            var entityName = entity
                            if let entityColumn, let number = Int.fromDatabaseValue(row[entityColumn]),
                               let concrete = schema.entityName(forNumber: number) {
                                entityName = concrete
                            }
                            d[name] = .object(objectID(entityName: entityName, primaryKey: pk))
                        }
                    }
                    dictionaries.append(d)
                }
                return dictionaries
            })
        case .managedObjects, .objectIDs:
            let fragment = try onReader { db in
                try plannedStatement(query, everyMatchRead: query.isUnlimited, in: db) { try query.selectIDs(scanning: $0) }
            }
            if request.acceptsKeys, request.fetch.resultType == .managedObjects, request.fetch.returnsObjectsAsFaults {
                return .keys(try fetchKeys(fragment, table: query.rootTable))
            }
            let ids = try fetchIDs(fragment, table: query.rootTable)
            if request.fetch.resultType == .managedObjects, !request.fetch.returnsObjectsAsFaults {
                return .rows(ids: ids, rows: try rows(for: ids))
            }
            return .rows(ids: ids, rows: nil)
        }
    }

    /// How a fetch runs here: the statement `execute` runs for it (after its guard against
    /// slow lookups through an index), its bound values, SQLite's plan (`EXPLAIN QUERY PLAN`)
    /// and the time to run it and read every row it returns.
    public func explain(_ request: StoreRequest) throws -> FetchExplanation {
        do {
            let query = try FetchQuery(schema: schema, request: request, flavor: Self.flavor)
            return try onReader { db in
                let fragment: RenderedSQL
                switch request.fetch.resultType {
                case .count:
                    fragment = Self.dialect.render(try query.selectCount())
                case .dictionaries:
                    fragment = try plannedStatement(query, everyMatchRead: true, in: db) { try query.selectDictionaries(scanning: $0).select }
                case .managedObjects, .objectIDs:
                    fragment = try plannedStatement(query, everyMatchRead: query.isUnlimited, in: db) { try query.selectIDs(scanning: $0) }
                }
                var depths: [Int: Int] = [:], steps: [String] = [], details: [String] = []
                for row in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + fragment.sql, arguments: fragment.statementArguments) {
                    let id: Int = row["id"], parent: Int = row["parent"], detail: String = row["detail"]
                    let depth = (depths[parent] ?? -1) + 1
                    depths[id] = depth
                    steps.append(String(repeating: "  ", count: depth) + detail)
                    details.append(detail)
                }
                let start = DispatchTime.now().uptimeNanoseconds
                var rows = 0
                let cursor = try Row.fetchCursor(db, sql: fragment.sql, arguments: fragment.statementArguments)
                while try cursor.next() != nil { rows += 1 }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let indexes = details.compactMap { detail -> String? in
                    guard let found = detail.range(of: "USING COVERING INDEX ") ?? detail.range(of: "USING INDEX ") else { return nil }
                    return String(detail[found.upperBound...].prefix { $0 != " " })
                }
                return FetchExplanation(statement: fragment.sql, arguments: fragment.arguments.map(\.description), plan: steps,
                                        seconds: seconds, rows: rows, readsWholeTable: details.contains { $0 == "SCAN t0" || $0.hasPrefix("SCAN t0 ") },
                                        sorts: details.contains { $0.contains("TEMP B-TREE FOR") && $0.contains("ORDER BY") }, indexes: indexes)
            }
        } catch let error as DatabaseError {
            throw SQLiteStoreError.fetchFailed(error.message ?? "\(error.resultCode)")
        }
    }

    /// Counts the rows of a fetch, guarding against one plan of SQLite's. Without statistics
    /// on value ranges, SQLite takes a range on an indexed column to be selective and looks
    /// each matching row up through the index: for a range that matches much of the table
    /// that is a random read per row (1.5 s for two thirds of a million rows), where reading
    /// the table in order takes 80 ms. So when the plan looks rows up through an index, at
    /// most a thirty-second of the table is counted that way; if that many rows match, the
    /// table is read in order instead.
    private func count(_ query: FetchQuery, in db: Database) throws -> Int {
        let fragment = Self.dialect.render(try query.selectCount())
        func run(_ select: SQLSelect) throws -> Int {
            let fragment = Self.dialect.render(select)
            return try Int.fetchOne(db.cachedStatement(sql: fragment.sql), arguments: fragment.statementArguments) ?? 0
        }
        guard query.isUnlimited, query.isFiltered, try plan(of: fragment, in: db).looksUpThroughIndex else { return try run(query.selectCount()) }
        let bound = try indexLookupBound(query, in: db)
        let partial = try run(query.selectCount(upTo: bound))
        return partial < bound ? partial : try run(query.selectCount(scanning: true))
    }

    /// A fetch's statement, guarded as `count` is: when SQLite would look every matching
    /// row up through an index and at least a thirty-second of the table matches, the
    /// statement that reads the table in order instead. `everyMatchRead` says whether the
    /// statement reads every match even when its plan needs no sort (it has no limit, or it
    /// groups or aggregates); a limited statement whose rows come in the index's order stops
    /// early and is left alone.
    private func plannedStatement(_ query: FetchQuery, everyMatchRead: Bool, in db: Database,
                                  _ make: (_ scanning: Bool) throws -> SQLSelect) throws -> RenderedSQL {
        let fragment = Self.dialect.render(try make(false))
        guard query.isFiltered else { return fragment }
        let plan = try plan(of: fragment, in: db)
        guard plan.looksUpThroughIndex, everyMatchRead || plan.sorts else { return fragment }
        let bound = try indexLookupBound(query, in: db)
        let probe = Self.dialect.render(query.selectCount(upTo: bound))
        let partial = try Int.fetchOne(db, sql: probe.sql, arguments: probe.statementArguments) ?? 0
        return partial < bound ? fragment : Self.dialect.render(try make(true))
    }

    /// The most rows worth looking up through an index: a thirty-second of the table.
    private func indexLookupBound(_ query: FetchQuery, in db: Database) throws -> Int {
        let rows = try Int.fetchOne(db, sql: Self.dialect.render(SQLSelect(columns: [.function("MAX", [.column("Z_PK")])],
                                                                          from: .table(query.rootTable))).sql) ?? 0
        return Swift.max(1_000, rows / 32)
    }

    /// What SQLite's plan for a statement does that matters here.
    private struct QueryPlan {
        /// It reads the root table's rows through a non-covering index.
        var looksUpThroughIndex: Bool
        /// It sorts or groups the matching rows in a temporary tree, so reads them all first.
        var sorts: Bool
    }

    private func plan(of fragment: RenderedSQL, in db: Database) throws -> QueryPlan {
        let details = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + fragment.sql, arguments: fragment.statementArguments)
            .compactMap { $0["detail"] as String? }
        return QueryPlan(looksUpThroughIndex: details.contains { $0.hasPrefix("SEARCH t0 USING INDEX ") },
                         sorts: details.contains { $0.contains("TEMP B-TREE") })
    }

    /// Object IDs from `SELECT Z_PK, Z_ENT ...`, read column by column from the prepared
    /// statement (no row objects): the hot path of fetching faults.
    private func fetchIDs(_ fragment: RenderedSQL, table: String) throws -> [ManagedObjectID] {
        try fetchKeys(fragment, table: table).objectIDs
    }

    /// The keys and entities of a query's rows (`Z_PK`, `Z_ENT`), read straight from the
    /// statement; each entity's name is given once.
    private func fetchKeys(_ fragment: RenderedSQL, table: String) throws -> FetchedKeys {
        let names = schema.concreteEntityNamesByNumber
        let storeIdentifier = identifier
        return try onReader { db in
            let statement = try db.cachedStatement(sql: fragment.sql)
            try statement.setArguments(fragment.statementArguments)
            let s = statement.sqliteStatement
            sqlite3_reset(s)
            var collector = FetchedKeysCollector(storeIdentifier: storeIdentifier, entityNamesByNumber: names)
            while true {
                let code = sqlite3_step(s)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    sqlite3_reset(s)
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                        sql: fragment.sql)
                }
                // The type is read first: a conversion may change what SQLite says it is.
                let isInteger = sqlite3_column_type(s, 0) == SQLITE_INTEGER
                let key = sqlite3_column_int64(s, 0)
                guard key > 0, isInteger else {
                    let value = DatabaseValue(sqliteStatement: s, index: 0)
                    sqlite3_reset(s)
                    throw damagedKey(value, table: table)
                }
                let number = Int(sqlite3_column_int64(s, 1))
                guard collector.append(key: key, entityNumber: number) else {
                    sqlite3_reset(s)
                    throw SQLiteStoreError.schemaMismatch(schema.unplacedRow(key: key, entityNumber: number))
                }
            }
            sqlite3_reset(s)
            return collector.finish()
        }
    }
}
