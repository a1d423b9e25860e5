import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

/// What the next save will write, listed change by change, and one change taken back.
@Suite("Unsaved changes")
struct UnsavedChangesTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws {
        stack = try TestStack(model: try ModelFixtures.companyModel())
        stack.context.undoManager = UndoStack()
        try CompanyFixture.fill(stack.context)
    }

    func one(_ entity: String, _ name: String, key: String = "name") throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: entity)).first { $0.string(key) == name })
    }

    /// A change as "kind Entity name.key: old → new", names standing for objects.
    func text(_ change: UnsavedChange) -> String {
        func name(_ object: ManagedObject) -> String {
            let key = ["name", "text"].first { object.entity.attribute(named: $0) != nil }
            return key.flatMap { object.string($0) } ?? object.entity.name
        }
        func value(_ value: ObjectValue?) -> String {
            guard let value else { return "(as saved)" }
            if let object = value.objectReference as? ManagedObject { return name(object) }
            if let elements = value.collectionElements {
                return "[" + elements.compactMap { ($0.objectReference as? ManagedObject).map(name) }.sorted().joined(separator: ",") + "]"
            }
            return value == .null ? "nil" : value.intValue.map(String.init) ?? "\(value)"
        }
        let subject = "\(change.object.entity.name) \(name(change.object))"
        switch change.kind {
        case .inserted: return "inserted \(subject)"
        case .deleted: return "deleted \(subject)"
        case .updated: return "updated \(subject).\(change.key ?? ""): \(value(change.oldValue)) → \(value(change.newValue))"
        }
    }

    @Test("inserts, then each changed key with its saved and its present value, then deletes with what their rules did")
    func listsEveryChange() throws {
        let ada = try one("Employee", "Ada"), bob = try one("Employee", "Bob")
        let engineering = try one("Department", "Engineering"), sales = try one("Department", "Sales")
        // Read before they change: their saved members are known.
        _ = engineering.objects("employees")
        _ = sales.objects("employees")
        ada["salary"] = 130_000
        bob["department"] = .object(engineering)
        let fay = try context.insertObject(forEntityName: "Employee")
        fay["name"] = "Fay"
        context.delete(try one("Note", "new", key: "text"))

        let changes = context.unsavedChanges().map(text)
        #expect(changes.first == "inserted Employee Fay")
        #expect(changes.last == "deleted Note new")
        #expect(Set(changes.dropFirst().dropLast()) == [
            "updated Employee Ada.salary: 120000 → 130000",
            "updated Employee Bob.department: Sales → Engineering",
            "updated Employee Bob.notes: [new] → []",
            "updated Department Engineering.employees: [Ada,Cécile] → [Ada,Bob,Cécile]",
            "updated Department Sales.employees: [Bob,Émile] → [Émile]",
        ], "\(changes)")
        // One line per changed key, in the entity's order of properties.
        #expect(context.unsavedChanges().filter { $0.object === bob }.map(\.key) == ["department", "notes"])
        #expect(bob.hasUnsavedValue(forKey: "department") && !bob.hasUnsavedValue(forKey: "name"))
        #expect(fay.hasUnsavedValue(forKey: "name") && fay.hasUnsavedValue(forKey: "salary"), "every key of a new object")
    }

    @Test("reverting a value gives it its saved value, the inverse following; the other changes stay, and undo takes the revert back")
    func revertsOneValue() throws {
        let ada = try one("Employee", "Ada"), bob = try one("Employee", "Bob")
        let engineering = try one("Department", "Engineering")
        ada["salary"] = 130_000
        bob["department"] = .object(engineering)
        let move = try #require(context.unsavedChanges().first { $0.object === bob && $0.key == "department" })

        try context.revert(move)
        #expect(bob.object("department")?.string("name") == "Sales")
        #expect(!engineering.objects("employees").contains(bob))
        #expect(context.unsavedChanges().map(text) == ["updated Employee Ada.salary: 120000 → 130000"],
                "the departments' lists are as saved again")

        context.undo()
        #expect(bob.object("department") === engineering)
        #expect(context.unsavedChanges().count == 4)
    }

    @Test("reverting a delete brings the object back with what Nullify cleared; objects deleted with it stay deleted")
    func revertsADelete() throws {
        let ada = try one("Employee", "Ada"), engineering = try one("Department", "Engineering")
        let compiler = try one("Project", "Compiler")
        let badge = try CompanyFixture.addBadge(for: "Ada", in: context)

        context.delete(ada)
        context.processPendingChanges()
        #expect(badge.isDeleted, "by Cascade")
        #expect(!compiler.objects("members").contains(ada) && !engineering.objects("employees").contains(ada))
        let deleted = try #require(context.unsavedChanges().first { $0.object === ada })
        #expect(deleted.kind == .deleted)

        try context.revert(deleted)
        #expect(!ada.isDeleted)
        #expect(ada.object("department") === engineering && engineering.objects("employees").contains(ada))
        #expect(Set(ada.objects("projects").compactMap { $0.string("name") }) == ["Compiler", "Database"])
        #expect(compiler.objects("members").contains(ada))
        #expect(ada.object("badge") == nil && badge.isDeleted, "the badge's own delete is a change of its own")
        #expect(context.unsavedChanges().map(text) == ["updated Employee Ada.badge: Badge → nil", "deleted Badge Badge"])

        context.undo()
        #expect(ada.isDeleted && !compiler.objects("members").contains(ada))
    }

    @Test("reverting an insert discards the new object; a change already saved is no longer there to revert")
    func revertsAnInsert() throws {
        let fay = try context.insertObject(forEntityName: "Employee")
        fay["name"] = "Fay"
        let added = try #require(context.unsavedChanges().first)
        try context.revert(added)
        #expect(!context.hasChanges)
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 5)

        let ada = try one("Employee", "Ada")
        ada["salary"] = 1
        let change = try #require(context.unsavedChanges().first)
        try context.save()
        try context.revert(change)
        #expect(ada.int("salary") == 1, "saved: nothing to take back")
    }
}
