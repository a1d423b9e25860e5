import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore: HistoryTrackingStore {
    /// Whether saves record history: asked for when the store was added
    /// (`StoreOptions.tracksHistory`), or found on in the file (its history triggers).
    public var tracksHistory: Bool { historyState.enabled }

    /// Whether the file has the history tables (on, or on once).
    func hasHistoryTables(_ db: Database) throws -> Bool { try Self.hasHistoryTables(db) }

    static func hasHistoryTables(_ db: Database) throws -> Bool {
        try db.tableExists(HistorySchema.transactionTable) && db.tableExists(HistorySchema.changeTable)
    }

    /// Makes the history tables and triggers, or brings the triggers up to the model: run in
    /// a save's transaction, so that a failed save leaves the file as it was.
    func installHistory(in db: Database) throws { try Self.installHistory(historySchema, in: db) }

    static func installHistory(_ history: HistorySchema, in db: Database) throws {
        if try !hasHistoryTables(db) {
            for statement in history.tableStatements { try db.execute(sql: statement.sqlite) }
        } else {
            if try !db.tableExists(HistorySchema.valueTable) {
                for statement in HistorySchema.valueTableStatements { try db.execute(sql: statement.sqlite) }
            }
            // More attributes kept after deletion than the table has tombstone columns for.
            let columns = Set(try db.columns(in: HistorySchema.changeTable).map(\.name))
            for i in 0..<history.tombstoneCount where !columns.contains(HistorySchema.tombstoneColumn(i)) {
                try db.execute(sql: SQLStatement.addColumn(to: HistorySchema.changeTable,
                                                           SQLColumnDefinition(HistorySchema.tombstoneColumn(i), .blob)).sqlite)
            }
        }
        for (number, name) in [(HistorySchema.changeEntity, "CHANGE"), (HistorySchema.transactionEntity, "TRANSACTION"),
                               (HistorySchema.stringEntity, "TRANSACTIONSTRING")] {
            try db.execute(sql: SQLStatement.insert(into: "Z_PRIMARYKEY", columns: ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"],
                                                    values: [.literal(number), .parameter, .literal(0), .literal(0)],
                                                    orIgnore: true).sqlite,
                           arguments: [name])
        }
        // Triggers are replaced only where they differ from what the model needs now.
        let wanted = Dictionary(uniqueKeysWithValues: history.triggers.map { ($0.name, $0.statement.sqlite) })
        var existing: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'") {
            if let name: String = row["name"], name.hasPrefix(HistorySchema.triggerPrefix) { existing[name] = row["sql"] }
        }
        for (name, sql) in existing where wanted[name] != sql {
            try db.execute(sql: SQLStatement.dropTrigger(name).sqlite)
        }
        for (name, sql) in wanted.sorted(by: { $0.key < $1.key }) where existing[name] != sql {
            try db.execute(sql: sql)
        }
    }

    /// Whether the file has history triggers of this store's making.
    static func hasHistoryTriggers(_ db: Database) throws -> Bool {
        try !historyTriggerNames(db).isEmpty
    }

    static func historyTriggerNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
                            arguments: [HistorySchema.triggerPrefix.count, HistorySchema.triggerPrefix])
    }

    /// Opens a save's transaction row: changes other writers left without one are filed
    /// first, under one of their own; then the triggers file this save's changes under it.
    func beginHistoryTransaction(_ info: TransactionInfo, in db: Database) throws -> Int64 {
        if !historyState.installed { try installHistory(in: db) }
        try Self.fileStrayChanges(history: historySchema, in: db)
        let author = try info.author.map { try Self.stringKey($0, in: db) }
        let context = try info.contextName.map { try Self.stringKey($0, in: db) }
        let process = try Self.stringKey(String(ProcessInfo.processInfo.processIdentifier), in: db)
        let number = try Self.lastTransactionNumber(in: db) + 1
        try db.cachedStatement(sql: SQLStatement.insert(
            into: HistorySchema.transactionTable, columns: ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP"],
            values: [.parameter, .literal(HistorySchema.transactionEntity), .literal(0), .parameter, .parameter, .parameter, .parameter]).sqlite)
            .execute(arguments: [number, author, context, process, Date().timeIntervalSinceReferenceDate])
        return number
    }

    /// Closes a save's transaction row, first recording the rows it inserted (the triggers
    /// leave a transaction's own inserts to it), or removes it when the save changed nothing
    /// the history records. Returns its number, or nil when removed.
    func endHistoryTransaction(_ number: Int64, inserted: [ManagedObjectID], owners: [ManagedObjectID: Int64] = [:],
                               in db: Database) throws -> Int64? {
        try recordInserts(inserted, transaction: number, in: db)
        try recordOwners(owners, transaction: number, in: db)
        let recorded = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM ACHANGE WHERE ZTRANSACTIONID = ?)"),
                                         arguments: [number]) ?? false
        guard recorded else {
            try db.cachedStatement(sql: "DELETE FROM ATRANSACTION WHERE Z_PK = ?").execute(arguments: [number])
            return nil
        }
        try db.cachedStatement(sql: "UPDATE ATRANSACTION SET Z_OPT = 1 WHERE Z_PK = ?").execute(arguments: [number])
        try Self.updateHistoryCounters(in: db)
        return number
    }

    /// Records rows a transaction inserted, a statement per run of consecutive keys of a
    /// table: a save's new rows take consecutive keys, so that is mostly one per table. An
    /// update the join tables' triggers recorded for a new row (a new tag given its books)
    /// goes: the insert says it all.
    func recordInserts(_ ids: [ManagedObjectID], transaction: Int64, in db: Database) throws {
        guard !ids.isEmpty else { return }
        let history = historySchema
        var keysByTable: [String: (table: StoreSchema.Table, keys: [Int64])] = [:]
        for id in ids {
            guard let table = schema.mapping(for: id.entityName)?.table, let key = id.primaryKey else { continue }
            keysByTable[table.name, default: (table, [])].keys.append(key)
        }
        for (name, (table, keys)) in keysByTable.sorted(by: { $0.key < $1.key }) {
            let statement = try db.cachedStatement(sql: history.insertedRows(of: name).sqlite)
            let numbers = table.entityNumbers.map(String.init).joined(separator: ", ")
            let updated = "ZTRANSACTIONID = ? AND ZENTITYPK BETWEEN ? AND ? AND ZCHANGETYPE = 1 AND ZENTITY IN (\(numbers))"
            let values = try db.cachedStatement(sql: "DELETE FROM \(HistorySchema.valueTable) WHERE ZCHANGE IN (SELECT Z_PK FROM ACHANGE WHERE \(updated))")
            let updates = try db.cachedStatement(sql: "DELETE FROM ACHANGE WHERE " + updated)
            let sorted = keys.sorted()
            var first = sorted[0], last = sorted[0]
            func record() throws {
                try values.execute(arguments: [transaction, first, last])
                try updates.execute(arguments: [transaction, first, last])
                try statement.execute(arguments: [transaction, first, last])
            }
            for key in sorted.dropFirst() {
                if key == last + 1 { last = key; continue }
                try record()
                (first, last) = (key, key)
            }
            try record()
        }
    }

    /// The objects that a save's new rows joined as to-many members (through a to-one whose
    /// inverse is to-many), with the bit of that relationship in the owner's table: read from
    /// the rows, where SQL would join every new row with its table. (The bit depends on the
    /// owner's entity only through its table, which an inheritance tree shares.)
    func ownersJoined(by changes: StoreChanges) -> [ManagedObjectID: Int64] {
        guard historyState.enabled, changes.inserted.contains(where: { !$0.toOne.isEmpty }) else { return [:] }
        let history = historySchema
        // Per row, only what is cheap: the rows of a save come grouped by entity, and many
        // rows join few owners, which are the same ID instances. So the bits are looked up
        // by relationship in the current entity's table, and owners gathered by instance,
        // and by ID (hashing its strings) once each at the end.
        var bits: [String: [String: Int64?]] = [:]   // member entity → relationship → the owner's bit
        var member = "", memberBits: [String: Int64?] = [:]
        var byInstance: [ObjectIdentifier: (owner: ManagedObjectID, bit: Int64)] = [:]
        for row in changes.inserted where !row.toOne.isEmpty {
            if row.objectID.entityName != member {
                bits[member] = memberBits
                member = row.objectID.entityName
                memberBits = bits[member] ?? [:]
            }
            for (name, owner) in row.toOne {
                // An owner with a temporary ID is new in this save: its insert says it all.
                if owner.isTemporaryID { continue }
                let bit: Int64?
                if let known = memberBits[name] { bit = known } else {
                    bit = model.entity(named: member)?.relationship(named: name)?.inverseName.flatMap { inverse in
                        guard model.entity(named: owner.entityName)?.relationship(named: inverse)?.isToMany == true,
                              let table = schema.mapping(for: owner.entityName)?.table.name, let slots = history.slots[table],
                              let index = slots.toMany.firstIndex(of: inverse) else { return nil }
                        return slots.bit(slots.columns.count + index)
                    }
                    memberBits[name] = bit
                }
                if let bit { byInstance[ObjectIdentifier(owner), default: (owner, 0)].bit |= bit }
            }
        }
        var owners: [ManagedObjectID: Int64] = [:]
        for (owner, bit) in byInstance.values { owners[owner, default: 0] |= bit }
        return owners
    }

    /// Records an update of each owner, folded into a change the transaction has for it
    /// already, and left out when the transaction inserted or deleted it.
    private func recordOwners(_ owners: [ManagedObjectID: Int64], transaction: Int64, in db: Database) throws {
        guard !owners.isEmpty else { return }
        let fold = try db.cachedStatement(sql: "UPDATE ACHANGE SET ZCOLUMNS = IFNULL(ZCOLUMNS, 0) | ? "
            + "WHERE ZTRANSACTIONID = ? AND ZENTITYPK = ? AND ZENTITY = ? AND ZCHANGETYPE = 1")
        let add = try db.cachedStatement(sql: "INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) "
            + "SELECT ?, 1, 1, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM ACHANGE WHERE ZTRANSACTIONID = ? AND ZENTITYPK = ? AND ZENTITY = ?)")
        for (owner, bit) in owners {
            guard let key = owner.primaryKey, let number = entityNumbers[owner.entityName] else { continue }
            try fold.execute(arguments: [bit, transaction, key, number])
            try add.execute(arguments: [HistorySchema.changeEntity, number, key, transaction, bit, transaction, key, number])
        }
    }

    /// Records the owners that rows filed under a transaction joined (see `ownersOfInsertedMembers`):
    /// for other writers' rows, known only by what the table holds.
    static func recordOwners(of transaction: Int64, history: HistorySchema, in db: Database) throws {
        for (statement, parameters) in history.ownersOfInsertedMembers {
            try db.cachedStatement(sql: statement.sqlite).execute(arguments: StatementArguments(Array(repeating: transaction, count: parameters)))
        }
    }

    /// Files changes that no transaction holds (another program's plain SQL) under a
    /// transaction with no author, stamped now. Returns its number, or nil when there were none.
    @discardableResult
    static func fileStrayChanges(history: HistorySchema, in db: Database) throws -> Int64? {
        let members = try db.tableExists(HistorySchema.memberTable)
        let stray = "SELECT EXISTS (SELECT 1 FROM ACHANGE WHERE ZTRANSACTIONID IS NULL)"
            + (members ? " OR EXISTS (SELECT 1 FROM \(HistorySchema.memberTable) WHERE ZTRANSACTIONID IS NULL)" : "")
        guard try Bool.fetchOne(db.cachedStatement(sql: stray)) == true else { return nil }
        let number = try lastTransactionNumber(in: db) + 1
        try db.cachedStatement(sql: "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZTIMESTAMP) VALUES (?, ?, 1, ?)")
            .execute(arguments: [number, HistorySchema.transactionEntity, Date().timeIntervalSinceReferenceDate])
        try db.cachedStatement(sql: "UPDATE ACHANGE SET ZTRANSACTIONID = ? WHERE ZTRANSACTIONID IS NULL").execute(arguments: [number])
        if members {
            try db.cachedStatement(sql: "UPDATE \(HistorySchema.memberTable) SET ZTRANSACTIONID = ? WHERE ZTRANSACTIONID IS NULL")
                .execute(arguments: [number])
        }
        try recordOwners(of: number, history: history, in: db)
        try updateHistoryCounters(in: db)
        return number
    }

    /// Keeps `Z_PRIMARYKEY`'s counters for the history entities at their largest keys, as
    /// Core Data expects of a store it may write to. A counter never goes down: after the
    /// history is trimmed it remembers the last number given.
    static func updateHistoryCounters(in db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), CASE Z_ENT WHEN ?1 THEN (SELECT IFNULL(MAX(Z_PK), 0) FROM ACHANGE)
            ELSE (SELECT IFNULL(MAX(Z_PK), 0) FROM ATRANSACTION) END) WHERE Z_ENT IN (?1, ?2)
            """).execute(arguments: [HistorySchema.changeEntity, HistorySchema.transactionEntity])
    }

    /// The largest transaction number the store has given: its last transaction's, or, once
    /// the history was trimmed, the one `Z_PRIMARYKEY` remembers. A token holds such a
    /// number, and numbers never go back, so a token taken before a trim still means "after
    /// this" for every transaction to come.
    static let lastTransactionNumberSQL = """
        SELECT MAX((SELECT IFNULL(MAX(Z_PK), 0) FROM ATRANSACTION),
                   IFNULL((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(HistorySchema.transactionEntity)), 0))
        """

    static func lastTransactionNumber(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: lastTransactionNumberSQL)) ?? 0
    }

    /// The key of a string in `ATRANSACTIONSTRING`, added when new.
    private static func stringKey(_ name: String, in db: Database) throws -> Int64 {
        if let key = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"), arguments: [name]) {
            return key
        }
        try db.cachedStatement(sql: "INSERT INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, ?)")
            .execute(arguments: [HistorySchema.stringEntity, name])
        return db.lastInsertedRowID
    }
}
