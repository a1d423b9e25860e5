import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Bindings
import TestSupport

@Suite("Object controller")
struct ObjectControllerTests {
    @Test("a detail form sees no selection, multiple values, or the value")
    func selectionStates() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let items = try ArrayController(context: stack.context, entityName: "ToDo")
        let detail = ObjectController(selectionOf: items)
        #expect(detail.value(forKeyPath: "name") == .noSelection)
        let a = try #require(try items.add())
        a["name"] = "A"
        let b = try #require(try items.add())
        b["name"] = "B"
        items.setSelectionIndexes([0, 1])
        #expect(detail.value(forKeyPath: "name") == .multipleValues)
        #expect(detail.value(forKeyPath: "completed") == .value(false), "equal values show as one")
        items.setSelectionIndex(1)
        #expect(detail.value(forKeyPath: "name") == .value("B"))
        #expect(detail.value(forKeyPath: "nope") == .notApplicable)
        #expect(detail.isEditable(keyPath: "category") && !detail.isEditable(keyPath: "category.name"))
    }

    @Test("an edit is validated before it is set, and refused whole")
    func validatedEdits() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let employees = try ArrayController(context: stack.context, entityName: "Employee")
        let detail = ObjectController(selectionOf: employees)
        let e = try #require(try employees.add())
        e["name"] = "Ada"
        #expect(throws: ValidationError.self) { try detail.setValue(-3, forKeyPath: "salary") }
        #expect(e.int("salary") == 0)
        #expect(throws: ObjectGraphError.self) { try detail.setValue("many", forKeyPath: "salary") }
        try detail.setValue(42, forKeyPath: "salary")
        #expect(e.int("salary") == 42)
    }
}
