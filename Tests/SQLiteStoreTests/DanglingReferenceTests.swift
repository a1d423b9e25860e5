import Foundation
import Testing
import ObjectModel
import ObjectGraph
import Predicates
import SQLiteStore
import TestSupport

/// A to-one left pointing at a deleted row by a No Action delete rule, as Core Data leaves it.
@Suite("Dangling references")
struct DanglingReferenceTests {
    /// Ann and Bob in Sales and Research; Sales deleted (No Action) and saved; reopened.
    func store() throws -> SQLiteTestStack {
        let stack = try SQLiteTestStack(model: try ModelFixtures.employeeModel())
        var departments: [ManagedObject] = []
        for name in ["Sales", "Research"] {
            let d = try stack.context.insertObject(forEntityName: "Department")
            d["name"] = .string(name)
            departments.append(d)
        }
        for (first, department) in zip(["Ann", "Bob"], departments) {
            let e = try stack.context.insertObject(forEntityName: "Employee")
            e["firstName"] = .string(first)
            e["lastName"] = "X"
            e["salary"] = 1
            try e.setValue(department, forKey: "department")
        }
        try stack.context.save()
        stack.context.delete(departments[0])
        try stack.context.save()
        return try stack.reopened()
    }

    @Test("a key path through the missing row reads nil, in memory as in SQL, and both evaluations agree")
    func keyPathReadsNil() throws {
        let stack = try store()
        let employees = try stack.context.fetch(FetchRequest(entityName: "Employee",
                                                             sortDescriptors: [ObjectSortDescriptor(key: "firstName")]))
        #expect(try employees.map { try $0.value(forKeyPath: "department.name") } == [.null, "Research"])
        let ann = employees[0]
        let missing = try #require(ann.object("department"))
        #expect(throws: ObjectGraphError.self) { try missing.value(forKey: "name") }

        for format in ["department.name == nil", "department.name != nil", "department.name BEGINSWITH 'R'"] {
            let predicate = try ObjectPredicate(format: format)
            let inStore = try stack.context.fetch(FetchRequest(entityName: "Employee", predicate: predicate))
            let inMemory = try employees.filter { try predicate.evaluate(with: .object($0)) }
            #expect(Set(inStore) == Set(inMemory), "\(format)")
        }
    }
}
