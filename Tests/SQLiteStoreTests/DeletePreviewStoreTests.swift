import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import Testing
import TestSupport

/// The delete preview read by ID from a SQLite store, in SQL, agrees with the object walk.
@Suite("Delete preview in SQL")
struct DeletePreviewStoreTests {
    @Test("cascades over two levels, Nullify through a to-one and a many-to-many, No Action and Deny: as the walk says")
    func agreesWithTheWalk() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.companyModel())
        let context = stack.context
        try CompanyFixture.fill(context)
        try CompanyFixture.addBadge(for: "Bob", in: context)
        let departments = try context.fetch(FetchRequest(entityName: "Department"))
        let projects = try context.fetch(FetchRequest(entityName: "Project"))
        let people = try context.fetch(FetchRequest(entityName: "Employee"))
        let other = stack.newContext()
        let name = { (object: ManagedObject) in object.string("name") ?? object.entity.name }
        for deleting in [Array(departments), Array(departments) + projects, Array(people), Array(projects)] {
            let walked = try DeletePreview(deleting: deleting, in: context)
            let read = try DeletePreview(deletingObjectsWith: deleting.map(\.objectID), in: other)
            #expect(read.lines(naming: name) == walked.lines(naming: name), "deleting \(deleting.map(name))")
            #expect(Set(read.deletedIDs) == Set(walked.deletedIDs))
        }
        #expect(other.registeredObjects.count <= 2, "only the refusing objects are made, not the deleted ones")
    }
}
