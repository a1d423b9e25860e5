import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLSyntax

extension PostgresStore {
    /// Reads what a change replaced from its `ZPREVIOUS` (a JSON object of text by column, as
    /// the triggers write it): an update's changed columns, a delete's every one (with its
    /// `Z_OPT`), or, for a join row's change, the member that joined (`+`) or left (`-`).
    func addPrevious(_ text: String, to change: inout HistoryChange, columns: [String], mapping: StoreSchema.EntityMapping) {
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return }
        if change.changeType == .update, let relationship = columns.first(where: { $0.hasPrefix("@") }).map({ String($0.dropFirst()) }),
           let member = (json["+"] ?? json["-"]).flatMap(Self.key) {
            guard let destination = mapping.entity.relationship(named: relationship)?.destinationEntityName else { return }
            let id = objectID(entityName: destination, primaryKey: member)
            if json["+"] != nil { change.joined[relationship, default: []].append(id) } else { change.left[relationship, default: []].append(id) }
            return
        }
        let complete = change.changeType == .delete
        var values: [String: ObjectValue] = [:]
        /// A column's text: absent when not kept; kept as NULL.
        func cell(_ column: String) -> String?? {
            guard let value = json[column] else { return nil }
            return .some(value as? String)
        }
        for (attribute, column) in mapping.attributes {
            if let value = cell(column) {
                values[attribute.name] = value.map { Self.value(ofText: $0, type: attribute.type) } ?? .null
            } else if complete {
                values[attribute.name] = .null
            }
        }
        for (relationship, key) in mapping.toOne {
            guard let value = cell(key.column) else {
                if complete { values[relationship.name] = .null }
                continue
            }
            guard let primaryKey = value.flatMap({ Int64($0) }) else {
                values[relationship.name] = .null
                continue
            }
            var entity = key.destinationEntityName
            if let entityColumn = key.entityColumn, let kept = cell(entityColumn), let number = kept.flatMap({ Int($0) }),
               let name = layout.entityName(forNumber: number) { entity = name }
            values[relationship.name] = .object(objectID(entityName: entity, primaryKey: primaryKey))
        }
        if complete, json["Z_OPT"] == nil { return }
        change.previousValues = values
    }

    private static func key(_ value: Any) -> Int64? {
        if let number = value as? NSNumber { return number.int64Value }
        return (value as? String).flatMap { Int64($0) }
    }

    /// A value from the text a trigger kept for it (see `PostgresHistorySchema.previousValues`).
    static func value(ofText text: String, type: AttributeType) -> ObjectValue {
        switch type {
        case .integer16, .integer32, .integer64: return Int(text).map(ObjectValue.int) ?? .null
        case .boolean: return Int(text).map { .bool($0 != 0) } ?? .null
        case .double, .float: return Double(text).map(ObjectValue.double) ?? .null
        case .decimal: return Decimal(string: text).map(ObjectValue.decimal) ?? .null
        case .date: return Double(text).map { .date(Date(timeIntervalSince1970: $0)) } ?? .null
        case .string: return .string(text)
        case .uri: return URL(string: text).map(ObjectValue.url) ?? .string(text)
        case .uuid: return UUID(uuidString: text).map(ObjectValue.uuid) ?? .null
        case .binary, .transformable, .objectID, .undefined:
            return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map(ObjectValue.data) ?? .null
        }
    }

    /// A deleted object's many-to-many members, from the other side: its own side's join rows
    /// went after its row, when no owner was left to record them.
    static func withMembersOfDeleted(_ changes: [HistoryChange], model: ManagedObjectModel) -> [HistoryChange] {
        // Deleted objects by key: a member is named by its relationship's destination entity,
        // the deleted object by its own (perhaps a sub-entity), so the key finds it.
        var deleted: [Int64: [Int]] = [:]
        for (i, change) in changes.enumerated() where change.changeType == .delete {
            if let key = change.changedObjectID.primaryKey { deleted[key, default: []].append(i) }
        }
        guard !deleted.isEmpty else { return changes }
        var result = changes
        for change in changes {
            for (name, members) in change.left {
                guard let inverse = model.entity(named: change.changedObjectID.entityName)?.relationship(named: name)?.inverseName else { continue }
                for member in members {
                    guard let key = member.primaryKey, let i = deleted[key]?.first(where: {
                        model.entity(named: changes[$0].changedObjectID.entityName)?.relationship(named: inverse) != nil
                    }) else { continue }
                    if result[i].left[inverse]?.contains(change.changedObjectID) != true {
                        result[i].left[inverse, default: []].append(change.changedObjectID)
                    }
                }
            }
        }
        return result
    }
}
