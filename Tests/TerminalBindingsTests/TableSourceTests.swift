import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Bindings
import TerminalUI
import TerminalBindings
import TestSupport

@Suite("Table and form bindings")
struct TableSourceTests {
    let stack: TestStack
    let controller: ArrayController
    let source: ArrayControllerTableSource

    init() throws {
        stack = try TestStack(model: try ModelFixtures.companyModel())
        for (name, salary) in [("Bob", 100), ("ada", 300), ("Cy", 200)] {
            let e = try stack.context.insertObject(forEntityName: "Employee")
            e["name"] = .string(name)
            e["salary"] = .int(salary)
        }
        try stack.context.save()
        controller = try ArrayController(context: stack.context, entityName: "Employee")
        source = ArrayControllerTableSource(controller: controller)
    }

    func table() -> TableView {
        TableView(columns: [TableColumn("name", title: "Name", width: 10), TableColumn("salary", title: "Salary", width: 8),
                            TableColumn("department", title: "Dept", width: 8)], dataSource: source)
    }

    @Test("cells show attribute values with editors that fit their types")
    func values() throws {
        #expect(source.numberOfRows == 3)
        #expect(source.value(row: 0, column: "name") == .text("Bob"))
        #expect(source.value(row: 0, column: "salary") == .integer(100))
        #expect(source.editor(row: 0, column: "salary") == .integer)
        #expect(source.editor(row: 0, column: "name") == .text)
        #expect(source.value(row: 0, column: "department") == .empty)
    }

    @Test("a transformable attribute's cell shows the value its archive holds; bytes nothing reads show their size")
    func transformableCells() throws {
        let xml = ModelFixtures.modelXML("""
            <entity name="Item" representedClassName="Item">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer"/>
            </entity>
            """)
        let stack = try TestStack(model: try XcodeModelFile.read(try ModelFixtures.writeModelFile(xml, name: "Items")).current)
        let milk = try stack.context.insertObject(forEntityName: "Item")
        milk["name"] = "Milk"
        try milk.setTransformedValue(.array([.string("dairy"), .int(2), .dictionary(["aisle": .int(4)])]), forKey: "tags")
        let odd = try stack.context.insertObject(forEntityName: "Item")
        odd["name"] = "Odd"
        odd["tags"] = .data(Data([1, 2, 3]))
        try stack.context.save()
        let controller = try ArrayController(context: stack.context, entityName: "Item")
        let source = ArrayControllerTableSource(controller: controller)
        let row = { (name: String) in controller.arrangedObjects.firstIndex { $0.string("name") == name }! }
        #expect(source.value(row: row("Milk"), column: "tags") == .text("[dairy, 2, {aisle: 4}]"))
        #expect(source.value(row: row("Odd"), column: "tags") == .text("3 bytes"))
        #expect(source.value(row: row("Odd"), column: "name") == .text("Odd"))
        // The detail form shows it as the table does.
        let detail = ObjectControllerForm(controller: ObjectController(selectionOf: controller))
        controller.setSelectionIndex(row("Milk"))
        #expect(detail.cellValue("tags") == .text("[dairy, 2, {aisle: 4}]"))
        controller.setSelectionIndex(row("Odd"))
        #expect(detail.cellValue("tags") == .text("3 bytes"))
    }

    @Test("an edit that breaks the model's rules is refused with the reason, and nothing changes")
    func validatedEdit() throws {
        #expect {
            try source.setValue(.integer(-5), row: 0, column: "salary")
        } throws: { "\($0)".contains("smaller than the minimum 0") }
        #expect(controller.arrangedObjects[0].int("salary") == 100)
        try source.setValue(.integer(150), row: 0, column: "salary")
        #expect(controller.arrangedObjects[0].int("salary") == 150)
        #expect(throws: (any Error).self) { try source.setValue(.text("lots"), row: 0, column: "salary") }
    }

    @Test("sorting a column sorts the controller, strings case-insensitively")
    func sorting() throws {
        #expect(source.sort(by: "name", ascending: true))
        #expect(controller.arrangedObjects.map { $0.string("name")! } == ["ada", "Bob", "Cy"])
        #expect(source.sort(by: "salary", ascending: false))
        #expect(controller.arrangedObjects.map { $0.int("salary")! } == [300, 200, 100])
    }

    @Test("the table's selection selects in the controller, and back")
    func selectionSync() throws {
        let view = table()
        source.bind(view)
        view.select(row: 2)
        #expect(controller.selectionIndexes == [2])
        controller.setSelectionIndex(1)
        #expect(view.state.selectedRow == 1)
    }

    @Test("a form shows no selection, multiple values, or the value, and sets validated values")
    func form() throws {
        let detail = ObjectControllerForm(controller: ObjectController(selectionOf: controller))
        let field = detail.field("salary", label: "Salary")
        #expect(field.editor == .integer)
        controller.setSelectionIndexes([0, 1])
        #expect(field.get() == .text("Multiple values"))
        controller.setSelectionIndex(2)
        #expect(field.get() == .integer(200))
        // The error names the problem, as the field shows it, without the object.
        #expect(throws: EditorError("salary is larger than the maximum 1000000")) { try field.set(.integer(2_000_000)) }
        try field.set(.integer(250))
        #expect(controller.arrangedObjects[2].int("salary") == 250)
    }

    @Test("a to-one choice lists each object once, same names told apart, and stores the object picked")
    func sameNamedChoices() throws {
        var departments: [ManagedObject] = []
        for _ in 0..<2 {
            let d = try stack.context.insertObject(forEntityName: "Department")
            d["name"] = "Ops"
            departments.append(d)
        }
        let detail = ObjectControllerForm(controller: ObjectController(selectionOf: controller))
        let field = detail.field("department", label: "Dept", choices: { departments })
        #expect(field.editor == .choice(["", "Ops", "Ops (2)"]))
        controller.setSelectionIndex(0)
        try field.set(.text("Ops (2)"))
        #expect(controller.arrangedObjects[0].object("department") === departments[1])
        try field.set(.text("Ops"))
        #expect(controller.arrangedObjects[0].object("department") === departments[0])
        // The table's cell editor lists and picks the same way.
        source.choices["department"] = { departments }
        #expect(source.editor(row: 1, column: "department") == .choice(["", "Ops", "Ops (2)"]))
        try source.setValue(.text("Ops (2)"), row: 1, column: "department")
        #expect(controller.arrangedObjects[1].object("department") === departments[1])
    }

    @Test("objects show by their name, collections by their size")
    func display() throws {
        let e = controller.arrangedObjects[0]
        #expect(CellValue(.object(e)) == .text("Bob"))
        #expect(CellValue(.set([.int(1), .int(2)])) == .text("2 items"))
        #expect(CellValue(.null) == .empty)
        #expect(CellValue(.decimal(Decimal(string: "2.5")!)) == .decimal(2.5))
    }
}
