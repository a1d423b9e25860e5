import Foundation
import ObjectGraph
import Predicates

extension JSONValue {
    /// A transaction of a store's persistent history as JSON, as `termdata history --format json`
    /// prints it: its token, store, time (ISO 8601), author, context name and process, and its
    /// changes — each with its number, type (`insert`, `update`, `delete`), entity, object URI,
    /// and where the store keeps them the properties an update changed, a delete's tombstone,
    /// the values before the change, and the members that joined or left a to-many. Related
    /// objects appear as their URIs.
    ///
    /// ```swift
    /// let transactions = try coordinator.fetchHistory(HistoryRequest(after: token))
    /// print(try JSONValue.text(.array(transactions.map(JSONValue.history))))
    /// ```
    public static func history(_ transaction: HistoryTransaction) -> JSONValue {
        .object([
            "token": .string(transaction.token.description),
            "store": .string(transaction.storeIdentifier),
            "timestamp": .string(dateText(transaction.timestamp)),
            "author": transaction.author.map(JSONValue.string) ?? .null,
            "contextName": transaction.contextName.map(JSONValue.string) ?? .null,
            "processID": transaction.processID.map(JSONValue.string) ?? .null,
            "changes": .array(transaction.changes.map(history)),
        ])
    }

    /// One change of a transaction as JSON (see `history(_:)` for a transaction).
    public static func history(_ change: HistoryChange) -> JSONValue {
        var object: [String: JSONValue] = [
            "changeID": .int(Int(change.changeID)),
            "type": .string(typeName(change.changeType)),
            "entity": .string(change.changedObjectID.entityName),
            "object": uri(change.changedObjectID),
        ]
        if let properties = change.updatedProperties { object["updatedProperties"] = .array(properties.sorted().map(JSONValue.string)) }
        if let tombstone = change.tombstone { object["tombstone"] = .object(tombstone.mapValues(JSONValue.from)) }
        if let previous = change.previousValues { object["previousValues"] = .object(previous.mapValues(identified)) }
        if !change.joined.isEmpty { object["joined"] = .object(change.joined.mapValues { .array($0.map(uri)) }) }
        if !change.left.isEmpty { object["left"] = .object(change.left.mapValues { .array($0.map(uri)) }) }
        return .object(object)
    }

    /// How a change's type is written: `insert`, `update` or `delete`.
    public static func typeName(_ type: HistoryChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }

    private static func uri(_ id: ManagedObjectID) -> JSONValue { .string(id.uriRepresentation.absoluteString) }

    /// A value for JSON, a related object by its URI.
    private static func identified(_ value: ObjectValue) -> JSONValue {
        if let id = value.objectID { return uri(id) }
        return from(value)
    }
}
