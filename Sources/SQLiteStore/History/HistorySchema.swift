import Foundation
import ObjectModel
import SQLSyntax

/// Persistent history in Core Data's tables (`ATRANSACTION`, `ACHANGE`,
/// `ATRANSACTIONSTRING`), kept by triggers on the entity and join tables, so that every
/// writer is recorded: a context's save, a batch statement, another program's plain SQL.
///
/// A save opens its transaction row first (`Z_OPT` 0: open) and closes it before it commits
/// (`Z_OPT` 1); the triggers file each change under the open transaction. A writer that
/// opens none (plain SQL) leaves its changes with no transaction; the next save of a store
/// that tracks history files them under a transaction of their own, with no author. See
/// docs/StoreFormats.md.
struct HistorySchema: Sendable {
    static let transactionTable = "ATRANSACTION"
    static let changeTable = "ACHANGE"
    static let stringTable = "ATRANSACTIONSTRING"
    /// The values each update replaced and each delete removed, a row per column: what Core
    /// Data's history does not keep, and a revert needs. Tables of this store's own, beside
    /// Core Data's (which reads only its own).
    static let valueTable = "TDHISTORYVALUE"
    /// The rows each transaction added to and removed from join tables (many-to-many members).
    static let memberTable = "TDHISTORYMEMBER"
    /// Core Data's entity numbers for its history entities, in `Z_PRIMARYKEY`.
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003
    /// The prefix of every trigger the store makes for history: they are found and replaced by it.
    static let triggerPrefix = "Z_HC_"
    /// Bits of `ZCOLUMNS` one per slot; the last stands for it and every later slot.
    static let slotBits = 62

    /// A table's change slots: its columns in order, then the to-many relationships of the
    /// entities stored in it, by name. Bit i of `ZCOLUMNS` is slot i.
    struct Slots: Sendable {
        var columns: [String]
        var toMany: [String]

        var count: Int { columns.count + toMany.count }

        func bit(_ slot: Int) -> Int64 { Int64(1) << Int64(Swift.min(slot, HistorySchema.slotBits)) }

        /// The slots a mask names; the last bit stands for every slot from it on.
        func slots(in mask: Int64) -> [Int] {
            (0..<count).filter { mask & bit($0) != 0 }
        }
    }

    let schema: StoreSchema
    /// Slots by table name.
    let slots: [String: Slots]
    /// The number of tombstone columns: the most attributes any entity keeps after deletion.
    let tombstoneCount: Int

    init(schema: StoreSchema) {
        self.schema = schema
        var slots: [String: Slots] = [:]
        let mappings = schema.model.entities.compactMap { schema.mapping(for: $0.name) }
        for table in schema.tables {
            var toMany: [String] = []
            for mapping in mappings where mapping.table.name == table.name {
                for (relationship, _) in mapping.toMany where !toMany.contains(relationship.name) { toMany.append(relationship.name) }
            }
            slots[table.name] = Slots(columns: table.columns.map(\.name), toMany: toMany)
        }
        self.slots = slots
        tombstoneCount = mappings.map { Self.preserved($0).count }.max() ?? 0
    }

    /// The attributes of an entity kept in its tombstone, with their columns, in order.
    static func preserved(_ mapping: StoreSchema.EntityMapping) -> [(attribute: AttributeDescription, column: String)] {
        mapping.attributes.filter { $0.attribute.preservesValueInHistoryOnDeletion }
    }

    static func tombstoneColumn(_ i: Int) -> String { "ZTOMBSTONE\(i)" }

    /// The columns that hold an entity's values: its attributes' and its to-one
    /// relationships' (key and entity), in the table's order.
    static func columns(of mapping: StoreSchema.EntityMapping) -> [String] {
        let own = Set(mapping.attributes.map(\.column) + mapping.toOne.flatMap { [$0.key.column] + ($0.key.entityColumn.map { [$0] } ?? []) })
        return mapping.table.columns.map(\.name).filter(own.contains)
    }

    // MARK: Tables

    /// The history tables and their indexes, for a store that has none.
    var tableStatements: [SQLStatement] {
        let bookkeeping = [SQLColumnDefinition("Z_PK", .integer, primaryKey: true),
                           SQLColumnDefinition("Z_ENT", .integer), SQLColumnDefinition("Z_OPT", .integer)]
        return [
            .createTable(Self.changeTable, columns: bookkeeping + [
                SQLColumnDefinition("ZCHANGETYPE", .integer), SQLColumnDefinition("ZENTITY", .integer),
                SQLColumnDefinition("ZENTITYPK", .integer), SQLColumnDefinition("ZTRANSACTIONID", .integer),
                SQLColumnDefinition("ZCOLUMNS", .blob),
            ] + (0..<tombstoneCount).map { SQLColumnDefinition(Self.tombstoneColumn($0), .blob) }, padded: true),
            .createTable(Self.transactionTable, columns: bookkeeping + [
                SQLColumnDefinition("ZAUTHORTS", .integer), SQLColumnDefinition("ZBUNDLEIDTS", .integer),
                SQLColumnDefinition("ZCONTEXTNAMETS", .integer), SQLColumnDefinition("ZPROCESSIDTS", .integer),
                SQLColumnDefinition("ZTIMESTAMP", .float), SQLColumnDefinition("ZAUTHOR", .varchar),
                SQLColumnDefinition("ZBUNDLEID", .varchar), SQLColumnDefinition("ZCONTEXTNAME", .varchar),
                SQLColumnDefinition("ZPROCESSID", .varchar), SQLColumnDefinition("ZQUERYGEN", .blob),
            ], padded: true),
            .createTable(Self.stringTable, columns: bookkeeping + [SQLColumnDefinition("ZNAME", .varchar)], padded: true),
            // With the key: a trigger asks whether the open transaction has a change for an object already.
            .createIndex("ACHANGE_ZTRANSACTIONID_INDEX", on: Self.changeTable, columns: ["ZTRANSACTIONID", "ZENTITYPK"]),
            .createIndex("ATRANSACTION_ZTIMESTAMP_INDEX", on: Self.transactionTable, columns: ["ZTIMESTAMP"]),
            .createIndex("ATRANSACTION_ZAUTHORTS_INDEX", on: Self.transactionTable, columns: ["ZAUTHORTS"]),
            .createUniqueIndex("Z_TRANSACTIONSTRING_UNIQUE_NAME", on: Self.stringTable, columns: ["ZNAME"]),
        ] + Self.valueTableStatements
    }

    /// The tables of previous values and members, for a store whose history has none yet (one
    /// made by Core Data, or before they were kept): from then on its changes have them.
    static var valueTableStatements: [SQLStatement] {
        [
            .createTable(valueTable, columns: [SQLColumnDefinition("ZCHANGE", .integer), SQLColumnDefinition("ZCOLUMN", .varchar),
                                               SQLColumnDefinition("ZVALUE", .blob)]),
            .createIndex("TDHISTORYVALUE_ZCHANGE_INDEX", on: valueTable, columns: ["ZCHANGE"]),
            .createTable(memberTable, columns: [SQLColumnDefinition("ZTRANSACTIONID", .integer), SQLColumnDefinition("ZTABLE", .varchar),
                                                SQLColumnDefinition("ZFIRST", .integer), SQLColumnDefinition("ZSECOND", .integer),
                                                SQLColumnDefinition("ZJOINED", .integer)]),
            .createIndex("TDHISTORYMEMBER_ZTRANSACTIONID_INDEX", on: memberTable, columns: ["ZTRANSACTIONID"]),
        ]
    }

    // MARK: Triggers

    /// The transaction a change belongs to: the last one, while a save holds it open; else
    /// none, for the next save to file.
    static var openTransaction: SQLExpression { .subquery(openTransactionSelect) }

    private static var openTransactionSelect: SQLSelect {
        let last = SQLSelect(columns: [.function("MAX", [.column("Z_PK")])], from: .table(transactionTable))
        return SQLSelect(columns: [.column("Z_PK")], from: .table(transactionTable),
                         filter: .and([.column("Z_PK") == .subquery(last), .column("Z_OPT") == .literal(0)]))
    }

    static let changeColumns = ["Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"]

    private static func recordChange(_ type: Int64, entity: SQLExpression, key: SQLExpression,
                                     columns mask: SQLExpression? = nil,
                                     tombstones: [(index: Int, value: SQLExpression)] = []) -> SQLStatement {
        var columns = changeColumns
        var values: [SQLExpression] = [.literal(changeEntity), .literal(1), .literal(type), entity, key, openTransaction]
        if let mask { columns.append("ZCOLUMNS"); values.append(mask) }
        for (i, value) in tombstones { columns.append(tombstoneColumn(i)); values.append(value) }
        return .insert(into: changeTable, columns: columns, values: values)
    }

    /// Statements that keep a row's values under the change just recorded (the largest in
    /// `ACHANGE`): each of `columns` that `changed` says changed, or, without it, each that
    /// held a value (a deleted row's `Z_OPT`, which always has one, says that its values were
    /// kept, none of them perhaps).
    private static func recordValues(of columns: [String], changed: ((String) -> SQLExpression)?) -> [SQLStatement] {
        let change = SQLExpression.subquery(SQLSelect(columns: [.function("MAX", [.column("Z_PK")])], from: .table(changeTable)))
        return columns.map { column in
            var select = SQLSelect(columns: [change, .literal(name: column), .column(column, of: "OLD")])
            select.filter = changed?(column) ?? .column(column, of: "OLD").isNull(negated: true)
            return .insert(into: valueTable, columns: ["ZCHANGE", "ZCOLUMN", "ZVALUE"], select: select)
        }
    }

    /// Records a join-table row added or removed, under the open transaction.
    private static func recordMember(_ join: StoreSchema.JoinTable, row: String, joined: Bool) -> SQLStatement {
        .insert(into: memberTable, columns: ["ZTRANSACTIONID", "ZTABLE", "ZFIRST", "ZSECOND", "ZJOINED"], values: [
            openTransaction, .literal(name: join.name), .column(join.firstColumn, of: row), .column(join.secondColumn, of: row),
            .literal(Int64(joined ? 1 : 0)),
        ])
    }

    /// An update of the object that owns a to-many relationship, when a member joins or
    /// leaves it: folded into the update the transaction holds for it already, if any, and
    /// left out when the transaction inserted or deleted the owner.
    private static func recordOwnerChange(entity: SQLExpression, key: SQLExpression, bit: Int64,
                                          when condition: SQLExpression) -> [SQLStatement] {
        let sameObject = SQLExpression.and([
            .binary(.column("ZTRANSACTIONID"), .is, openTransaction), .column("ZENTITYPK") == key, .column("ZENTITY") == entity,
        ])
        let fold = SQLStatement.update(changeTable, set: [("ZCOLUMNS", .binary(.coalesce(.column("ZCOLUMNS"), .literal(0)), .bitOr, .literal(bit)))],
                                       where: .and([condition, sameObject, .column("ZCHANGETYPE") == .literal(1)]))
        var select = SQLSelect(columns: [.literal(changeEntity), .literal(1), .literal(1), entity, key, openTransaction, .literal(bit)])
        select.filter = .and([condition, .not(.exists(SQLSelect(columns: [.literal(1)], from: .table(changeTable), filter: sameObject)))])
        return [fold, .insert(into: changeTable, columns: changeColumns + ["ZCOLUMNS"], select: select)]
    }

    /// The entity number of the row with key `key` in `table`.
    private func entityNumber(in table: StoreSchema.Table, key: SQLExpression) -> SQLExpression {
        if table.entityNumbers.count == 1 { return .literal(Int64(table.entityNumbers[0])) }
        return .subquery(SQLSelect(columns: [.column("Z_ENT")], from: .table(table.name), filter: .column("Z_PK") == key))
    }

    /// To-many relationships kept by a foreign key on another table or in a join table:
    /// where the member's key lies, whose row owns the relationship, and its slot there.
    private struct OwnerLink {
        var table: String           // where the trigger fires
        var keyColumn: String       // the owner's Z_PK in that table's row
        var owner: StoreSchema.Table
        var bit: Int64
    }

    private var ownerLinks: [OwnerLink] {
        var links: [OwnerLink] = []
        var seen: Set<String> = []
        for entity in schema.model.entities {
            guard let mapping = schema.mapping(for: entity.name), let ownerSlots = slots[mapping.table.name] else { continue }
            for (relationship, storage) in mapping.toMany {
                guard let slot = ownerSlots.toMany.firstIndex(of: relationship.name) else { continue }
                let (table, column): (String, String)
                switch storage {
                case .foreignKey(let t, let c): (table, column) = (t, c)
                case .joinTable(let name, let own, _): (table, column) = (name, own)
                }
                guard seen.insert("\(table).\(column).\(slot)").inserted else { continue }
                links.append(OwnerLink(table: table, keyColumn: column, owner: mapping.table, bit: ownerSlots.bit(ownerSlots.columns.count + slot)))
            }
        }
        return links
    }

    /// The statement that records the rows of a table whose keys lie in a range as inserted
    /// by a transaction; its parameters are the transaction, the first key and the last.
    func insertedRows(of table: String) -> SQLStatement {
        .insert(into: Self.changeTable, columns: Self.changeColumns, select: SQLSelect(
            columns: [.literal(Self.changeEntity), .literal(1), .literal(0), .column("Z_ENT"), .column("Z_PK"), .parameter],
            from: .table(table), filter: .column("Z_PK").between(.parameter, and: .parameter)))
    }

    /// Statements that record, for the transaction numbered by their parameters (each `?`
    /// is the transaction's number), an update of every object a row inserted in it joined as
    /// a to-many member through a foreign key: set-based, one pass per relationship, where a
    /// trigger would take a statement per row. Owners the transaction inserted or deleted are
    /// left out; one it updated already gets the relationship's bit.
    var ownersOfInsertedMembers: [(statement: SQLStatement, parameters: Int)] {
        var statements: [(SQLStatement, Int)] = []
        for link in ownerLinks {
            guard let members = schema.tables.first(where: { $0.name == link.table }) else { continue }   // join tables have triggers
            let ownerEntity: SQLExpression = link.owner.entityNumbers.count == 1 ? .literal(Int64(link.owner.entityNumbers[0]))
                : .subquery(SQLSelect(columns: [.column("Z_ENT")], from: .table(link.owner.name, as: "o"),
                                      filter: .column("Z_PK", of: "o") == .column(link.keyColumn, of: "m")))
            // The owners of members this transaction inserted.
            var owners = SQLSelect(columns: [.column(link.keyColumn, of: "m")], from: .table(Self.changeTable, as: "c"),
                                   joins: [SQLJoin(.inner, members.name, as: "m", on: .column("Z_PK", of: "m") == .column("ZENTITYPK", of: "c"))])
            owners.filter = .and([
                .column("ZTRANSACTIONID", of: "c") == .parameter, .column("ZCHANGETYPE", of: "c") == .literal(0),
                .column("ZENTITY", of: "c").isIn(members.entityNumbers.map { .literal(Int64($0)) }),
                .column(link.keyColumn, of: "m").isNull(negated: true),
            ])
            var joined = owners
            joined.columns = [.literal(1)]
            joined.filter = .and([owners.filter!, .column(link.keyColumn, of: "m") == .column("ZENTITYPK", of: Self.changeTable)])
            let updated = SQLExpression.and([
                .column("ZTRANSACTIONID") == .parameter, .column("ZCHANGETYPE") == .literal(1), .exists(joined),
            ])
            statements.append((.update(Self.changeTable, set: [("ZCOLUMNS", .binary(.coalesce(.column("ZCOLUMNS"), .literal(0)), .bitOr, .literal(link.bit)))],
                                       where: .and([updated, .column("ZENTITY").isIn(link.owner.entityNumbers.map { .literal(Int64($0)) })])), 2))
            var fresh = owners
            fresh.columns = [.literal(Self.changeEntity), .literal(1), .literal(1), ownerEntity, .column(link.keyColumn, of: "m"), .parameter, .literal(link.bit)]
            fresh.filter = .and([owners.filter!, .not(.exists(SQLSelect(columns: [.literal(1)], from: .table(Self.changeTable, as: "x"), filter: .and([
                .column("ZTRANSACTIONID", of: "x") == .parameter, .column("ZENTITYPK", of: "x") == .column(link.keyColumn, of: "m"),
                .column("ZENTITY", of: "x").isIn(link.owner.entityNumbers.map { .literal(Int64($0)) }),
            ]))))])
            fresh.groupBy = [.column(link.keyColumn, of: "m")]
            statements.append((.insert(into: Self.changeTable, columns: Self.changeColumns + ["ZCOLUMNS"], select: fresh), 3))
        }
        return statements
    }

    /// Every trigger history needs, by name.
    var triggers: [(name: String, statement: SQLStatement)] {
        var triggers: [(String, SQLStatement)] = []
        let links = ownerLinks
        func ownerChanges(on table: String, row: String, when extra: (String) -> SQLExpression) -> [SQLStatement] {
            links.filter { $0.table == table }.flatMap { link in
                let key = SQLExpression.column(link.keyColumn, of: row)
                return Self.recordOwnerChange(entity: entityNumber(in: link.owner, key: key), key: key, bit: link.bit,
                                              when: .and([key.isNull(negated: true), extra(link.keyColumn)]))
            }
        }
        for table in schema.tables {
            guard let tableSlots = slots[table.name] else { continue }
            let prefix = Self.triggerPrefix + table.name
            // Inserts under an open transaction are the store's own: it records them itself,
            // set-based, at the transaction's end (`insertedRows`), with the owners the new rows
            // join (`ownersOfInsertedMembers`). The trigger records other writers' inserts.
            triggers.append((prefix + "_INSERT", .createTrigger(
                prefix + "_INSERT", after: .insert, on: table.name, when: .not(.exists(Self.openTransactionSelect)),
                body: [Self.recordChange(0, entity: .column("Z_ENT", of: "NEW"), key: .column("Z_PK", of: "NEW"))])))

            let changed = tableSlots.columns.enumerated().map { i, column in
                (bit: tableSlots.bit(i), test: SQLExpression.binary(.column(column, of: "OLD"), .isNot, .column(column, of: "NEW")))
            }
            if !changed.isEmpty {
                // Each changed column adds its bit; columns past the last bit share it.
                var byBit: [Int64: [SQLExpression]] = [:]
                for c in changed { byBit[c.bit, default: []].append(c.test) }
                let mask = byBit.keys.sorted().map { bit -> SQLExpression in
                    .binary(.or(byBit[bit]!), .times, .literal(bit))
                }.reduce(nil as SQLExpression?) { sum, term in sum.map { .binary($0, .bitOr, term) } ?? term }!
                let movedOwners = ownerChanges(on: table.name, row: "OLD") { column in
                    .binary(.column(column, of: "OLD"), .isNot, .column(column, of: "NEW"))
                } + ownerChanges(on: table.name, row: "NEW") { column in
                    .binary(.column(column, of: "OLD"), .isNot, .column(column, of: "NEW"))
                }
                // A to-one's entity column goes with its key, so that the old destination is known.
                var partners: [String: String] = [:]
                for mapping in schema.model.entities.compactMap({ schema.mapping(for: $0.name) }) where mapping.table.name == table.name {
                    for (_, key) in mapping.toOne {
                        guard let entityColumn = key.entityColumn else { continue }
                        partners[entityColumn] = key.column
                        partners[key.column] = entityColumn
                    }
                }
                func moved(_ column: String) -> SQLExpression {
                    .binary(.column(column, of: "OLD"), .isNot, .column(column, of: "NEW"))
                }
                let values = Self.recordValues(of: tableSlots.columns) { column in
                    guard let partner = partners[column] else { return moved(column) }
                    return .or([moved(column), moved(partner)])
                }
                triggers.append((prefix + "_UPDATE", .createTrigger(
                    prefix + "_UPDATE", after: .update(of: tableSlots.columns), on: table.name, when: .or(changed.map(\.test)),
                    body: [Self.recordChange(1, entity: .column("Z_ENT", of: "NEW"), key: .column("Z_PK", of: "NEW"), columns: mask)]
                        + values + movedOwners)))
            }

            let leaving = ownerChanges(on: table.name, row: "OLD") { _ in .true }
            for number in table.entityNumbers {
                guard let name = schema.entityNamesByNumber[number], let mapping = schema.mapping(for: name) else { continue }
                let tombstones = Self.preserved(mapping).enumerated().map { (index: $0.offset, value: SQLExpression.column($0.element.column, of: "OLD")) }
                let trigger = prefix + "_DELETE_\(number)"
                triggers.append((trigger, .createTrigger(
                    trigger, after: .delete, on: table.name, when: .column("Z_ENT", of: "OLD") == .literal(Int64(number)),
                    body: [Self.recordChange(2, entity: .literal(Int64(number)), key: .column("Z_PK", of: "OLD"), tombstones: tombstones)]
                        + Self.recordValues(of: ["Z_OPT"] + Self.columns(of: mapping), changed: nil) + leaving)))
            }
        }
        for join in schema.joinTables {
            let prefix = Self.triggerPrefix + join.name
            let added = [Self.recordMember(join, row: "NEW", joined: true)] + ownerChanges(on: join.name, row: "NEW") { _ in .true }
            let removed = [Self.recordMember(join, row: "OLD", joined: false)] + ownerChanges(on: join.name, row: "OLD") { _ in .true }
            triggers.append((prefix + "_INSERT", .createTrigger(prefix + "_INSERT", after: .insert, on: join.name, body: added)))
            triggers.append((prefix + "_DELETE", .createTrigger(prefix + "_DELETE", after: .delete, on: join.name, body: removed)))
        }
        return triggers
    }
}
