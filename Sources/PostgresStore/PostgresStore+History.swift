import Foundation
import Logging
import NIOCore
import ObjectGraph
import ObjectModel
import PostgresNIO
import Predicates
import SQLSyntax
import Synchronization

extension PostgresStore: HistoryTrackingStore {
    /// Whether the schema has the history tables.
    static func hasHistory(_ session: PostgresConnections.Session) throws -> Bool {
        try session.hasTable("ATRANSACTION")
    }

    /// Adds the history tables and triggers, inside the caller's transaction (which holds the
    /// schema's lock).
    static func installHistory(_ schema: PostgresSchema, in session: PostgresConnections.Session) throws {
        for sql in PostgresHistorySchema(schema: schema).installStatements { try session.execute(sql) }
    }

    /// Names the save's transaction in the history (its author, context and process) and
    /// returns the database transaction's ID, to find its number after the commit.
    func nameHistoryTransaction(_ info: TransactionInfo, in session: PostgresConnections.Session) throws -> Int64? {
        let rows = try session.run("SELECT set_config('termdata.author', $1, true), set_config('termdata.context', $2, true), "
                                   + "set_config('termdata.process', $3, true), txid_current()",
                                   [.text(info.author ?? ""), .text(info.contextName ?? ""), .text(String(getpid()))])
        return try rows.first.flatMap { try PostgresValueCoding.integer(Array($0)[3]) }
    }

    /// The number the commit gave a save's transaction; nil when it changed nothing.
    func historyNumber(ofDatabaseTransaction txid: Int64) throws -> Int64? {
        let rows = try connections.withConnection { try $0.run(#"SELECT "ZNUMBER" FROM "ATRANSACTION" WHERE "ZTXID" = $1"#, [.integer(txid)]) }
        return try rows.first.flatMap { try PostgresValueCoding.integer(Array($0)[0]) }
    }

    public func currentHistoryToken() throws -> HistoryToken {
        guard tracksHistory else { return HistoryToken([identifier: 0]) }
        return try Self.currentHistoryToken(of: identifier, in: connections)
    }

    /// The number of the store's last committed transaction, as a token.
    static func currentHistoryToken(of store: String, in connections: PostgresConnections) throws -> HistoryToken {
        let rows = try connections.withConnection { try $0.run(#"SELECT COALESCE(max("ZNUMBER"), 0) FROM "ATRANSACTION""#, []) }
        return HistoryToken([store: try rows.first.flatMap { try PostgresValueCoding.integer(Array($0)[0]) } ?? 0])
    }

    public func fetchHistory(_ request: HistoryRequest) throws -> [HistoryTransaction] {
        guard tracksHistory else { return [] }
        var conditions = [#"t."ZNUMBER" > $1"#]
        var values: [SQLValue] = [.integer(request.after?.transactionNumbers[identifier] ?? 0)]
        func list(_ column: String, _ names: Set<String>, negated: Bool = false) {
            let placeholders = names.sorted().map { name -> String in
                values.append(.text(name))
                return "$\(values.count)"
            }
            guard !placeholders.isEmpty else {
                if !negated { conditions.append("FALSE") }
                return
            }
            let test = "\(column) IN (\(placeholders.joined(separator: ", ")))"
            conditions.append(negated ? "(\(column) IS NULL OR NOT \(test))" : test)
        }
        if let authors = request.authors { list(#"t."ZAUTHOR""#, authors) }
        if !request.excludingAuthors.isEmpty { list(#"t."ZAUTHOR""#, request.excludingAuthors, negated: true) }
        if let names = request.contextNames { list(#"t."ZCONTEXTNAME""#, names) }
        var limit = ""
        if let n = request.fetchLimit, request.entityNames == nil {
            values.append(.integer(Int64(n)))
            limit = " LIMIT $\(values.count)"
        }
        // A store made before changes kept their values has no such column until it is opened to write.
        if !historyKeepsPreviousValues.withLock({ $0 }), try connections.withConnection({ try $0.hasColumn("ZPREVIOUS", in: "ACHANGE") }) {
            historyKeepsPreviousValues.withLock { $0 = true }
        }
        let previous = historyKeepsPreviousValues.withLock { $0 } ? #"c."ZPREVIOUS"::text"# : "NULL"
        let sql = #"""
            WITH chosen AS (SELECT * FROM "ATRANSACTION" t WHERE \#(conditions.joined(separator: " AND ")) ORDER BY t."ZNUMBER"\#(limit))
            SELECT t."ZNUMBER", t."ZTIMESTAMP", t."ZAUTHOR", t."ZCONTEXTNAME", t."ZPROCESSID",
                   c."Z_PK", c."ZCHANGETYPE", c."ZENTITY", c."ZENTITYPK", c."ZCOLUMNS", \#(previous)
            FROM chosen t LEFT JOIN "ACHANGE" c ON c."ZTRANSACTIONID" = t."Z_PK"
            ORDER BY t."ZNUMBER", c."Z_PK"
            """#
        let rows = try connections.withConnection { try $0.run(sql, values) }
        let history = PostgresHistorySchema(schema: schema)
        var transactions: [HistoryTransaction] = []
        var propertiesByTable: [String: [String: String]] = [:]
        for row in rows {
            let cells = Array(row)
            guard let number = try PostgresValueCoding.integer(cells[0]) else { continue }
            if transactions.last?.transactionNumber != number {
                guard case .date(let stamp) = try PostgresValueCoding.plainValue(cells[1]) else { continue }
                transactions.append(HistoryTransaction(
                    transactionNumber: number, storeIdentifier: identifier, timestamp: stamp,
                    author: try PostgresValueCoding.plainValue(cells[2]).stringValue,
                    contextName: try PostgresValueCoding.plainValue(cells[3]).stringValue,
                    processID: try PostgresValueCoding.plainValue(cells[4]).stringValue, changes: []))
            }
            guard let changeID = try PostgresValueCoding.integer(cells[5]), let kind = try PostgresValueCoding.integer(cells[6]),
                  let type = HistoryChangeType(rawValue: Int(kind)), let number = try PostgresValueCoding.integer(cells[7]),
                  let key = try PostgresValueCoding.integer(cells[8]), let entity = layout.entityName(forNumber: Int(number)),
                  let mapping = layout.mapping(for: entity) else { continue }
            if let wanted = request.entityNames, !wanted.contains(entity) { continue }
            var updated: Set<String>?
            var columns: [String] = []
            if type == .update {
                columns = cells[9].bytes == nil ? [] : try cells[9].decode([String].self)
                let table = mapping.table.name
                if propertiesByTable[table] == nil { propertiesByTable[table] = history.properties(ofTable: table) }
                updated = Set(columns.compactMap { $0.hasPrefix("@") ? String($0.dropFirst()) : propertiesByTable[table]?[$0] })
            }
            var change = HistoryChange(changeID: changeID, changeType: type, changedObjectID: objectID(entityName: entity, primaryKey: key),
                                       updatedProperties: updated)
            if cells[10].bytes != nil, let text = try PostgresValueCoding.plainValue(cells[10]).stringValue {
                addPrevious(text, to: &change, columns: columns, mapping: mapping)
            }
            // An owner's update when a member came or went replaced no value of its own.
            if type == .update, change.previousValues == nil, columns.allSatisfy({ $0.hasPrefix("@") }) { change.previousValues = [:] }
            transactions[transactions.count - 1].changes.append(change)
        }
        for i in transactions.indices {
            transactions[i].changes = Self.withMembersOfDeleted(Self.coalesced(transactions[i].changes), model: model)
        }
        if request.entityNames != nil {
            transactions.removeAll { $0.changes.isEmpty }
            if let n = request.fetchLimit { transactions = Array(transactions.prefix(n)) }
        }
        return transactions
    }

    /// One change per object and transaction, as the transaction left it: an insert stays an
    /// insert, updates join their properties, and a delete wins.
    static func coalesced(_ changes: [HistoryChange]) -> [HistoryChange] {
        var order: [ManagedObjectID] = []
        var byObject: [ManagedObjectID: HistoryChange] = [:]
        for change in changes {
            guard var seen = byObject[change.changedObjectID] else {
                order.append(change.changedObjectID)
                byObject[change.changedObjectID] = change
                continue
            }
            switch (seen.changeType, change.changeType) {
            case (.insert, .delete): byObject[change.changedObjectID] = nil   // came and went within the transaction
            case (.insert, _):
                seen.joined.merge(change.joined) { $0 + $1 }
                byObject[change.changedObjectID] = seen
            case (.update, .delete):
                // The values before the transaction: what the updates replaced first.
                var deleted = change
                if let values = deleted.previousValues { deleted.previousValues = values.merging(seen.previousValues ?? [:]) { _, first in first } }
                byObject[change.changedObjectID] = deleted
            case (_, .delete): byObject[change.changedObjectID] = change
            case (.update, .update):
                seen.updatedProperties = (seen.updatedProperties ?? []).union(change.updatedProperties ?? [])
                // Known only when every update of the object in the transaction kept them.
                seen.previousValues = seen.previousValues.flatMap { first in change.previousValues.map { first.merging($0) { old, _ in old } } }
                seen.joined.merge(change.joined) { $0 + $1 }
                seen.left.merge(change.left) { $0 + $1 }
                byObject[change.changedObjectID] = seen
            case (.delete, _): break
            default: byObject[change.changedObjectID] = change
            }
        }
        return order.compactMap { byObject[$0] }
    }

    public func deleteHistory(through token: HistoryToken) throws -> Int {
        guard tracksHistory, let number = token.transactionNumbers[identifier] else { return 0 }
        return try deleteHistory(where: #""ZNUMBER" <= $1"#, [.integer(number)])
    }

    public func deleteHistory(before date: Date) throws -> Int {
        guard tracksHistory else { return 0 }
        return try deleteHistory(where: #""ZTIMESTAMP" < $1"#, [.date(date)])
    }

    private func deleteHistory(where condition: String, _ values: [SQLValue]) throws -> Int {
        try connections.inTransaction { session in
            try session.run(#"DELETE FROM "ACHANGE" WHERE "ZTRANSACTIONID" IN (SELECT "Z_PK" FROM "ATRANSACTION" WHERE "# + condition + ")", values)
            return try session.run(#"DELETE FROM "ATRANSACTION" WHERE "ZNUMBER" IS NOT NULL AND "# + condition, values).changedRows
        }
    }

    /// Listens on the store's channel from a connection of its own: every commit that changed
    /// the store, by any client, arrives as a notice with the transaction's number. When the
    /// connection is lost (the server restarted), the watch connects again, and then reports
    /// the store's current token, so that what was committed meanwhile is merged too.
    public func watchCommits(_ handler: @escaping @Sendable (HistoryToken) -> Void) throws -> @Sendable () -> Void {
        let watch = CommitWatch(connections: connections, channel: PostgresHistorySchema.channelPrefix + location.schema,
                                store: identifier, handler: handler)
        try watch.listen()
        return { watch.stop() }
    }
}

/// One store's LISTEN connection, made again whenever it is lost until the watch stops.
final class CommitWatch: Sendable {
    private let connections: PostgresConnections
    private let channel: String
    private let store: String
    private let handler: @Sendable (HistoryToken) -> Void
    private let state = Mutex<(connection: PostgresConnection?, listening: PostgresListenContext?, stopped: Bool)>((nil, nil, false))

    init(connections: PostgresConnections, channel: String, store: String, handler: @escaping @Sendable (HistoryToken) -> Void) {
        self.connections = connections
        self.channel = channel
        self.store = store
        self.handler = handler
    }

    /// Connects and listens; throws when the server cannot be reached.
    func listen() throws {
        let connection = try connections.connect()
        let store = self.store, handler = self.handler
        let listening = connection.addListener(channel: channel) { _, notification in
            guard let number = Int64(notification.payload) else { return }
            handler(HistoryToken([store: number]))
        }
        do {
            try PostgresConnections.Session(connection: connection, location: connections.location)
                .execute("LISTEN " + PostgresDialect().quote(channel))
        } catch {
            listening.stop()
            PostgresConnections.discard(connection)
            throw error
        }
        let keep = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.connection = connection
            state.listening = listening
            return true
        }
        guard keep else {
            listening.stop()
            PostgresConnections.discard(connection)
            return
        }
        connection.closeFuture.whenComplete { [weak self] _ in
            guard let watch = self, !watch.state.withLock({ $0.stopped }) else { return }
            // Not on the event loop: connecting again waits for the server.
            Thread.detachNewThread { watch.reconnect() }
        }
    }

    /// Tries again, less often the longer the server is away, until it answers or the watch stops.
    private func reconnect() {
        var delay = 0.1
        while !state.withLock({ $0.stopped }) {
            Thread.sleep(forTimeInterval: delay)
            do {
                try listen()
                // Whatever was committed while the connection was down: the current token.
                if let token = try? PostgresStore.currentHistoryToken(of: store, in: connections) { handler(token) }
                return
            } catch {
                delay = min(delay * 2, 2)
            }
        }
    }

    func stop() {
        let (connection, listening) = state.withLock { state -> (PostgresConnection?, PostgresListenContext?) in
            state.stopped = true
            defer { state.connection = nil; state.listening = nil }
            return (state.connection, state.listening)
        }
        listening?.stop()
        if let connection { PostgresConnections.discard(connection) }
    }
}
