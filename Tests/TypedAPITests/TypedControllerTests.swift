import Foundation
import Testing
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TestSupport

extension Product {
    /// A property of the class that is not the model's.
    var shouted: String { name.uppercased() }
}

@Suite("Typed requests in the fetch utilities and the controllers")
struct TypedControllerTests {
    /// Four products in a SQLite store.
    func context() throws -> ManagedObjectContext {
        let (_, context) = try TypedFixtures.shopStack(at: try Fixtures.temporaryDirectory().appendingPathComponent("shop.sqlite"))
        for (name, stock) in [("Teapot", 4), ("Cup", 10), ("Plate", 3), ("Bowl", 3)] {
            let product = try context.insert(Product.self)
            product.name = name
            product.stock = Int32(stock)
        }
        try context.save()
        return context
    }

    @Test("the article's fetch utilities take a class and key paths")
    func fetchUtilities() throws {
        let context = try context()
        #expect(try context.objects(Product.self).count == 4)
        #expect(try context.objects(Product.self, matching: \.stock, 3).map(\.name).sorted() == ["Bowl", "Plate"])
        #expect(try context.object(Product.self, matching: \.name, "Cup")?.stock == 10)
        #expect(try context.object(Product.self, matching: \.name, "Saucer") == nil)
        #expect(throws: FetchUtilityError.moreThanOneObject(entity: "Product", key: "stock", count: 2)) {
            try context.object(Product.self, matching: \.stock, 3)
        }
        // A key path the class does not map (a computed property) is an error, not a trap.
        let error = #expect(throws: FetchUtilityError.self) { try context.objects(Product.self, matching: \.shouted, "CUP") }
        #expect("\(error!)".contains("not a property Product maps to the model"), "\(error!)")
    }

    @Test("an array controller and a fetched-results controller take a typed request and give its class")
    func controllers() throws {
        let context = try context()
        let request = try FetchRequest<Product>(#Predicate { $0.stock >= 4 }, sortBy: [SortDescriptor(\.stock, order: .reverse)])
        let array = try ArrayController(context: context, request: request)
        #expect(array.arrangedObjects(as: Product.self).map(\.name) == ["Cup", "Teapot"])
        let results = try FetchedResultsController(fetchRequest: request, context: context)
        try results.performFetch()
        #expect(results.count == 2)
        #expect(try results.object(at: 1, as: Product.self).name == "Teapot")
    }

    @Test("a controller given a typed request for a class that is not registered refuses it at once")
    func unregistered() throws {
        let coordinator = PersistentStoreCoordinator(model: try ModelFile.read(TypedFixtures.shop).current)
        try coordinator.addStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: ObjectGraphError.self) { try ArrayController(context: context, request: Product.fetchRequest()) }
        #expect(throws: ObjectGraphError.self) { try FetchedResultsController(fetchRequest: Product.fetchRequest(), context: context) }
        #expect(throws: ObjectGraphError.self) { try context.objects(Product.self, matching: \.name, "Cup") }
    }
}
