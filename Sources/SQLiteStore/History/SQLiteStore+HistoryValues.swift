import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension SQLiteStore {
    /// Gives the changes of the transactions `first` through `last` what they replaced (the
    /// values their triggers kept in `TDHISTORYVALUE`) and the many-to-many members that
    /// joined and left (`TDHISTORYMEMBER`). Changes recorded before the store kept them, or by
    /// Core Data, are left without.
    func addPreviousValues(to changes: inout [Int64: [HistoryChange]], from first: Int64, through last: Int64, in db: Database) throws {
        guard try db.tableExists(HistorySchema.valueTable) else { return }
        var places: [Int64: (transaction: Int64, index: Int)] = [:]
        var owners: [Int64: [String: [Int64: Int]]] = [:]   // transaction → table → key → index
        for (transaction, list) in changes {
            for (i, change) in list.enumerated() {
                if change.changeType != .insert { places[change.changeID] = (transaction, i) }
                if let table = schema.mapping(for: change.changedObjectID.entityName)?.table.name, let key = change.changedObjectID.primaryKey {
                    owners[transaction, default: [:]][table, default: [:]][key] = i
                }
            }
        }
        var columnsByChange: [Int64: [String: DatabaseValue]] = [:]
        let values = try Row.fetchCursor(db, sql: """
            SELECT v.ZCHANGE, v.ZCOLUMN, v.ZVALUE FROM \(HistorySchema.valueTable) v JOIN ACHANGE c ON c.Z_PK = v.ZCHANGE
            WHERE c.ZTRANSACTIONID BETWEEN ? AND ?
            """, arguments: [first, last])
        while let row = try values.next() {
            let change: Int64 = row[0]
            guard places[change] != nil, let column: String = row[1] else { continue }
            columnsByChange[change, default: [:]][column] = row[2]
        }
        for (id, place) in places {
            let change = changes[place.transaction]![place.index]
            guard let mapping = schema.mapping(for: change.changedObjectID.entityName) else { continue }
            changes[place.transaction]![place.index].previousValues = previousValues(columnsByChange[id] ?? [:], of: change, mapping: mapping)
        }

        let joins = joinSides
        let members = try Row.fetchCursor(db, sql: """
            SELECT ZTRANSACTIONID, ZTABLE, ZFIRST, ZSECOND, ZJOINED FROM \(HistorySchema.memberTable)
            WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY rowid
            """, arguments: [first, last])
        while let row = try members.next() {
            guard let transaction: Int64 = row[0], let table: String = row[1], let sides = joins[table],
                  let firstKey: Int64 = row[2], let secondKey: Int64 = row[3] else { continue }
            let joined: Bool = row[4] ?? false
            for side in sides {
                let (owner, member) = side.ownsFirst ? (firstKey, secondKey) : (secondKey, firstKey)
                guard let index = owners[transaction]?[side.ownerTable]?[owner] else { continue }
                let id = try memberID(member, entity: side.relationship.destinationEntityName, in: db)
                if joined {
                    changes[transaction]![index].joined[side.relationship.name, default: []].append(id)
                } else {
                    changes[transaction]![index].left[side.relationship.name, default: []].append(id)
                }
            }
        }
    }

    /// A change's previous values from the columns its trigger kept: an update's changed ones,
    /// a delete's every one (its `Z_OPT` says they were kept). `nil` where none were kept.
    private func previousValues(_ columns: [String: DatabaseValue], of change: HistoryChange,
                                mapping: StoreSchema.EntityMapping) -> [String: ObjectValue]? {
        let complete = change.changeType == .delete
        if complete, columns["Z_OPT"] == nil { return nil }
        var values: [String: ObjectValue] = [:]
        for (attribute, column) in mapping.attributes {
            if let value = columns[column] {
                values[attribute.name] = DatabaseValueCoding.objectValue(value, type: attribute.type)
            } else if complete {
                values[attribute.name] = .null
            }
        }
        for (relationship, key) in mapping.toOne {
            guard let value = columns[key.column] else {
                if complete { values[relationship.name] = .null }
                continue
            }
            guard let primaryKey = Int64.fromDatabaseValue(value) else {
                values[relationship.name] = .null
                continue
            }
            var entity = key.destinationEntityName
            if let entityColumn = key.entityColumn, let number = columns[entityColumn].flatMap(Int.fromDatabaseValue),
               let name = schema.entityNamesByNumber[number] { entity = name }
            values[relationship.name] = .object(objectID(entityName: entity, primaryKey: primaryKey))
        }
        // An update that changed only to-many relationships kept no column, and lost nothing.
        if !complete, values.isEmpty, let properties = change.updatedProperties,
           properties.contains(where: { mapping.entity.relationship(named: $0)?.isToMany != true }) { return nil }
        return values
    }

    /// For each join table, the relationships it keeps: the owner's table and which column
    /// holds the owner's key.
    private var joinSides: [String: [(relationship: RelationshipDescription, ownerTable: String, ownsFirst: Bool)]] {
        var sides: [String: [(RelationshipDescription, String, Bool)]] = [:]
        var seen: Set<String> = []
        for entity in model.entities {
            guard let mapping = schema.mapping(for: entity.name) else { continue }
            for (relationship, storage) in mapping.toMany {
                guard case .joinTable(let name, let own, _) = storage,
                      let join = schema.joinTables.first(where: { $0.name == name }),
                      seen.insert("\(name).\(own).\(relationship.name)").inserted else { continue }
                sides[name, default: []].append((relationship, mapping.table.name, own == join.firstColumn))
            }
        }
        return sides
    }

    /// The ID of a member by its key: of the destination entity, or of the sub-entity its row
    /// names when the destination has some (and the row is still there).
    private func memberID(_ key: Int64, entity: String, in db: Database) throws -> ManagedObjectID {
        guard let table = schema.mapping(for: entity)?.table, table.entityNumbers.count > 1,
              let number = try Int.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(table.name) WHERE Z_PK = ?"), arguments: [key]),
              let name = schema.entityNamesByNumber[number] else { return objectID(entityName: entity, primaryKey: key) }
        return objectID(entityName: name, primaryKey: key)
    }
}
