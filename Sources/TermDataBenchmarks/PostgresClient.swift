import Foundation
import ObjectGraph
import ObjectModel
import PostgresStore
import Predicates
import ToDoApp

/// One client of a ToDo store on a server, in a process of its own, for the load test and the
/// eight-client benchmark: `termdata-bench postgres-client URL CLIENT SAVES`.
///
/// It makes SAVES saves. Each changes one of the store's items named `shared …` (in turn,
/// starting at the client's number) and inserts a category `log CLIENT-n`. Even clients let
/// the store win property by property; odd ones are told of each conflict, refresh and try
/// again. It prints one line of JSON: the successful updates of each shared item, the
/// conflicts it was told of, and the seconds it took.
enum PostgresClient {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 3, let url = URL(string: arguments[0]), let client = Int(arguments[1]), let saves = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: termdata-bench postgres-client URL CLIENT SAVES\n".utf8))
            exit(2)
        }
        PostgresStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ToDoStore.bundledVersions().current)
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = client % 2 == 0 ? .mergeByPropertyStoreTrump : .error
        let shared = try context.fetch(FetchRequest(entityName: "ToDo", predicate: ObjectPredicate(format: "name BEGINSWITH 'shared '"),
                                                    sortDescriptors: [ObjectSortDescriptor(key: "name")])).map(\.objectID)
        guard !shared.isEmpty else { throw ObjectGraphError.storeFormat(file: arguments[0], reason: "no item named 'shared …'") }
        var updates: [String: Int] = [:]
        var conflicts = 0
        let started = Date()
        for n in 0..<saves {
            let id = shared[(client + n) % shared.count]
            while true {
                let item = try context.existingObject(with: id)
                item["completed"] = .bool(n % 2 == 0)
                item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(client * 100_000 + n)))
                try context.insertObject(forEntityName: "Category")["name"] = .string("log \(client)-\(n)")
                do {
                    try context.save()
                    updates[item.string("name") ?? "?", default: 0] += 1
                    break
                } catch is MergeConflictError where context.mergePolicy == .error {
                    // The store-trump clients' policy settles every conflict; the others hear of them.
                    conflicts += 1
                    context.rollback()
                    context.refreshAllObjects()
                }
            }
        }
        let summary: [String: Any] = ["updates": updates, "conflicts": conflicts, "seconds": Date().timeIntervalSince(started)]
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
    }
}
