import Foundation
import ObjectModel
import ObjectGraph

extension ModelFixtures {
    /// A model written for the tests in Xcode's format: Department, Employee, Project,
    /// Badge, Note and Tag, with every delete rule, bounds, a pattern, a transient
    /// attribute, a to-many maximum, a uniqueness constraint, a template and two configurations.
    public static var company: URL {
        Fixtures.packageRoot.appendingPathComponent("Tests/TestSupport/Fixtures/Company.xcdatamodeld")
    }

    public static func companyModel() throws -> ManagedObjectModel {
        try XcodeModelFile.read(company).current
    }
}

/// A whole stack over one in-memory store, for tests.
public struct TestStack {
    public let model: ManagedObjectModel
    public let coordinator: PersistentStoreCoordinator
    public let context: ManagedObjectContext

    public init(model: ManagedObjectModel, type: StoreType = .inMemory, url: URL? = nil) throws {
        self.model = model
        coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: type, at: url)
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// A second context on the same coordinator.
    public func newContext() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }
}

extension ModelFixtures {
    /// The ToDo model's history in three versions: the bundled 1 and 2, and a 3 that renames
    /// Category to List, name to title, category/todos to list/items, and adds priority.
    public static var toDoHistory: URL {
        Fixtures.packageRoot.appendingPathComponent("Tests/TestSupport/Fixtures/ToDoHistory.xcdatamodeld")
    }
}
