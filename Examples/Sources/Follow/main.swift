// Follow: a program that follows another process's saves to a SQLite store, as it happens.
//
//     swift run --package-path Examples Follow [STORE.sqlite]
//
// It makes the store with persistent history on, then starts a second process (itself, with
// `--write`) that saves five notes one by one. Each commit of the other process reaches this
// one as a remote-change notice; it reads the transactions since the last one it saw from the
// store's history and prints who saved what. It exits with status 1 if a save does not arrive
// within 30 seconds, or if what it saw is not what the writer saved.
import Foundation
import ObjectGraph
import ObjectModel
import SQLiteStore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Follow: \(message)\n".utf8))
    exit(1)
}

/// The model, built in Swift: a note with a title and the time it was made.
func notesModel() throws -> ManagedObjectModel {
    try ManagedObjectModel(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "created", type: .date),
        ]),
    ])
}

/// A container over one SQLite store that records every transaction in its history.
func openContainer(at url: URL) throws -> PersistentContainer {
    var options = PersistentContainer.StoreDescription.defaultOptions
    options.tracksHistory = true
    let container = PersistentContainer(name: "Notes", model: try notesModel(),
                                        storeDescriptions: [.init(type: .sqlite, url: url, options: options)])
    try container.loadPersistentStores()
    return container
}

let notesToWrite = 5
let arguments = Array(CommandLine.arguments.dropFirst())
SQLiteStore.register()

// The other process: saves the notes one at a time, as an app's background import would.
if arguments.first == "--write", arguments.count == 2 {
    do {
        let context = try openContainer(at: URL(fileURLWithPath: arguments[1])).viewContext
        context.transactionAuthor = "writer"
        for number in 1...notesToWrite {
            let note = try context.insertObject(forEntityName: "Note")
            note["title"] = .string("Note \(number)")
            note["created"] = .date(Date())
            try context.save()
            Thread.sleep(forTimeInterval: 0.05)
        }
        exit(0)
    } catch {
        fail("the writer: \(error)")
    }
}

let storeURL = arguments.first.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("Follow-\(UUID().uuidString).sqlite")
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
}

do {
    let container = try openContainer(at: storeURL)
    let coordinator = container.coordinator
    let context = container.viewContext

    // Every commit to the file, by any process, signals; the history says what it was.
    let arrived = DispatchSemaphore(value: 0)
    let observer = coordinator.observeRemoteChanges { _ in arrived.signal() }
    defer { coordinator.removeRemoteChangeObserver(observer) }
    var seenUpTo = try coordinator.currentHistoryToken()

    guard let executable = Bundle.main.executableURL else { fail("cannot find this program's own file to start the writer") }
    let writer = Process()
    writer.executableURL = executable
    writer.arguments = ["--write", storeURL.path]
    try writer.run()
    print("following \(storeURL.path); the writer is process \(writer.processIdentifier)")

    var titles: [String] = []
    let deadline = Date().addingTimeInterval(30)
    while titles.count < notesToWrite {
        guard arrived.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else {
            writer.terminate()
            fail("only \(titles.count) of \(notesToWrite) notes arrived within 30 seconds")
        }
        for transaction in try coordinator.fetchHistory(HistoryRequest(after: seenUpTo)) {
            seenUpTo = seenUpTo.merged(with: transaction.token)
            let inserted = transaction.changes.filter { $0.changeType == .insert }
                .compactMap { try? context.existingObject(with: $0.changedObjectID).string("title") }
            titles += inserted
            print("\(transaction.author ?? "someone") saved transaction \(transaction.transactionNumber): + \(inserted.joined(separator: ", "))")
        }
    }
    writer.waitUntilExit()
    guard writer.terminationStatus == 0 else { fail("the writer exited with status \(writer.terminationStatus)") }

    let expected = (1...notesToWrite).map { "Note \($0)" }
    guard titles == expected else { fail("saw \(titles), where the writer saved \(expected)") }
    let total = try context.count(for: FetchRequest(entityName: "Note"))
    guard total == notesToWrite else { fail("the store holds \(total) notes, not \(notesToWrite)") }
    print("followed \(titles.count) saves of another process; the store holds \(total) notes")
} catch {
    fail("\(error)")
}
