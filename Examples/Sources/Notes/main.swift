// Notes: a program that keeps notes in a Core Data SQLite store through TermData.
//
//     swift run --package-path Examples Notes [STORE.sqlite]
//
// It reads its model from its own resources, opens (or makes) the store, adds three notes to
// an Inbox folder, saves, then opens the file again in a new container and fetches the pinned
// ones with a predicate. It exits with status 1 if what it reads back is not what it wrote.
import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Notes: \(message)\n".utf8))
    exit(1)
}

// The store: the file named on the command line, else a new one in the temporary folder.
let storeURL = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("Notes-\(UUID().uuidString).sqlite")

guard let modelURL = Bundle.module.url(forResource: "Notes", withExtension: "xcdatamodeld") else {
    fail("the model Notes.xcdatamodeld is missing from the program's resources")
}

/// A container over the Notes model with one SQLite store at `storeURL`.
func openContainer() throws -> PersistentContainer {
    let model = try XcodeModelFile.read(modelURL).current
    let container = PersistentContainer(name: "Notes", model: model,
                                        storeDescriptions: [.init(type: .sqlite, url: storeURL)])
    try container.loadPersistentStores()
    return container
}

do {
    // Once per program: `addStore(type: .sqlite, …)` and store descriptions of type .sqlite open SQLite files.
    SQLiteStore.register()

    let container = try openContainer()
    let context = container.viewContext
    let inbox = try context.fetch(FetchRequest(entityName: "Folder", predicate: try ObjectPredicate(format: "name == %@", "Inbox"))).first
        ?? (try context.insertObject(forEntityName: "Folder"))
    inbox["name"] = "Inbox"
    let written = [("Book the train", true), ("Water the ferns", false), ("Call Ada about Tuesday", true)]
    for (title, pinned) in written {
        let note = try context.insertObject(forEntityName: "Note")
        note["title"] = .string(title)
        note["pinned"] = .bool(pinned)
        note["created"] = .date(Date())
        note["folder"] = .object(inbox)
    }
    try context.save()
    print("saved \(written.count) notes to \(storeURL.path)")

    // A new container over the same file: what was saved is what is read.
    let reopened = try openContainer().viewContext
    let pinned = try reopened.fetch(FetchRequest(
        entityName: "Note",
        predicate: try ObjectPredicate(format: "pinned == YES AND folder.name == %@ AND title BEGINSWITH[c] %@", "Inbox", "c"),
        sortDescriptors: [ObjectSortDescriptor(key: "title")]))
    let titles = pinned.compactMap { $0.string("title") }
    print("pinned in Inbox, starting with c: \(titles.joined(separator: ", "))")
    guard titles.contains("Call Ada about Tuesday"), !titles.contains("Water the ferns"), !titles.contains("Book the train") else {
        fail("read back \(titles), not the pinned note written")
    }
    let total = try reopened.count(for: FetchRequest(entityName: "Note"))
    print("\(total) notes in the store")
} catch {
    fail("\(error)")
}
