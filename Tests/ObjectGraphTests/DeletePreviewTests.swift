import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

/// What a delete will do, told before it happens, and agreeing with what it then does.
@Suite("Delete preview")
struct DeletePreviewTests {
    let stack: TestStack
    var context: ManagedObjectContext { stack.context }

    init() throws {
        stack = try TestStack(model: try ModelFixtures.companyModel())
        try CompanyFixture.fill(stack.context)
    }

    func one(_ entity: String, _ name: String, key: String = "name") throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: entity)).first { $0.string(key) == name })
    }

    @Test("a department: its employees go by Cascade, their badges a level further; projects lose members (Nullify); notes are left pointing (No Action)")
    func cascadeTwoLevels() throws {
        let sales = try one("Department", "Sales")
        try CompanyFixture.addBadge(for: "Bob", in: context)

        let preview = try DeletePreview(deleting: [sales], in: context)
        #expect(preview.requested == [.init(entity: "Department", count: 1)])
        #expect(preview.cascaded == [.init(entity: "Employee", count: 2), .init(entity: "Badge", count: 1)])
        #expect(preview.cleared == [.init(entity: "Project", relationship: "members", count: 1)], "Database loses Bob")
        #expect(preview.dangling == [.init(entity: "Note", relationship: "author", count: 1)], "Bob's note")
        #expect(preview.refusals.isEmpty)
        #expect(!context.hasChanges, "nothing was changed to find it out")
        #expect(preview.lines { $0.string("name") ?? $0.entity.name } == [
            "Deletes 1 Department.",
            "Cascade rules delete 2 Employee, 1 Badge besides: 4 objects in all.",
            "Clears members of 1 Project (Nullify).",
            "Leaves author of 1 Note pointing at deleted objects (No Action).",
        ])

        // The delete does what the preview said.
        context.delete(sales)
        context.processPendingChanges()
        #expect(Set(context.deletedObjects.map(ObjectIdentifier.init)) == Set(preview.deleted.map(ObjectIdentifier.init)))
        #expect(try one("Project", "Database").objects("members").map { $0.string("name") } == ["Ada"])
    }

    @Test("a Deny rule that would refuse names the object and what it still holds; objects deleted together do not count")
    func deny() throws {
        let engineering = try one("Department", "Engineering")
        let refused = try DeletePreview(deleting: [engineering], in: context)
        #expect(refused.refusals.count == 1)
        #expect(refused.refusals.first?.object === engineering && refused.refusals.first?.remaining == 2)
        let lines = refused.lines { $0.string("name") ?? "" }
        #expect(lines.last?.hasPrefix("Refused: Engineering still holds ") == true && lines.last?.hasSuffix(" and 1 more in projects (Deny).") == true,
                "\(lines)")
        let projects = try context.fetch(FetchRequest(entityName: "Project"))
        let together = try DeletePreview(deleting: [engineering] + projects, in: context)
        #expect(together.refusals.isEmpty, "its projects go with it")
        #expect(together.requested == [.init(entity: "Project", count: 2), .init(entity: "Department", count: 1)])
    }

    @Test("read from the store by ID, the preview says what the object walk says: cascades over two levels, Nullify, No Action and Deny")
    func byIDAgreesWithTheObjects() throws {
        let sales = try one("Department", "Sales"), engineering = try one("Department", "Engineering")
        try CompanyFixture.addBadge(for: "Bob", in: context)
        let projects = try context.fetch(FetchRequest(entityName: "Project"))
        let people = try context.fetch(FetchRequest(entityName: "Employee"))
        let other = stack.newContext()       // as a background context would
        for deleting in [[sales], [engineering], [engineering] + projects, Array(people)] {
            let walked = try DeletePreview(deleting: deleting, in: context)
            let read = try DeletePreview(deletingObjectsWith: deleting.map(\.objectID), in: other)
            let name = { (object: ManagedObject) in object.string("name") ?? object.entity.name }
            #expect(read.lines(naming: name) == walked.lines(naming: name), "deleting \(deleting.map(name))")
            #expect(Set(read.deletedIDs) == Set(walked.deletedIDs))
            #expect(read.refusals.map { name($0.object) } == walked.refusals.map { name($0.object) })
        }
        #expect(!context.hasChanges)
    }
}
