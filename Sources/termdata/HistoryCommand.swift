import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import SQLiteStore

/// `termdata history [--store PATH --model MODEL] [--since TOKEN] [--author A]... [--entity E]... [--object URI] [--format table|json]`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a store's history: its transactions and what each changed.",
        discussion: """
        A SQLite store records its history when an application asks for it (the ToDo app and \
        the browser do): every save, batch request and other program's write, with its author \
        and context. --since TOKEN lists what came after a token (the number in the first \
        column); --object URI lists one object's story (its insert, each update with the keys \
        it changed, its delete with the values kept) and its values now; --delete-through TOKEN \
        removes history up to it.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var storeArguments: StoreArguments

    @Option(help: "Only transactions after this token (a transaction number).")
    var since: String?

    @Option(help: "Only transactions by this author; repeat for more.")
    var author: [String] = []

    @Option(help: "Only changes to objects of this entity (and its sub-entities); repeat for more.")
    var entity: [String] = []

    @Option(help: "Only the changes to this object, by its URI (x-coredata://…/Entity/p42, as the browser shows it), then its values now.")
    var object: String?

    @Option(help: "Output format: table (a line per change) or json (transactions with their changes).")
    var format: Format = .table

    @Option(name: .customLong("delete-through"), help: "Remove the history up to and including this token, and say how much went.")
    var deleteThrough: String?

    func run() throws {
        let model = try storeArguments.loadModel()
        for name in entity { _ = try StoreArguments.entity(name, in: model) }
        let context = try storeArguments.open(model: model, readOnly: deleteThrough == nil)
        let coordinator = context.coordinator
        let stores = coordinator.stores.map(\.identifier)
        guard coordinator.stores.contains(where: { ($0 as? any HistoryTrackingStore) != nil }) else {
            throw CommandFailure("\(storeArguments.storeName) is a \(storeArguments.storeType.rawValue) store, which keeps no history (SQLite and PostgreSQL stores do)")
        }
        func token(_ text: String, _ option: String) throws -> HistoryToken {
            guard let token = HistoryToken(text: text, storeIdentifiers: stores) else {
                throw CommandFailure("\(option) \(text): a token is a transaction number, such as 42")
            }
            return token
        }
        if let deleteThrough {
            let removed = try CommandFailure.rethrowing { try coordinator.deleteHistory(through: try token(deleteThrough, "--delete-through")) }
            try StandardOutput.line("Removed \(removed) transaction\(removed == 1 ? "" : "s") of history.")
            return
        }
        var request = HistoryRequest(after: try since.map { try token($0, "--since") })
        if !author.isEmpty { request.authors = Set(author) }
        if !entity.isEmpty { request.entityNames = Set(entity) }
        let objectID = try object.map { text -> ManagedObjectID in
            guard let url = URL(string: text), let id = coordinator.managedObjectID(forURI: url) else {
                throw CommandFailure("--object \(text): an object's URI, such as x-coredata://<store UUID>/ToDo/p12, of this store")
            }
            return id
        }
        if let objectID { request.objectIDs = [objectID] }
        let transactions = try CommandFailure.rethrowing { try coordinator.fetchHistory(request) }
        switch format {
        case .json:
            try StandardOutput.line(try JSONValue.text(.array(transactions.map(Self.json))))
        case .table:
            var rows: [[String: JSONValue]] = []
            for transaction in transactions {
                for change in transaction.changes {
                    rows.append([
                        "token": .string(transaction.token.description),
                        "time": .string(JSONValue.dateText(transaction.timestamp)),
                        "author": transaction.author.map(JSONValue.string) ?? .string("—"),
                        "context": transaction.contextName.map(JSONValue.string) ?? .null,
                        "change": .string(Self.word(change.changeType)),
                        "object": .string(Self.objectName(change.changedObjectID)),
                        "details": .string(Self.details(change)),
                    ])
                }
            }
            var output = StandardOutput()
            for line in TextTable.lines(header: ["token", "time", "author", "context", "change", "object", "details"], rows: rows,
                                        counting: "change") { try output.line(line) }
            try output.line("(\(transactions.count) transaction\(transactions.count == 1 ? "" : "s"); the last token is \(try coordinator.currentHistoryToken()))")
            if let objectID { try output.line(Self.now(objectID, in: context)) }
            try output.flush()
        }
    }

    /// An object's values as the store holds them now, or that it is gone. (The history keeps
    /// which keys each update changed, and a deleted object's kept values; the values between
    /// are not kept.)
    private static func now(_ id: ManagedObjectID, in context: ManagedObjectContext) -> String {
        guard let object = try? context.existingObject(with: id) else {
            return "now: \(objectName(id)) is no longer in the store"
        }
        let values = object.entity.storedAttributes.compactMap { attribute -> String? in
            guard let value = try? object.value(forKey: attribute.name), value != .null else { return nil }
            return "\(attribute.name)=\(TextTable.cell(JSONValue.from(value)))"
        }
        return "now: " + values.joined(separator: ", ")
    }

    private static func word(_ type: HistoryChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }

    /// `ToDo 12`: the entity and the primary key.
    private static func objectName(_ id: ManagedObjectID) -> String {
        "\(id.entityName) \(id.primaryKey.map(String.init) ?? id.description)"
    }

    /// The properties an update changed, or what a deleted object left behind.
    private static func details(_ change: HistoryChange) -> String {
        if let properties = change.updatedProperties { return properties.sorted().joined(separator: ", ") }
        if let tombstone = change.tombstone {
            return tombstone.sorted { $0.key < $1.key }.map { "\($0.key)=\(TextTable.cell(JSONValue.from($0.value)))" }.joined(separator: ", ")
        }
        return ""
    }

    private static func json(_ transaction: HistoryTransaction) -> JSONValue {
        .object([
            "token": .string(transaction.token.description),
            "store": .string(transaction.storeIdentifier),
            "timestamp": .string(JSONValue.dateText(transaction.timestamp)),
            "author": transaction.author.map(JSONValue.string) ?? .null,
            "contextName": transaction.contextName.map(JSONValue.string) ?? .null,
            "processID": transaction.processID.map(JSONValue.string) ?? .null,
            "changes": .array(transaction.changes.map { change in
                var object: [String: JSONValue] = [
                    "changeID": .int(Int(change.changeID)),
                    "type": .string(word(change.changeType)),
                    "entity": .string(change.changedObjectID.entityName),
                    "object": .string(change.changedObjectID.uriRepresentation.absoluteString),
                ]
                if let properties = change.updatedProperties { object["updatedProperties"] = .array(properties.sorted().map(JSONValue.string)) }
                if let tombstone = change.tombstone { object["tombstone"] = .object(tombstone.mapValues(JSONValue.from)) }
                return .object(object)
            }),
        ])
    }
}
