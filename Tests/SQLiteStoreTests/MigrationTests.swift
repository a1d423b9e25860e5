import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

@Suite("Migrating stores to and from SQLite")
struct MigrationTests {
    /// Every employee with department, projects and notes, as text, to compare stores.
    func summary(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch(FetchRequest(entityName: "Employee", sortDescriptors: [ObjectSortDescriptor(key: "name")])).map { e in
            let projects = e.objects("projects").compactMap { $0.string("name") }.sorted().joined(separator: "+")
            let notes = e.objects("notes").compactMap { $0.string("text") }.sorted().joined(separator: "+")
            let hired = e.date("hired").map { "\($0.timeIntervalSinceReferenceDate)" } ?? "-"
            return "\(e.string("name")!) \(e.int("salary")!) \(hired) \(e.object("department")?.string("name") ?? "-") [\(projects)] [\(notes)]"
        }
    }

    @Test("SQLite to XML to binary and back to SQLite keeps every object and relationship", arguments: [StoreType.xml, .binary])
    func roundTrip(_ middle: StoreType) throws {
        let model = try ModelFixtures.companyModel()
        let stack = try SQLiteTestStack(model: model)
        try CompanyFixture.fill(stack.context)
        let before = try summary(stack.newContext())
        #expect(before.count == 5)
        let dir = try Fixtures.temporaryDirectory("migrate")
        let other = try stack.coordinator.migrateStore(stack.coordinator.stores[0], to: dir.appendingPathComponent("Store.other"), type: middle)
        #expect(other.type == middle)
        #expect(try summary(ManagedObjectContext(coordinator: stack.coordinator)) == before)
        let back = try stack.coordinator.migrateStore(other, to: dir.appendingPathComponent("Back.sqlite"), type: .sqlite)
        #expect(back.type == .sqlite)
        #expect(try summary(ManagedObjectContext(coordinator: stack.coordinator)) == before)
        let reopened = try SQLiteTestStack(model: model, url: dir.appendingPathComponent("Back.sqlite"))
        #expect(try summary(reopened.context) == before)
        #expect(try reopened.rawRows("SELECT COUNT(*) FROM Z_3PROJECTS")[0][0] as Int == 4)
    }

    @Test("an Apple-written store migrates to XML with all 145 objects and their relationships")
    func corpusToXML() throws {
        let model = try ModelFixtures.sampleModel(version: "SampleModel")
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = try coordinator.addStore(type: .sqlite, at: try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV1),
                                             options: StoreOptions(readOnly: true))
        let url = try Fixtures.temporaryDirectory("migrate").appendingPathComponent("Model.xml")
        try coordinator.migrateStore(store, to: url, type: .xml)
        let xml = PersistentStoreCoordinator(model: model)
        try xml.addStore(type: .xml, at: url)
        let context = ManagedObjectContext(coordinator: xml)
        #expect(try context.count(for: FetchRequest(entityName: "Car")) == 125)
        #expect(try context.count(for: FetchRequest(entityName: "ExpensiveSportCar")) == 5)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 20)
        let car = try #require(try context.object(forEntityName: "Car", matchingKey: "numberPlate", value: "302"))
        #expect(car.entity.name == "ExpensiveSportCar")
        #expect(car.object("owner")?.string("lastName") == "Pyke")
        #expect(try context.count(for: FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "owner != nil"))) == 118)
    }
}
