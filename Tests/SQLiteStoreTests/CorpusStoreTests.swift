import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// SampleModel's stores, written by Apple's Core Data: `SampleModel_V1.sqlite` (WAL mode,
/// with no `-wal` or `-shm` file beside it) and `SampleModel_V2.sqlite` (rollback journal).
@Suite("A store written by Apple's Core Data")
struct CorpusStoreTests {
    func versionOne() throws -> ManagedObjectModel { try ModelFixtures.sampleModel(version: "SampleModel") }
    func versionTwo() throws -> ManagedObjectModel { try ModelFixtures.sampleModel(version: "SampleModel2") }

    @Test("opens with its model and reads back 125 cars of three entities and 20 people")
    func counts() throws {
        let stack = try SQLiteTestStack(model: try versionOne(), url: try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1))
        #expect(try stack.context.count(for: FetchRequest(entityName: "Car")) == 125, "a fetch of Car takes its sub-entities")
        #expect(try stack.context.count(for: FetchRequest(entityName: "SportCar")) == 10)
        #expect(try stack.context.count(for: FetchRequest(entityName: "ExpensiveSportCar")) == 5)
        #expect(try stack.context.count(for: FetchRequest(entityName: "Person")) == 20)
        #expect(stack.store.identifier == "753753D3-A961-4901-AB05-8CC48B1D3853")
        let limited = try stack.context.fetch(FetchRequest(entityName: "ExpensiveSportCar",
                                                           predicate: try ObjectPredicate(format: "isLimitedEdition == YES")))
        #expect(Set(limited.compactMap { $0.string("numberPlate") }) == ["300", "301"])
    }

    @Test("relationships read both ways: each car's owner, each person's cars")
    func relationships() throws {
        let stack = try SQLiteTestStack(model: try versionOne(), url: try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1))
        let car = try #require(try stack.context.object(forEntityName: "Car", matchingKey: "numberPlate", value: "302"))
        #expect(car.entity.name == "ExpensiveSportCar")
        let owner = try #require(car.object("owner"))
        #expect(owner.objectID.primaryKey == 11)
        #expect(owner.string("lastName") == "Pyke")
        #expect(owner.objects("cars").count == 3)
        #expect(owner.objects("cars").contains(car))
        let people = try stack.context.fetch(FetchRequest(entityName: "Person"))
        let owned = people.reduce(0) { $0 + $1.objects("cars").count }
        let orphans = try stack.context.count(for: FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "owner == nil")))
        #expect(owned == 118)
        #expect(owned + orphans == 125)
        let stone = try stack.context.fetch(FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "cars.@count > 5")))
        #expect(stone.map { $0.string("firstName") } == ["Theodora"])
    }

    @Test("a UUID and dates read back as Core Data wrote them")
    func values() throws {
        let stack = try SQLiteTestStack(model: try versionOne(), url: try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1))
        let person = try #require(try stack.context.object(forEntityName: "Person", matchingKey: "lastName", value: "Stone"))
        #expect(person["id"] == .uuid(UUID(uuidString: "1B650184-A237-47D0-A6C3-5A7605BABAD0")!))
        let updated = try #require(person.date("updatedAt"))
        #expect(abs(updated.timeIntervalSinceReferenceDate - 639_503_569.639) < 0.01)
    }

    @Test("opened read-only, a WAL-mode store is left byte for byte, with no -wal or -shm file made beside it")
    func readOnly() throws {
        // A copy, so that a failure here cannot leave files beside the repository's own.
        let original = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let folder = original.deletingLastPathComponent()
        let filesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let before = try Data(contentsOf: original)
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try versionOne())
        try coordinator.addStore(type: .sqlite, at: original, options: StoreOptions(readOnly: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        let plates = try context.fetch(FetchRequest(entityName: "Car", sortDescriptors: [ObjectSortDescriptor(key: "numberPlate")]))
            .compactMap { $0.string("numberPlate") }
        #expect(plates.count == 125)
        #expect(plates == plates.sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == filesBefore,
                "no -wal or -shm file while the store is open")
        coordinator.removeStore(coordinator.stores[0])
        #expect(try Data(contentsOf: original) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == filesBefore)
    }

    @Test("a store whose Z_PRIMARYKEY names an entity by its old name opens through the renaming identifier")
    func renamedEntity() throws {
        let stack = try SQLiteTestStack(model: try versionTwo(), url: try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2))
        let luxury = try stack.context.fetch(FetchRequest(entityName: "LuxuryCar"))
        #expect(Set(luxury.compactMap { $0.string("numberPlate") }) == ["300", "301", "302", "303", "304"])
        #expect(try stack.context.count(for: FetchRequest(entityName: "SportCar")) == 10)
    }

    @Test("opened for writing and only read, a rollback-journal copy is left byte for byte; the first save puts it in WAL mode")
    func readWithoutWriting() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        let before = try Data(contentsOf: url)
        #expect(try SQLiteTestStack.rawRows(url, "PRAGMA journal_mode").first?[0] as String? == "delete")
        do {
            let stack = try SQLiteTestStack(model: try versionTwo(), url: url)
            #expect(try stack.context.count(for: FetchRequest(entityName: "Person")) == 20)
            stack.store.close()
        }
        #expect(try Data(contentsOf: url) == before)
        let stack = try SQLiteTestStack(model: try versionTwo(), url: url)
        let person = try #require(try stack.context.object(forEntityName: "Person", matchingKey: "lastName", value: "Wade"))
        person["firstName"] = "Jerry"
        try stack.context.save()
        #expect(try stack.rawRows("PRAGMA journal_mode")[0][0] as String == "wal")
    }

    @Test("a copy takes new objects: a sub-entity's key continues from its root's Z_MAX, and the new rows read back")
    func writesToCopy() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let stack = try SQLiteTestStack(model: try versionOne(), url: url)
        let car = try stack.context.insertObject(forEntityName: "SportCar")
        car["numberPlate"] = "999"
        car["maker"] = "Zastava"
        let person = try stack.context.insertObject(forEntityName: "Person")
        person["firstName"] = "Added"
        person["lastName"] = "Here"
        person["id"] = .uuid(UUID())
        person["updatedAt"] = .date(Date())
        car["owner"] = .object(person)
        try stack.context.save()
        #expect(car.objectID.primaryKey == 126)
        #expect(person.objectID.primaryKey == 21)
        let again = try stack.reopened()
        #expect(try again.context.count(for: FetchRequest(entityName: "SportCar")) == 11)
        #expect(try again.context.count(for: FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "ANY cars.maker == 'Zastava'"))) == 1)
        let keys = try again.rawRows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { "\($0[0] as String)=\($0[1] as Int)" }
        #expect(keys == ["Car=126", "SportCar=0", "ExpensiveSportCar=0", "Person=21"])
    }

    @Test("saving to a copy leaves Apple's schema and every metadata key as they were")
    func schemaUnchanged() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        let before = try SQLiteTestStack.schemaStatements(url)
        let keysBefore = try Self.metadataKeys(url)
        let stack = try SQLiteTestStack(model: try versionOne(), url: url)
        let car = try #require(try stack.context.object(forEntityName: "Car", matchingKey: "numberPlate", value: "12"))
        car["model"] = "Carens II"
        try stack.context.save()
        stack.store.close()
        #expect(try SQLiteTestStack.schemaStatements(url) == before)
        #expect(try Self.metadataKeys(url).isSuperset(of: keysBefore))
        #expect(keysBefore.isSuperset(of: ["NSStoreType", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
                                           "NSStoreModelVersionIdentifiers", "NSPersistenceFrameworkVersion"]))
    }

    static func metadataKeys(_ url: URL) throws -> Set<String> {
        let plist = try #require(try SQLiteTestStack.rawRows(url, "SELECT Z_PLIST FROM Z_METADATA").first?[0] as Data?)
        return Set(try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]).keys)
    }

    @Test("a model that does not fit the store is refused, naming the entity")
    func wrongModel() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1)
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        #expect(throws: ObjectGraphError.self) { try coordinator.addStore(type: .sqlite, at: url) }
        let other = PersistentStoreCoordinator(model: try versionTwo())
        let error = try #require(throws: ObjectGraphError.self) { try other.addStore(type: .sqlite, at: url) }
        #expect("\(error)".contains("Car"), "\(error)")
    }
}
