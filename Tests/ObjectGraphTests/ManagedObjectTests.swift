import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Managed objects")
struct ManagedObjectTests {
    @Test("a new object starts with the model's default values and is inserted")
    func defaults() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        #expect(item.string("name") == "New item")
        #expect(item.bool("completed") == false)
        #expect(item.bool("doNotAlert") == false)
        #expect(item["dueDate"] == .null)
        #expect(item.isInserted && !item.isFault && item.hasChanges)
        #expect(item.objectID.isTemporaryID)
        #expect(stack.context.insertedObjects == [item])
    }

    @Test("values are read and written by key, with typed accessors")
    func values() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let e = try stack.context.insertObject(forEntityName: "Employee")
        try e.setValue("Ada", forKey: "name")
        try e.setValue(1200, forKey: "salary")
        let hired = Date(timeIntervalSinceReferenceDate: 100)
        try e.setValue(hired, forKey: "hired")
        #expect(e.string("name") == "Ada")
        #expect(e.int("salary") == 1200)
        #expect(e.date("hired") == hired)
        #expect(try e.value(forKey: "name") == "Ada")
    }

    @Test("a value of the wrong type is refused with the entity, key and value")
    func typeMismatch() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let e = try stack.context.insertObject(forEntityName: "Employee")
        #expect(throws: ObjectGraphError.typeMismatch(entity: "Employee", key: "salary", expected: "Integer 32", value: "lots")) {
            try e.setValue("lots", forKey: "salary")
        }
        #expect(throws: ObjectGraphError.self) { try e.setValue(5_000_000_000, forKey: "salary") }
        let d = try stack.context.insertObject(forEntityName: "Department")
        #expect(throws: ObjectGraphError.self) { try e.setValue(d, forKey: "badge") }
        #expect(throws: KeyValueError.unknownKey("age", typeName: "entity Employee")) { try e.value(forKey: "age") }
        #expect(KeyValueError.unknownKey("age", typeName: "entity Employee").description == "entity Employee has no key 'age'")
    }

    @Test("a number outside its type's range says so, with the range; the message shows values as written")
    func outOfRange() throws {
        let stack = try TestStack(model: try XcodeModelFile.read(ModelFixtures.allFeatures).current)
        let o = try stack.context.insertObject(forEntityName: "AllTypesOfAttributes")
        do {
            try o.setValue(99_999, forKey: "integer16Attribute")
            Issue.record("99999 fits no Integer 16")
        } catch {
            #expect("\(error)" == "AllTypesOfAttributes.integer16Attribute: 99999 is out of range for Integer 16 (-32768…32767)")
        }
        do {
            try o.setValue(1e39, forKey: "floatAttribute")
            Issue.record("1e39 fits no Float")
        } catch {
            #expect("\(error)" == "AllTypesOfAttributes.floatAttribute: 1e+39 is out of range for Float (up to ±3.4e38)")
        }
        try o.setValue(3e38, forKey: "floatAttribute")
        try o.setValue(1e39, forKey: "doubleAttribute")
        do {
            try o.setValue("soon", forKey: "dateAttribute")
            Issue.record("a string is no date")
        } catch {
            #expect("\(error)" == "AllTypesOfAttributes.dateAttribute expects Date, not String \"soon\"")
        }
    }

    @Test("key paths walk relationships and apply collection operators")
    func keyPaths() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let context = stack.context
        let dept = try context.insertObject(forEntityName: "Department")
        dept["name"] = "Research"
        for (name, salary) in [("Ada", 300), ("Bob", 100), ("Cy", 200)] {
            let e = try context.insertObject(forEntityName: "Employee")
            e["name"] = .string(name)
            e["salary"] = .int(salary)
            e["department"] = .object(dept)
        }
        let ada = dept.objects("employees").first { $0.string("name") == "Ada" }!
        #expect(try ada.value(forKeyPath: "department.name") == "Research")
        #expect(try dept.value(forKeyPath: "employees.@count") == 3)
        #expect(try dept.value(forKeyPath: "employees.@sum.salary") == 600)
        #expect(try dept.value(forKeyPath: "employees.@avg.salary") == 200)
        #expect(try dept.value(forKeyPath: "employees.@min.salary") == 100)
        #expect(try dept.value(forKeyPath: "employees.@max.salary") == 300)
    }

    @Test("changed values and committed values tell what changed since the save")
    func changes() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = "Before"
        try stack.context.save()
        #expect(!item.hasChanges && !item.isUpdated)
        #expect(item.committedValues(forKeys: ["name"]) == ["name": "Before"])
        item["name"] = "After"
        #expect(item.isUpdated)
        #expect(item.changedValues == ["name": "After"])
        #expect(item.committedValues(forKeys: ["name"]) == ["name": "Before"])
        item["name"] = "Before"
        #expect(!item.isUpdated, "setting the saved value back leaves nothing to save")
        #expect(!stack.context.hasChanges)
    }

    @Test("many objects leaving the change sets and coming back keep their places there, once each")
    func changeSetsUnderChurn() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let context = stack.context
        var save: ContextDidSave?
        let observation = context.observe { if case .didSave(let s) = $0 { save = s } }
        defer { observation.cancel() }

        let items = try (0..<400).map { i in
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            return item
        }
        for (i, item) in items.enumerated() where i % 4 != 0 { context.delete(item) }
        let kept = stride(from: 0, to: 400, by: 4).map { items[$0] }
        #expect(context.insertedObjects == Set(kept))
        try context.save()
        #expect(try #require(save).inserted.map { context.object(with: $0).string("name") } == kept.map { $0.string("name") })

        for item in kept { item["name"] = .string(item.string("name")! + " changed") }
        // Set back: 80 of the 100 leave the updated set, then one comes back, at the end.
        for (j, item) in kept.enumerated() where j % 5 != 0 { item["name"] = .string(String(item.string("name")!.dropLast(8))) }
        kept[1]["name"] = "again"
        let updated = stride(from: 0, to: 100, by: 5).map { kept[$0] } + [kept[1]]
        #expect(context.updatedObjects == Set(updated))
        #expect(context.updatedObjects.count == 21)
        try context.save()
        #expect(try #require(save).updated == updated.map(\.objectID))
    }

    @Test("an abstract entity cannot be instantiated; an unknown one is reported")
    func abstractEntity() throws {
        let stack = try TestStack(model: try ModelFixtures.employeeModel())
        #expect(throws: ObjectGraphError.abstractEntity("Person")) { try stack.context.insertObject(forEntityName: "Person") }
        #expect(throws: ObjectGraphError.unknownEntity("Robot")) { try stack.context.insertObject(forEntityName: "Robot") }
    }

    final class Employee: ManagedObject {
        var name: String {
            get { string("name") ?? "" }
            set { self["name"] = .string(newValue) }
        }
        override func awakeFromInsert() {
            self["salary"] = 10
        }
    }

    @Test("a registered subclass is instantiated for its entity and runs awakeFromInsert")
    func subclass() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        stack.coordinator.register(Employee.self, forEntityName: "Employee")
        let e = try stack.context.insert(Employee.self, entityName: "Employee")
        e.name = "Grace"
        #expect(e.string("name") == "Grace")
        #expect(e.int("salary") == 10)
        try stack.context.save()
        let reader = stack.newContext()
        let fetched = try reader.fetch(FetchRequest(entityName: "Employee"), as: Employee.self)
        #expect(fetched.map(\.name) == ["Grace"])
    }

    @Test("a class registered after objects of its entity were made is used from then on")
    func lateRegistration() throws {
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        let plain = try stack.context.insertObject(forEntityName: "Employee")
        #expect(!(plain is Employee))
        stack.coordinator.register(Employee.self, forEntityName: "Employee")
        let typed = try stack.context.insertObject(forEntityName: "Employee")
        #expect(typed is Employee)
    }
}
