import Foundation
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// A model's fetch indexes in a SQLite store: created as Core Data creates them, used by the
/// query planner, and added to a store made without them.
@Suite("Fetch indexes in SQLite stores")
struct FetchIndexStoreTests {
    /// The CREATE INDEX statement of each named index of a file. Core Data's own store is
    /// read as immutable, so that no file appears beside it; ours through SQLite's log.
    static func indexes(_ url: URL, immutable: Bool = false) throws -> [String: String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: immutable ? "file:\(url.path)?immutable=1" : url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                .map { ($0["name"] as String, $0["sql"] as String) })
        }
    }

    @Test("a store made with SampleModel's second version has its fetch index exactly as in the store Core Data made with it")
    func asCoreDataWritesIt() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.sampleModel(version: "SampleModel2"))
        let apples = try Self.indexes(ModelFixtures.sampleStoreV2, immutable: true)
        let ours = try Self.indexes(stack.url)
        #expect(apples["Z_Car_byMakerAndNumberPlate"] == "CREATE INDEX Z_Car_byMakerAndNumberPlate ON ZCAR (ZMAKER COLLATE BINARY ASC, ZNUMBERPLATE COLLATE BINARY ASC)")
        #expect(ours["Z_Car_byMakerAndNumberPlate"] == apples["Z_Car_byMakerAndNumberPlate"])
        #expect(!ours.keys.contains { $0.contains("ZMAKER_ZNUMBERPLATE") }, "no second index of the same columns: \(ours.keys.sorted())")
    }

    @Test("a fetch by the indexed properties is planned on the fetch index, which gives the order too")
    func usedByThePlanner() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.sampleModel(version: "SampleModel2"))
        for number in 0..<200 {
            let car = try stack.context.insertObject(forEntityName: "Car")
            car["maker"] = .string(["FIAT", "Lancia", "Alfa Romeo", "Ferrari"][number % 4])
            car["numberPlate"] = .string("TO-\(number)")
        }
        try stack.context.save()
        // The maker leads the fetch index (a number plate alone has its uniqueness index).
        let request = FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "maker == %@", "FIAT"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "numberPlate")])
        let explained = try stack.context.explain(request)
        #expect(explained.plan.contains { $0.contains("Z_Car_byMakerAndNumberPlate") }, "\(explained.plan)")
        #expect(!explained.readsWholeTable && !explained.sorts && explained.rows == 50, "\(explained.lines)")
    }

    @Test("a store made without the fetch index gets it when opened to write, and is left as it is when opened read-only")
    func addedToAnExistingStore() throws {
        let model = try ModelFixtures.sampleModel(version: "SampleModel2")
        let url: URL
        do {
            url = try SQLiteTestStack(model: model).url
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "DROP INDEX Z_Car_byMakerAndNumberPlate") }
        try queue.close()

        _ = try SQLiteTestStack(model: model, url: url, options: StoreOptions(readOnly: true))
        #expect(try Self.indexes(url)["Z_Car_byMakerAndNumberPlate"] == nil, "a read-only open changed the file")
        _ = try SQLiteTestStack(model: model, url: url)
        #expect(try Self.indexes(url)["Z_Car_byMakerAndNumberPlate"] != nil)
    }
}
