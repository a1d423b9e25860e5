import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

/// The delete-rule paragraph of the programming guide excerpt, rule by rule.
@Suite("Delete rules")
struct DeleteRuleTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws { stack = try TestStack(model: try ModelFixtures.companyModel()) }

    func employee(_ name: String, in dept: ManagedObject? = nil) throws -> ManagedObject {
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = .string(name)
        if let dept { e["department"] = .object(dept) }
        return e
    }

    func department(_ name: String) throws -> ManagedObject {
        let d = try context.insertObject(forEntityName: "Department")
        d["name"] = .string(name)
        return d
    }

    @Test("Nullify removes the deleted object from its destinations, which survive")
    func nullify() throws {
        let dept = try department("Ops")
        let ada = try employee("Ada", in: dept)
        try context.save()
        context.delete(ada)
        #expect(ada.isDeleted)
        context.processPendingChanges()
        #expect(dept.objects("employees").isEmpty)
        #expect(!dept.isDeleted)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Department")) == 1)
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 0)
    }

    @Test("Cascade deletes the destinations too, and theirs in turn")
    func cascade() throws {
        let dept = try department("Ops")
        let ada = try employee("Ada", in: dept)
        let badge = try context.insertObject(forEntityName: "Badge")
        badge["code"] = "AB123"
        ada["badge"] = .object(badge)
        try context.save()
        context.delete(dept)
        context.processPendingChanges()
        #expect(ada.isDeleted, "Department.employees cascades")
        #expect(badge.isDeleted, "Employee.badge cascades in turn")
        try context.save()
        for entity in ["Department", "Employee", "Badge"] {
            #expect(try context.count(for: FetchRequest(entityName: entity)) == 0)
        }
    }

    @Test("Deny refuses the save while the relationship holds objects, naming both")
    func deny() throws {
        let dept = try department("Ops")
        let project = try context.insertObject(forEntityName: "Project")
        project["name"] = "Apollo"
        project["department"] = .object(dept)
        try context.save()
        context.delete(dept)
        do {
            try context.save()
            Issue.record("the save should fail")
        } catch let error as ValidationError {
            let failure = try #require(error.failures.first { $0.code == .relationshipDeniedDelete })
            #expect(failure.object === dept)
            #expect(failure.key == "projects")
            #expect(failure.description.contains("Department"))
            #expect(failure.description.contains("Project \(project.objectID)"))
        }
        #expect(dept.isDeleted, "the user's delete stays pending")
        #expect(try stack.newContext().count(for: FetchRequest(entityName: "Department")) == 1, "the store is unchanged")
        // Removing the destination first lets the delete through.
        context.rollback()
        context.delete(project)
        context.delete(dept)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Department")) == 0)
    }

    @Test("a to-one Deny refuses too when the object is deleted as a fault, its destination not yet read", arguments: [false, true])
    func denyToOneOnAFault(undo: Bool) throws {
        let url = try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Locker" syncable="YES">
                <attribute name="number" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
                <relationship name="key" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Key" inverseName="locker" inverseEntity="Key"/>
            </entity>
            <entity name="Key" syncable="YES">
                <attribute name="code" optional="YES" attributeType="String"/>
                <relationship name="locker" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Locker" inverseName="key" inverseEntity="Locker"/>
            </entity>
            """), name: "Lockers")
        let lockers = try TestStack(model: try XcodeModelFile.read(url).current)
        let locker = try lockers.context.insertObject(forEntityName: "Locker")
        locker["key"] = .object(try lockers.context.insertObject(forEntityName: "Key"))
        try lockers.context.save()

        let other = lockers.newContext()
        if undo { other.undoManager = UndoStack() }
        let fault = other.object(with: locker.objectID)
        #expect(fault.isFault)
        other.delete(fault)
        #expect(throws: ValidationError.self, "the key still hangs in the locker") { try other.save() }
        #expect(try lockers.newContext().count(for: FetchRequest(entityName: "Locker")) == 1)
    }

    @Test("No Action leaves the destinations pointing at the deleted object")
    func noAction() throws {
        let ada = try employee("Ada")
        let note = try context.insertObject(forEntityName: "Note")
        note["text"] = "remember"
        note["author"] = .object(ada)
        try context.save()
        context.delete(ada)
        context.processPendingChanges()
        #expect(note.object("author") === ada, "no action: the application must repair the graph")
        #expect(!note.isUpdated)
    }

    @Test("Nullify can leave a destination invalid when its inverse is required")
    func nullifyLeavesRequiredInverseEmpty() throws {
        let dept = try department("Ops")
        let project = try context.insertObject(forEntityName: "Project")
        project["name"] = "Apollo"
        project["department"] = .object(dept)
        try context.save()
        try dept.remove(project, fromRelationship: "projects")
        #expect(throws: ValidationError.self) { try context.save() }
    }

    @Test("deleting posts objects-did-change with the deleted object")
    func notification() throws {
        let ada = try employee("Ada")
        try context.save()
        var deleted: [ManagedObject] = []
        let observation = context.observe { note in
            if case .objectsDidChange(let changes) = note { deleted += changes.deleted }
        }
        defer { observation.cancel() }
        context.delete(ada)
        context.processPendingChanges()
        #expect(deleted == [ada])
    }

    @Test("an object inserted and deleted before a save is in neither deletedObjects nor the did-save")
    func insertedThenDeleted() throws {
        let ada = try employee("Ada")
        var saved: ContextDidSave?
        let observation = context.observe { note in if case .didSave(let s) = note { saved = s } }
        defer { observation.cancel() }
        context.delete(ada)
        #expect(!context.deletedObjects.contains(ada))
        #expect(!context.insertedObjects.contains(ada))
        let kept = try employee("Bob")
        try context.save()
        #expect(saved?.deleted.isEmpty == true)
        #expect(saved?.inserted == [kept.objectID])
    }
}
