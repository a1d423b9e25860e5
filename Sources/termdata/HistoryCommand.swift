import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore

/// `termdata history [--store PATH --model MODEL] [--since TOKEN] [--author A]... [--entity E]... [--object URI] [--format table|json]`
/// `termdata history --revert TOKEN [--dry-run]`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a store's history: its transactions and what each changed.",
        discussion: """
        A SQLite store records its history when an application asks for it (the ToDo app and \
        the browser do): every save, batch request and other program's write, with its author \
        and context. --since TOKEN lists what came after a token (the number in the first \
        column); --object URI lists one object's story (its insert, each update with the values \
        it changed, before and after, its delete with the values it had) and its values now; \
        --revert TOKEN takes that transaction back in a new one (--dry-run shows what it would \
        write), refused where a later transaction changed the same values; --delete-through \
        TOKEN removes history up to it.
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

    @Option(help: "Take back the transaction of this token, in a new transaction: what it inserted removed, what it changed restored, what it deleted made again.")
    var revert: String?

    @Flag(name: .customLong("dry-run"), help: "With --revert: show what it would write, and write nothing.")
    var dryRun = false

    func run() throws {
        let model = try storeArguments.loadModel()
        for name in entity { _ = try StoreArguments.entity(name, in: model) }
        if dryRun, revert == nil { throw CommandFailure("--dry-run goes with --revert TOKEN") }
        let writes = deleteThrough != nil || (revert != nil && !dryRun)
        let context = try storeArguments.open(model: model, readOnly: !writes)
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
        if let revert {
            let plan = try CommandFailure.rethrowing { try coordinator.planRevert(of: try token(revert, "--revert")) }
            var output = StandardOutput()
            let t = plan.transaction
            let who = [t.author, t.contextName].compactMap { $0 }.joined(separator: ", ")
            try output.line("Transaction \(t.token) of \(JSONValue.dateText(t.timestamp))\(who.isEmpty ? "" : " by \(who)"): "
                + "\(t.changes.count) change\(t.changes.count == 1 ? "" : "s"). Taking it back \(dryRun ? "would write" : "writes"):")
            for step in plan.steps { try output.line("  " + step.text(name: Self.objectName, value: Self.text)) }
            try output.flush()
            guard plan.conflicts.isEmpty else { throw CommandFailure(HistoryRevertError.conflicts(t.transactionNumber, plan.conflicts).description) }
            if dryRun {
                try StandardOutput.line("(a dry run: nothing written)")
                return
            }
            let number = try CommandFailure.rethrowing { try coordinator.revert(plan) }
            try StandardOutput.line("Taken back in transaction \(number.map(String.init) ?? "—") (author “termdata revert”).")
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
            try StandardOutput.line(try JSONValue.text(.array(transactions.map(JSONValue.history))))
        case .table:
            var rows: [[String: JSONValue]] = []
            var after: [Int64: [String: ObjectValue]] = [:]
            if let objectID {
                let current = try? context.existingObject(with: objectID)
                after = transactions.valuesAfter(changesOf: objectID) { current?.historyValue(forKey: $0) }
            }
            for transaction in transactions {
                for change in transaction.changes {
                    rows.append([
                        "token": .string(transaction.token.description),
                        "time": .string(JSONValue.dateText(transaction.timestamp)),
                        "author": transaction.author.map(JSONValue.string) ?? .string("—"),
                        "context": transaction.contextName.map(JSONValue.string) ?? .null,
                        "change": .string(JSONValue.typeName(change.changeType)),
                        "object": .string(Self.objectName(change.changedObjectID)),
                        "details": .string(Self.details(change, after: after[change.changeID] ?? [:])),
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

    /// An object's values as the store holds them now, or that it is gone.
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

    /// A value for a line of text: a related object as `Shelf 2`.
    private static func text(_ value: ObjectValue) -> String {
        switch value {
        case .object(let object):
            if let id = object as? ManagedObjectID { return objectName(id) }
            if let managed = object as? ManagedObject { return objectName(managed.objectID) }
            return TextTable.cell(JSONValue.from(value))
        case .array(let members), .set(let members):
            return "[" + members.map(text).joined(separator: ", ") + "]"
        default:
            return TextTable.cell(JSONValue.from(value))
        }
    }

    /// `ToDo 12`: the entity and the primary key.
    private static func objectName(_ id: ManagedObjectID) -> String {
        "\(id.entityName) \(id.primaryKey.map(String.init) ?? id.description)"
    }

    /// The properties an update changed, with their values before (and after, where known),
    /// and the members that joined or left; what a deleted object had, or left behind.
    private static func details(_ change: HistoryChange, after: [String: ObjectValue] = [:]) -> String {
        let previous = change.previousValues ?? [:]
        if let properties = change.updatedProperties {
            return properties.sorted().map { key in
                var members: [String] = (change.joined[key] ?? []).map { "+" + objectName($0) }
                members += (change.left[key] ?? []).map { "−" + objectName($0) }
                if !members.isEmpty { return "\(key) " + members.joined(separator: " ") }
                guard let before = previous[key] else { return key }
                guard let now = after[key] else { return "\(key) was \(text(before))" }
                return "\(key) \(text(before)) → \(text(now))"
            }.joined(separator: "; ")
        }
        if change.changeType == .delete, !previous.isEmpty {
            let values = previous.filter { !$0.value.isNull }.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
            let members = change.left.sorted { $0.key < $1.key }.map { "\($0.key)=[\($0.value.map(objectName).joined(separator: ", "))]" }
            return (values + members).joined(separator: ", ")
        }
        if let tombstone = change.tombstone {
            return tombstone.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: ", ")
        }
        if change.changeType == .insert, !change.joined.isEmpty {
            return change.joined.sorted { $0.key < $1.key }.map { "\($0.key)=[\($0.value.map(objectName).joined(separator: ", "))]" }.joined(separator: ", ")
        }
        return ""
    }
}
