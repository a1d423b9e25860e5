import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import TestSupport

/// Undo and redo reach back past a save: what they change is saved against the store as it
/// is now, not as it was when the change was made.
@Suite("Undo across a save")
struct UndoAcrossSaveTests {
    let stack: SQLiteTestStack
    var context: ManagedObjectContext { stack.context }

    init() throws {
        stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        stack.context.undoManager = UndoStack()
    }

    func storedNames(_ table: String) throws -> [String] {
        try stack.rawRows("SELECT ZNAME FROM \(table) ORDER BY ZNAME").map { $0["ZNAME"] ?? "" }
    }

    func insertDepartment(_ name: String) throws -> ManagedObject {
        let d = try context.insertObject(forEntityName: "Department")
        d["name"] = .string(name)
        context.processPendingChanges()
        return d
    }

    @Test("an insert undone after its save is deleted at the next save, and redone it is saved once")
    func insertUndoneAfterSave() throws {
        _ = try insertDepartment("Ops")
        let lab = try insertDepartment("Lab")
        try context.save()
        context.undo()
        #expect(lab.isDeleted, "the saved object is deleted, not forgotten")
        #expect(context.hasChanges)
        try context.save()
        #expect(try storedNames("ZDEPARTMENT") == ["Ops"])
        context.redo()
        #expect(lab.isInserted && lab.string("name") == "Lab")
        try context.save()
        #expect(try storedNames("ZDEPARTMENT") == ["Lab", "Ops"])
    }

    @Test("undoing everything after a save, redoing it all and saving again leaves each object once")
    func undoAllRedoAll() throws {
        _ = try insertDepartment("Ops")
        _ = try insertDepartment("Lab")
        try context.save()
        while context.undoManager?.canUndo == true { context.undo() }
        #expect(context.deletedObjects.count == 2)
        while context.undoManager?.canRedo == true { context.redo() }
        #expect(!context.hasChanges, "back where the save left it")
        try context.save()
        #expect(try storedNames("ZDEPARTMENT") == ["Lab", "Ops"])
    }

    @Test("a deletion undone after its save inserts the object again, with its values and links")
    func deletionUndoneAfterSave() throws {
        let ops = try insertDepartment("Ops")
        let ada = try context.insertObject(forEntityName: "Employee")
        ada["name"] = "Ada"
        ada["salary"] = 100
        ada["department"] = .object(ops)
        try context.save()
        context.undoManager?.removeAllActions()
        context.delete(ada)
        context.processPendingChanges()
        try context.save()
        #expect(try storedNames("ZEMPLOYEE").isEmpty)
        context.undo()
        #expect(ada.isInserted && ada.managedObjectContext === context)
        #expect(ops.objects("employees") == [ada])
        try context.save()
        let again = try stack.reopened().context
        let employees = try again.fetch(FetchRequest(entityName: "Employee"))
        #expect(employees.map { $0.string("name") } == ["Ada"])
        #expect(employees.first?.int("salary") == 100)
        #expect(employees.first?.object("department")?.string("name") == "Ops")
        context.redo()
        #expect(ada.isDeleted)
        try context.save()
        #expect(try storedNames("ZEMPLOYEE").isEmpty)
    }
}
