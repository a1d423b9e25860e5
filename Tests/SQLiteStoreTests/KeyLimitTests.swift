import Foundation
import GRDB
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Primary keys, key counters and row versions read from a file another program may have
/// written, at the largest 64-bit number.
@Suite("Numbers read from store files at their limits")
struct KeyLimitTests {
    static let types: [StoreType] = [.sqlite, .xml, .binary]

    func model() throws -> ManagedObjectModel {
        try XcodeModelFile.read(try ModelFixtures.writeModelFile(ModelFixtures.modelXML(
            #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#), name: "Notes")).current
    }

    /// A store of one note whose key is `key` and whose version is the largest, with the key
    /// counter at `key` too.
    func store(_ type: StoreType, key: Int64) throws -> URL {
        SQLiteStore.register()
        let model = try model()
        let url = try Fixtures.temporaryDirectory("limits").appendingPathComponent("Notes.\(type)")
        if type == .sqlite {
            let stack = try TestStack(model: model, type: .sqlite, url: url)
            try stack.context.insertObject(forEntityName: "Note")["text"] = "at the limit"
            try stack.context.save()
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                try db.execute(sql: "UPDATE ZNOTE SET Z_PK = ?, Z_OPT = ?", arguments: [key, Int64.max])
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ?", arguments: [key])
            }
            try queue.close()
        } else {
            let store: AtomicStore = type == .xml
                ? try XMLStore(model: model, url: url, configurationName: nil, options: StoreOptions())
                : try BinaryStore(model: model, url: url, configurationName: nil, options: StoreOptions())
            let metadata = StoreMetadata(storeType: type, versionHashes: model.entityVersionHashes, versionIdentifiers: [])
            let id = ManagedObjectID(entityName: "Note", storeIdentifier: metadata.uuid, reference: .permanent(key))
            let row = StoredRow(objectID: id, version: .max, attributes: ["text": "at the limit"])
            try store.encode(AtomicStoreContents(metadata: metadata, rows: [row], nextPrimaryKey: key)).write(to: url)
        }
        return url
    }

    @Test("a store whose key and version are the largest reads, and takes an edit; adding is refused, saying why, and loses nothing",
          arguments: types)
    func exhausted(type: StoreType) throws {
        let url = try store(type, key: .max)
        let stack = try TestStack(model: try model(), type: type, url: url)
        let note = try #require(try stack.context.fetch(FetchRequest(entityName: "Note")).first)
        #expect(note.objectID.primaryKey == .max)
        note["text"] = "edited"
        try stack.context.save()

        let added = try stack.context.insertObject(forEntityName: "Note")
        added["text"] = "one too many"
        let error = try #require(throws: ObjectGraphError.self) { try stack.context.save() }
        #expect("\(error)".contains("every primary key for Note has been used"), "\(error)")
        #expect(added.isInserted && stack.context.hasChanges, "the new note stays in memory")

        let reopened = try TestStack(model: try model(), type: type, url: url)
        let notes = try reopened.context.fetch(FetchRequest(entityName: "Note"))
        #expect(notes.compactMap { $0.string("text") } == ["edited"], "the edit was saved and nothing half-added")
        notes[0]["text"] = "edited again"
        try reopened.context.save()   // its version went round; a later save still finds it
    }

    @Test("one key left: the first object added takes the largest key, the next is refused", arguments: types)
    func lastKey(type: StoreType) throws {
        let url = try store(type, key: .max - 1)
        let stack = try TestStack(model: try model(), type: type, url: url)
        let last = try stack.context.insertObject(forEntityName: "Note")
        try stack.context.save()
        #expect(last.objectID.primaryKey == .max)
        try stack.context.insertObject(forEntityName: "Note")
        #expect(throws: ObjectGraphError.self) { try stack.context.save() }
    }

    @Test("a binary store whose counts say four billion names or objects is refused at once, without making room for them",
          arguments: [4, 8])
    func damagedCount(offsetFromEnd: Int) throws {
        let model = try model()
        let url = try Fixtures.temporaryDirectory("limits").appendingPathComponent("Notes.binary")
        let store = try BinaryStore(model: model, url: url, configurationName: nil, options: StoreOptions())
        let metadata = StoreMetadata(storeType: .binary, versionHashes: model.entityVersionHashes, versionIdentifiers: [])
        var bytes = [UInt8](try store.encode(AtomicStoreContents(metadata: metadata, rows: [], nextPrimaryKey: 1)))
        // An empty store ends with its name count and its object count, both 0.
        #expect(bytes.suffix(8) == [0, 0, 0, 0, 0, 0, 0, 0])
        bytes.replaceSubrange((bytes.count - offsetFromEnd)..<(bytes.count - offsetFromEnd + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        try Data(bytes).write(to: url)
        let coordinator = PersistentStoreCoordinator(model: model)
        let error = try #require(throws: ObjectGraphError.self) { try coordinator.addStore(type: .binary, at: url) }
        #expect("\(error)".contains("the file ends early"), "\(error)")
    }
}
