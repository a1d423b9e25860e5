import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("A store written by Apple's Core Data")
struct CorpusStoreTests {
    /// A copy of the corpus store in a temporary folder, so the original is never written.
    func copyOfStore() throws -> URL {
        let url = try Fixtures.temporaryDirectory("corpus").appendingPathComponent("Model.sqlite")
        try FileManager.default.copyItem(at: Fixtures.corpusFile("tavant-trade/Model.sqlite"), to: url)
        return url
    }

    func tavantModel() throws -> ManagedObjectModel { try XcodeModelFile.read(ModelFixtures.tavantTrade).current }

    @Test("opens with its model and reads back 19 categories and 79 sub-categories")
    func counts() throws {
        let stack = try SQLiteTestStack(model: try tavantModel(), url: try copyOfStore())
        #expect(try stack.context.count(for: FetchRequest(entityName: "FeedbackCategory")) == 19)
        #expect(try stack.context.count(for: FetchRequest(entityName: "FeedbackSubCategory")) == 79)
        #expect(stack.store.identifier == "78FAC3F0-BB06-4113-9B0E-4D5E0B18F00D")
    }

    @Test("relationships read both ways: each sub-category's category, each category's sub-categories")
    func relationships() throws {
        let stack = try SQLiteTestStack(model: try tavantModel(), url: try copyOfStore())
        let first = try #require(try stack.context.fetch(FetchRequest(
            entityName: "FeedbackSubCategory", predicate: try ObjectPredicate(format: "name == %@", "Discrepancy in limits"))).first)
        let category = try #require(first.object("category"))
        #expect(category.objectID.primaryKey == 15)
        #expect(category.objects("subcategory").contains(first))
        let categories = try stack.context.fetch(FetchRequest(entityName: "FeedbackCategory"))
        let total = categories.reduce(0) { $0 + $1.objects("subcategory").count }
        let orphans = try stack.context.count(for: FetchRequest(entityName: "FeedbackSubCategory",
                                                                predicate: try ObjectPredicate(format: "category == nil")))
        #expect(total + orphans == 79)
        #expect(try stack.context.count(for: FetchRequest(entityName: "FeedbackCategory",
                                                          predicate: try ObjectPredicate(format: "subcategory.@count > 0"))) > 0)
    }

    @Test("opens read-only in place without writing the file")
    func readOnly() throws {
        let original = Fixtures.corpusFile("tavant-trade/Model.sqlite")
        let before = try Data(contentsOf: original)
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try tavantModel())
        try coordinator.addStore(type: .sqlite, at: original, options: StoreOptions(readOnly: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        let names = try context.fetch(FetchRequest(entityName: "FeedbackCategory",
                                                   sortDescriptors: [ObjectSortDescriptor(key: "name")])).compactMap { $0.string("name") }
        #expect(names.count == 19)
        #expect(names == names.sorted())
        coordinator.removeStore(coordinator.stores[0])
        #expect(try Data(contentsOf: original) == before)
    }

    @Test("opened for writing and only read, a copy is left byte for byte; the first save puts it in WAL mode")
    func readWithoutWriting() throws {
        let url = try copyOfStore()
        let before = try Data(contentsOf: url)
        #expect(try SQLiteTestStack.rawRows(url, "PRAGMA journal_mode").first?[0] as String? == "delete")
        do {
            let stack = try SQLiteTestStack(model: try tavantModel(), url: url)
            #expect(try stack.context.count(for: FetchRequest(entityName: "FeedbackCategory")) == 19)
            stack.store.close()
        }
        #expect(try Data(contentsOf: url) == before)
        let stack = try SQLiteTestStack(model: try tavantModel(), url: url)
        let category = try stack.context.insertObject(forEntityName: "FeedbackCategory")
        category["name"] = "Added here"
        try stack.context.save()
        #expect(try stack.rawRows("PRAGMA journal_mode")[0][0] as String == "wal")
    }

    @Test("a copy takes new objects: keys continue from Z_MAX and the new rows read back")
    func writesToCopy() throws {
        let url = try copyOfStore()
        let stack = try SQLiteTestStack(model: try tavantModel(), url: url)
        let category = try stack.context.insertObject(forEntityName: "FeedbackCategory")
        category["name"] = "Added here"
        try stack.context.save()
        #expect(category.objectID.primaryKey == 20)
        let again = try stack.reopened()
        #expect(try again.context.count(for: FetchRequest(entityName: "FeedbackCategory")) == 20)
        #expect(try again.rawRows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'FeedbackCategory'").first?[0] as Int? == 20)
    }

    @Test("saving to a copy leaves Apple's schema and metadata keys as they were")
    func schemaUnchanged() throws {
        let url = try copyOfStore()
        let before = try SQLiteTestStack.schemaStatements(url)
        let stack = try SQLiteTestStack(model: try tavantModel(), url: url)
        let sub = try #require(try stack.context.object(forEntityName: "FeedbackCategory", matchingKey: "name", value: "Others"))
        sub["name"] = "Other matters"
        try stack.context.save()
        stack.store.close()
        #expect(try SQLiteTestStack.schemaStatements(url) == before)
        let plist = try #require(try SQLiteTestStack.rawRows(url, "SELECT Z_PLIST FROM Z_METADATA").first?[0] as Data?)
        let keys = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]).keys
        #expect(Set(keys).isSuperset(of: ["NSStoreType", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
                                           "NSStoreModelVersionIdentifiers", "NSPersistenceFrameworkVersion"]))
    }

    @Test("a model that does not fit the store is refused, naming the entity")
    func wrongModel() throws {
        let url = try copyOfStore()
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        #expect(throws: ObjectGraphError.self) { try coordinator.addStore(type: .sqlite, at: url) }
    }
}
