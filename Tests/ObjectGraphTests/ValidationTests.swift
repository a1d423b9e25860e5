import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Validation at save")
struct ValidationTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws { stack = try TestStack(model: try ModelFixtures.companyModel()) }

    func failures(_ body: () throws -> Void) -> [ValidationFailure] {
        do { try body() } catch let error as ValidationError { return error.failures } catch { return [] }
        return []
    }

    @Test("values are not checked when set, only at save")
    func notOnSet() throws {
        let e = try context.insertObject(forEntityName: "Employee")
        e["salary"] = -5
        #expect(e.int("salary") == -5)
    }

    @Test("every failure of one save arrives together, each naming entity, object, key and value")
    func allTogether() throws {
        let e = try context.insertObject(forEntityName: "Employee")   // name missing
        e["salary"] = 2_000_000                                         // above the maximum
        e["hired"] = .date(Date(timeIntervalSinceReferenceDate: -10))   // before the minimum
        let d = try context.insertObject(forEntityName: "Department")
        d["name"] = "X"                                                 // shorter than 2
        d["budget"] = .decimal(-1)                                      // below 0
        let b = try context.insertObject(forEntityName: "Badge")
        b["code"] = "abc"                                               // pattern
        let found = failures { try context.save() }
        let summary = Set(found.map { "\($0.entityName).\($0.key ?? ""):\($0.code)" })
        #expect(summary == [
            "Employee.name:missingMandatoryProperty",
            "Employee.salary:numberTooLarge",
            "Employee.hired:dateTooSoon",
            "Department.name:stringTooShort",
            "Department.budget:numberTooSmall",
            "Badge.code:stringPatternMatching",
        ])
        let salary = try #require(found.first { $0.key == "salary" })
        #expect(salary.value == 2_000_000)
        #expect(salary.object === e)
        #expect(salary.description == "new Employee: salary is larger than the maximum 1000000 (value: 2000000)")
        #expect(salary.message == "salary is larger than the maximum 1000000")
        let name = try #require(found.first { $0.entityName == "Department" && $0.key == "name" })
        #expect(name.message == "name is 1 long, shorter than the minimum of 2 characters")
    }

    @Test("an empty string where one character is the minimum is called empty (the ToDo item's name)")
    func emptyString() throws {
        let stack = try TestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = ""
        let found = failures { try stack.context.save() }
        #expect(found.map(\.message) == ["name cannot be empty"])
    }

    @Test("a subclass's own rule refuses a value before it is set and at save, beside the model's rules")
    func subclassRule() throws {
        final class Shouting: ManagedObject {
            override func validationReason(for value: ObjectValue, forKey key: String) -> String? {
                if key == "name", case .string(let s) = value, s != s.uppercased() { return "must be in capitals" }
                return nil
            }
        }
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        stack.coordinator.register(Shouting.self, forEntityName: "Employee")
        let e = try stack.context.insertObject(forEntityName: "Employee")
        #expect(e.validateValue("Ada", forKey: "name").map(\.message) == ["name must be in capitals"])
        #expect(e.validateValue("ADA", forKey: "name").isEmpty)
        e["name"] = "Ada"
        #expect(failures { try stack.context.save() }.map(\.message) == ["name must be in capitals"])
        e["name"] = "ADA"
        try stack.context.save()
        // The model's own rules still hold for the subclass.
        e["salary"] = 2_000_000
        #expect(failures { try stack.context.save() }.map(\.message) == ["salary is larger than the maximum 1000000"])
    }

    @Test("a failed save changes nothing in the store and keeps the edits in the context")
    func failedSaveKeepsEdits() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("company.xml")
        let stack = try TestStack(model: try ModelFixtures.companyModel(), type: .xml, url: url)
        let e = try stack.context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        try stack.context.save()
        let before = try Data(contentsOf: url)
        e["salary"] = -1
        let bad = try stack.context.insertObject(forEntityName: "Employee")
        #expect(throws: ValidationError.self) { try stack.context.save() }
        #expect(try Data(contentsOf: url) == before)
        #expect(e.int("salary") == -1 && e.isUpdated)
        #expect(bad.isInserted)
        bad["name"] = "Bob"
        e["salary"] = 10
        try stack.context.save()
        #expect(try Data(contentsOf: url) != before)
    }

    @Test("a to-many relationship over its maximum count is refused")
    func maxCount() throws {
        let d = try context.insertObject(forEntityName: "Department")
        d["name"] = "Ops"
        let p = try context.insertObject(forEntityName: "Project")
        p["name"] = "Apollo"
        p["department"] = .object(d)
        for n in 0..<4 {
            let e = try context.insertObject(forEntityName: "Employee")
            e["name"] = .string("E\(n)")
            try p.add(e, toRelationship: "members")
        }
        let found = failures { try context.save() }
        #expect(found.map(\.code) == [.relationshipExceedsMaximumCount])
        #expect(found.first?.key == "members")
    }

    @Test("a required to-one that is empty is refused")
    func requiredToOne() throws {
        let p = try context.insertObject(forEntityName: "Project")
        p["name"] = "Apollo"
        let found = failures { try context.save() }
        #expect(found.map { "\($0.key ?? ""):\($0.code)" } == ["department:missingMandatoryProperty"])
    }

    @Test("a uniqueness constraint refuses a second object with the same value, saved or not")
    func uniqueness() throws {
        let a = try context.insertObject(forEntityName: "Tag")
        a["label"] = "urgent"
        try context.save()
        let b = try context.insertObject(forEntityName: "Tag")
        b["label"] = "urgent"
        let found = failures { try context.save() }
        #expect(found.map(\.code) == [.uniquenessConstraint])
        b["label"] = "later"
        try context.save()
    }

    final class StrictEmployee: ManagedObject {
        override func validateForInsert() throws {
            var failures: [ValidationFailure] = []
            do { try super.validateForInsert() } catch let e as ValidationError { failures = e.failures }
            if string("name") == "root" {
                failures.append(ValidationFailure(code: .generic, object: self, key: "name", value: "root", reason: "is reserved"))
            }
            if !failures.isEmpty { throw ValidationError(failures: failures) }
        }
    }

    @Test("a subclass adds its own rules to the model's")
    func customRules() throws {
        stack.coordinator.register(StrictEmployee.self, forEntityName: "Employee")
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = "root"
        e["salary"] = -1
        let found = failures { try context.save() }
        #expect(Set(found.map(\.reason)) == ["is reserved", "is smaller than the minimum 0"])
    }
}
