import Foundation
import GRDB
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// A damaged store gets one message: the file, that it is damaged, and how to check it.
@Suite("Damaged SQLite stores")
struct DamagedStoreTests {
    /// A saved store of 300 items with long names, over several pages.
    func store() throws -> URL {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        for n in 0..<300 { try stack.context.insertObject(forEntityName: "ToDo")["name"] = .string("item \(n) " + String(repeating: "x", count: 200)) }
        try stack.context.save()
        for store in stack.coordinator.stores { stack.coordinator.removeStore(store) }
        return stack.url
    }

    func open(_ url: URL) throws -> ManagedObjectContext {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        try coordinator.addStore(type: .sqlite, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    func expectDamaged(_ error: any Error, _ url: URL, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case ObjectGraphError.storeDamaged(let file, let said) = error else {
            Issue.record("not reported as damaged: \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(file == url.path, sourceLocation: sourceLocation)
        #expect(said.contains(detail), "\(said)", sourceLocation: sourceLocation)
        #expect("\(error)".contains("PRAGMA integrity_check"), sourceLocation: sourceLocation)
    }

    @Test("pages overwritten in the middle: the fetch that reads them says the file is damaged")
    func corruptPages() throws {
        let url = try store()
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 8_192)
        try handle.write(contentsOf: Data(repeating: 0x47, count: 12_000))
        try handle.close()
        do {
            let context = try open(url)
            _ = try context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
                .map { $0.string("name") }
            Issue.record("the damage went unnoticed")
        } catch {
            expectDamaged(error, url, "malformed")
        }
    }

    @Test("a file cut short is damaged, not 'cannot open'")
    func truncated() throws {
        let url = try store()
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(10_000).write(to: url)
        let error = try #require(throws: (any Error).self) {
            let context = try open(url)
            _ = try context.count(for: FetchRequest(entityName: "ToDo"))
        }
        expectDamaged(error, url, "malformed")
    }

    @Test("Z_PRIMARYKEY missing an entity the metadata says the store holds is damage, not another model version")
    func entityTableLosesRows() throws {
        let url = try store()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'ToDo'") }
        let error = try #require(throws: ObjectGraphError.self) { try open(url) }
        expectDamaged(error, url, "Z_PRIMARYKEY lacks ToDo")
    }

    @Test("metadata that is no property list is damage, named with the file, when opened and when only its metadata is read")
    func unreadableMetadata() throws {
        let url = try store()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = X'0001020304'") }
        let opening = try #require(throws: ObjectGraphError.self) { try open(url) }
        expectDamaged(opening, url, "not a property list")
        let reading = try #require(throws: ObjectGraphError.self) { try PersistentStoreCoordinator.metadataForStore(ofType: .sqlite, at: url) }
        expectDamaged(reading, url, "not a property list")
        #expect(!"\(reading)".contains("NSCocoaErrorDomain"))
    }

    @Test("a file name longer than the file system allows is refused, saying so, and leaves no file")
    func nameTooLong() throws {
        let folder = try Fixtures.temporaryDirectory("long-name")
        let url = folder.appendingPathComponent(String(repeating: "a", count: 300) + ".sqlite")
        let error = try #require(throws: ObjectGraphError.self) { try open(url) }
        #expect("\(error)".contains("the file name is 307 bytes long, more than the file system allows (255)"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("a name the file system takes but its journal's name would not (255 bytes) is refused before a file is made; 247 bytes opens",
          arguments: [255, 248, 247])
    func nameWithoutRoomForTheJournal(_ length: Int) throws {
        let folder = try Fixtures.temporaryDirectory("journal-name")
        let url = folder.appendingPathComponent(String(repeating: "b", count: length - 7) + ".sqlite")
        if length > 247 {
            let error = try #require(throws: ObjectGraphError.self) { try open(url) }
            #expect("\(error)".contains("the file name is \(length) bytes long; SQLite keeps a file beside it named so with \"-journal\" added"), "\(error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no empty file is left")
        } else {
            #expect(try open(url).count(for: FetchRequest(entityName: "ToDo")) == 0)
            #expect(FileManager.default.fileExists(atPath: url.path))
        }
    }
}
