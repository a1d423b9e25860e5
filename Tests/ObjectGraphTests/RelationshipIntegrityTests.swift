import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("Relationship integrity")
struct RelationshipIntegrityTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws { stack = try TestStack(model: try ModelFixtures.companyModel()) }

    func make(_ entity: String, _ name: String) throws -> ManagedObject {
        let o = try context.insertObject(forEntityName: entity)
        if o.entity.attribute(named: "name") != nil { o["name"] = .string(name) }
        if o.entity.attribute(named: "code") != nil { o["code"] = .string(name) }
        return o
    }

    @Test("setting a to-one adds the object to the inverse to-many")
    func toOneUpdatesToMany() throws {
        let dept = try make("Department", "Ops")
        let ada = try make("Employee", "Ada")
        try ada.setValue(dept, forKey: "department")
        #expect(dept.objects("employees") == [ada])
    }

    @Test("adding to a to-many sets the inverse to-one")
    func toManyUpdatesToOne() throws {
        let dept = try make("Department", "Ops")
        let ada = try make("Employee", "Ada")
        try dept.add(ada, toRelationship: "employees")
        #expect(ada.object("department") === dept)
        try dept.remove(ada, fromRelationship: "employees")
        #expect(ada.object("department") == nil)
        #expect(dept.objects("employees").isEmpty)
    }

    @Test("moving an object to another owner removes it from the first")
    func moving() throws {
        let a = try make("Department", "A")
        let b = try make("Department", "B")
        let ada = try make("Employee", "Ada")
        ada["department"] = .object(a)
        try b.add(ada, toRelationship: "employees")
        #expect(a.objects("employees").isEmpty)
        #expect(b.objects("employees") == [ada])
        #expect(ada.object("department") === b)
    }

    @Test("a one-to-one keeps both ends, and taking the destination clears its old owner")
    func oneToOne() throws {
        let badge = try make("Badge", "AB123")
        let ada = try make("Employee", "Ada")
        let bob = try make("Employee", "Bob")
        ada["badge"] = .object(badge)
        #expect(badge.object("holder") === ada)
        bob["badge"] = .object(badge)
        #expect(badge.object("holder") === bob)
        #expect(ada.object("badge") == nil)
    }

    @Test("many-to-many keeps both sides")
    func manyToMany() throws {
        let p = try make("Project", "Apollo")
        let q = try make("Project", "Gemini")
        let ada = try make("Employee", "Ada")
        try ada.setValue([p, q], forKey: "projects")
        #expect(p.objects("members") == [ada] && q.objects("members") == [ada])
        try q.remove(ada, fromRelationship: "members")
        #expect(ada.objects("projects") == [p])
    }

    @Test("relationships survive a save and load from the store as faults")
    func afterSave() throws {
        let dept = try make("Department", "Ops")
        for name in ["Ada", "Bob"] { try make("Employee", name)["department"] = .object(dept) }
        try context.save()
        let other = stack.newContext()
        let fetched = try other.fetch(FetchRequest(entityName: "Department"))
        let reloaded = try #require(fetched.first)
        #expect(reloaded.hasFaultForRelationship(named: "employees"))
        #expect(Set(reloaded.objects("employees").compactMap { $0.string("name") }) == ["Ada", "Bob"])
        // Adding from the other side while the to-many is a fault keeps it consistent.
        let more = try other.insertObject(forEntityName: "Employee")
        more["name"] = "Cy"
        let other2 = stack.newContext()
        let d2 = try other2.fetch(FetchRequest(entityName: "Department"))[0]
        let cy = try other2.insertObject(forEntityName: "Employee")
        cy["name"] = "Cy"
        cy["department"] = .object(d2)
        #expect(d2.objects("employees").count == 3)
    }

    @Test("a to-many changes when a member is swapped for another, and not when the same members come back")
    func toManyChangeTracking() throws {
        let dept = try make("Department", "Ops")
        let ada = try make("Employee", "Ada")
        let bob = try make("Employee", "Bob")
        let cy = try make("Employee", "Cy")
        for e in [ada, bob] { e["department"] = .object(dept) }
        try context.save()
        _ = dept.objects("employees")
        try dept.remove(ada, fromRelationship: "employees")
        try dept.add(cy, toRelationship: "employees")
        #expect(dept.objects("employees").count == 2)
        #expect(dept.hasChanges, "the same count, other members")
        #expect(context.updatedObjects.contains(dept))
        try dept.remove(cy, fromRelationship: "employees")
        try dept.add(ada, toRelationship: "employees")
        #expect(!dept.hasChanges, "the members it was saved with")
        #expect(!context.updatedObjects.contains(dept))
    }
}
