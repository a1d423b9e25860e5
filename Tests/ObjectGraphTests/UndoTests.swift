import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Undo and redo")
struct UndoTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws {
        stack = try TestStack(model: try ModelFixtures.companyModel())
        stack.context.undoManager = UndoStack()
    }

    @Test("undo reverts one event's changes, redo applies them again")
    func valueChanges() throws {
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        try context.save()
        e["name"] = "Ada Lovelace"
        e["salary"] = 100
        context.processPendingChanges()
        e["salary"] = 200
        context.processPendingChanges()
        context.undo()
        #expect(e.int("salary") == 100 && e.string("name") == "Ada Lovelace")
        context.undo()
        #expect(e.int("salary") == 0 && e.string("name") == "Ada")
        #expect(!context.hasChanges, "back to the saved state")
        context.redo()
        #expect(e.string("name") == "Ada Lovelace" && e.int("salary") == 100)
        #expect(context.hasChanges)
    }

    @Test("undoing an insert removes the object; redo brings it back")
    func insertion() throws {
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        context.processPendingChanges()
        context.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(!context.hasChanges)
        context.redo()
        #expect(context.insertedObjects == [e])
        #expect(e.string("name") == "Ada")
    }

    @Test("undoing a delete restores the object and the relationships its rules nullified")
    func deletion() throws {
        let d = try context.insertObject(forEntityName: "Department")
        d["name"] = "Ops"
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        e["department"] = .object(d)
        try context.save()
        context.undoManager?.removeAllActions()
        context.delete(e)
        context.processPendingChanges()
        #expect(d.objects("employees").isEmpty)
        context.undo()
        #expect(!e.isDeleted)
        #expect(d.objects("employees") == [e])
        #expect(e.object("department") === d)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 1)
    }

    @Test("undoing the delete of a playlist puts its songs back in their order; redo empties it again")
    func orderedDeletion() throws {
        let xml = ModelFixtures.modelXML("""
            <entity name="Playlist" representedClassName="Playlist">
                <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Track" inverseName="playlist" inverseEntity="Track"/>
            </entity>
            <entity name="Track" representedClassName="Track">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
            </entity>
            """)
        let stack = try TestStack(model: try XcodeModelFile.read(try ModelFixtures.writeModelFile(xml, name: "Music")).current)
        let context = stack.context
        context.undoManager = UndoStack()
        let list = try context.insertObject(forEntityName: "Playlist")
        let titles = (1...6).map { "Track \($0)" }
        for title in titles.shuffled() {
            let track = try context.insertObject(forEntityName: "Track")
            track["title"] = .string(title)
        }
        let tracks = try context.fetch(FetchRequest(entityName: "Track", sortDescriptors: [ObjectSortDescriptor(key: "title", ascending: false)]))
        for track in tracks { try list.add(track, toRelationship: "songs") }
        try context.save()
        context.undoManager?.removeAllActions()
        context.delete(list)
        context.processPendingChanges()
        #expect(tracks.allSatisfy { $0.object("playlist") == nil })
        context.undo()
        #expect(list.objects("songs").compactMap { $0.string("title") } == titles.reversed())
        #expect(tracks.allSatisfy { $0.object("playlist") === list })
        #expect(!context.hasChanges)
        context.redo()
        #expect(list.isDeleted && tracks.allSatisfy { $0.object("playlist") == nil })
    }

    @Test("explicit groups undo together and carry an action name")
    func groups() throws {
        let undo = try #require(context.undoManager)
        undo.groupsByEvent = false
        undo.beginUndoGrouping()
        undo.setActionName("Add Two")
        let a = try context.insertObject(forEntityName: "Employee")
        a["name"] = "A"
        context.processPendingChanges()
        let b = try context.insertObject(forEntityName: "Employee")
        b["name"] = "B"
        undo.endUndoGrouping()
        #expect(undo.undoActionName == "Add Two")
        context.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(undo.redoActionName == "Add Two")
    }

    @Test("changes made with registration disabled are not undone")
    func disabled() throws {
        let undo = try #require(context.undoManager)
        let e = try context.insertObject(forEntityName: "Employee")
        context.processPendingChanges()
        undo.disableUndoRegistration()
        e["name"] = "Quiet"
        context.processPendingChanges()
        undo.enableUndoRegistration()
        #expect(undo.canUndo)
        context.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(!undo.canUndo)
    }

    @Test("without an undo manager nothing is recorded, and rollback still works")
    func rollbackWithoutUndo() throws {
        context.undoManager = nil
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        try context.save()
        e["name"] = "Changed"
        let extra = try context.insertObject(forEntityName: "Employee")
        context.delete(e)
        context.rollback()
        #expect(e.string("name") == "Ada" && !e.isDeleted)
        #expect(!extra.isValid)
        #expect(!context.hasChanges)
    }
}
