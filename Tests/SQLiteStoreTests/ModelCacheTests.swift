import Foundation
import GRDB
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// The model Apple's Core Data caches in its stores (`Z_MODELCACHE`), read from the
/// SampleModel stores it wrote.
@Suite("The model a store caches of itself")
struct ModelCacheTests {
    /// A model without the classes its entities name.
    private func withoutClassNames(_ model: ManagedObjectModel) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: model.entityDescriptions.map { entity in
            var e = entity
            e.className = nil
            return e
        }, fetchRequestTemplates: model.fetchRequestTemplates, configurations: model.configurations,
           versionIdentifier: model.versionIdentifier)
    }

    @Test("each store's cache is the version it was written with, as its source describes it",
          arguments: [(ModelFixtures.sampleStoreV1, "SampleModel"), (ModelFixtures.sampleStoreV2, "SampleModel2")])
    func cacheMatchesSource(store: URL, version: String) throws {
        let cached = try #require(try SQLiteStore.cachedModel(at: Fixtures.copyOfCorpusFile(store)))
        let source = try withoutClassNames(try ModelFixtures.sampleModel(version: version))
        // Caches often name no classes (SampleModel_V2's does not; V1's does).
        let found = ModelComparison.differences(try ModelComparison.semantic(try withoutClassNames(cached)),
                                                try ModelComparison.semantic(source))
        #expect(found == [], "\(found)")
        // The cache repeats inherited properties on sub-entities; the model declares each once.
        #expect(cached.entity(named: "SportCar")?.declaration.attributes.isEmpty == true)
        #expect(cached.entity(named: "SportCar")?.attribute(named: "numberPlate")?.isOptional == false)
    }

    @Test("a store opens on its cached model and reads as with its source, leaving the file byte for byte")
    func opensOnItsCache() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let before = try Data(contentsOf: url)
        let model = try #require(try SQLiteStore.cachedModel(at: url))
        var options = StoreOptions()
        options.readOnly = true
        let stack = try SQLiteTestStack(model: model, url: url, options: options)
        // Counts as sqlite3 gives them: SELECT COUNT(*) FROM ZCAR; ... WHERE Z_ENT = 3; FROM ZPERSON.
        #expect(try stack.context.count(for: FetchRequest(entityName: "Car")) == 125)
        #expect(try stack.context.count(for: FetchRequest(entityName: "ExpensiveSportCar")) == 5)
        #expect(try stack.context.count(for: FetchRequest(entityName: "Person")) == 20)
        let car = try #require(try stack.context.object(forEntityName: "Car", matchingKey: "numberPlate", value: "302"))
        #expect(car.object("owner")?.string("lastName") == "Pyke")
        stack.coordinator.removeStore(stack.store)
        #expect(try Data(contentsOf: url) == before)
        let beside = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(beside == [url.lastPathComponent])
    }

    @Test("a store with no cache gives none: a store written here, and Core Data's empty table")
    func noCache() throws {
        let folder = try Fixtures.temporaryDirectory("cache")
        let own = folder.appendingPathComponent("Own.sqlite")
        let stack = try SQLiteTestStack(model: try ModelFixtures.sampleModel(), url: own)
        stack.coordinator.removeStore(stack.store)
        #expect(try SQLiteStore.cachedModel(at: own) == nil)
        let emptied = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        let queue = try DatabaseQueue(path: emptied.path)
        try queue.write { try $0.execute(sql: "DELETE FROM Z_MODELCACHE") }
        try queue.close()
        #expect(try SQLiteStore.cachedModel(at: emptied) == nil)
    }

    @Test("a damaged cache is refused naming the store and the table, not read")
    func damagedCache() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        let queue = try DatabaseQueue(path: url.path)
        // A valid DEFLATE stream cut short, then bytes that are not DEFLATE at all.
        let blob = try queue.read { try Data.fetchOne($0, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") }!
        try queue.write { try $0.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = ?", arguments: [blob.prefix(blob.count / 2)]) }
        do {
            _ = try SQLiteStore.cachedModel(at: url)
            Issue.record("a cut cache was read")
        } catch let error as ModelError {
            #expect(error.file == "\(url.path) (Z_MODELCACHE)")
            #expect(error.message.contains("ends before its last block"), "\(error)")
        }
        try queue.write { try $0.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = x'FFFFFFFF'") }
        try queue.close()
        #expect(throws: ModelError.self) { try SQLiteStore.cachedModel(at: url) }
    }
}
