import Foundation
import Testing
import ModelCodegen
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

enum TypedFixtures {
    static var shop: URL { Fixtures.packageRoot.appendingPathComponent("Tests/TestSupport/Fixtures/Shop.xcdatamodeld") }
    static var generated: URL { Fixtures.packageRoot.appendingPathComponent("Tests/TypedAPITests/Generated") }


    /// A SQLite stack on the Shop model with its classes registered.
    static func shopStack(at url: URL) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFile.read(shop).current)
        ShopClasses.register(in: coordinator)
        coordinator.register(Tag.self)
        try coordinator.addStore(type: .sqlite, at: url)
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }
}

@Suite("Generated classes")
struct GeneratedClassTests {
    @Test("the Shop classes checked in are what termdata model --swift writes from the model now")
    func noDrift() throws {
        let model = TypedFixtures.shop
        let versions = try ModelFile.read(model)
        let files = try SwiftClassGenerator(model: versions.current, modelName: "Shop", modelFileName: model.lastPathComponent).files()
        let checkedIn = TypedFixtures.generated.appendingPathComponent("Shop")
        #expect(Set(files.map(\.name)) == Set(try FileManager.default.contentsOfDirectory(atPath: checkedIn.path)))
        for file in files {
            #expect(try String(contentsOf: checkedIn.appendingPathComponent(file.name), encoding: .utf8) == file.text,
                    "\(file.name) differs: run termdata model \(model.lastPathComponent) --swift \(checkedIn.path)")
        }
    }

    @Test("every attribute type reads and writes through its typed property, and survives a save to SQLite")
    func attributesRoundTrip() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("shop.sqlite")
        let sku = UUID(), added = Date(timeIntervalSinceReferenceDate: 800_000_000.5)
        do {
            let (_, context) = try TypedFixtures.shopStack(at: url)
            let product = try context.insert(Product.self)
            // Defaults of required attributes, and scalars, before anything is set.
            #expect(product.name == "Unnamed \"item\"")
            #expect(product.active == true)
            #expect(product.stock == 0)
            #expect(product.weight == 0)
            #expect(product.price == nil && product.sku == nil && product.added == nil)
            product.name = "Teapot"
            product.active = false
            product.default = "keyword-named"
            product.image = Data([0, 1, 2, 255])
            product.page = URL(string: "https://example.com/teapot?x=1")
            product.price = Decimal(string: "12.50")
            product.rating = 4.5
            product.sku = sku
            product.stock = 42
            product.weight = 0.75
            product.added = added
            product.extra = .data(Data("opaque".utf8))
            try context.save()
        }
        let (_, context) = try TypedFixtures.shopStack(at: url)
        let products = try context.fetch(Product.fetchRequest())
        #expect(products.count == 1)
        let product = try #require(products.first)
        #expect(product.name == "Teapot")
        #expect(product.active == false)
        #expect(product.default == "keyword-named")
        #expect(product.image == Data([0, 1, 2, 255]))
        #expect(product.page == URL(string: "https://example.com/teapot?x=1"))
        #expect(product.price == Decimal(string: "12.50"))
        #expect(product.rating == 4.5)
        #expect(product.sku == sku)
        #expect(product.stock == 42)
        #expect(product.weight == 0.75)
        #expect(product.added == added)
        #expect(product.extra == .data(Data("opaque".utf8)))
        // Setting nil clears an optional attribute; the key-based view agrees with the typed one.
        product.price = nil
        #expect(product["price"] == .null)
        #expect(product["stock"] == .int(42))
    }

    @Test("relationships are typed: to-one as the class, to-many as a set, ordered ones as an array; add and remove keep inverses")
    func relationships() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("shop.sqlite")
        let (_, context) = try TypedFixtures.shopStack(at: url)
        let kitchen = try context.insert(ShopCategory.self)
        kitchen.title = "Kitchen"
        let teapot = try context.insert(Product.self), kettle = try context.insert(Product.self)
        teapot.name = "Teapot"
        kettle.name = "Kettle"
        teapot.category = kitchen
        kettle.category = kitchen
        #expect(kitchen.products.map(\.name) == ["Teapot", "Kettle"], "ordered, in the order added")
        let gift = try context.insert(Tag.self), sale = try context.insert(Tag.self)
        gift.label = "  gift "
        #expect(gift.label == "gift", "the hand-written class's own behaviour runs")
        sale.label = "sale"
        teapot.addToTags([gift, sale])
        kettle.addToTags(sale)
        #expect(teapot.tags == [gift, sale])
        #expect(sale.products == [teapot, kettle], "the inverse follows")
        teapot.removeFromTags(gift)
        #expect(gift.products.isEmpty)
        kitchen.products = [kettle]
        #expect(teapot.category == nil)
        try context.save()

        let (_, again) = try TypedFixtures.shopStack(at: url)
        let categories = try again.fetch(ShopCategory.fetchRequest())
        #expect(categories.map(\.title) == ["Kitchen"])
        #expect(categories.first?.products.map(\.name) == ["Kettle"])
        #expect(categories.first?.products.first?.tags.map(\.label) == ["sale"])
    }

    @Test("typed fetch requests filter, sort, count and limit as key-based ones do")
    func typedRequests() throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("shop.sqlite")
        let (_, context) = try TypedFixtures.shopStack(at: url)
        for (name, stock) in [("cup", 3), ("bowl", 0), ("plate", 9), ("jug", 5)] {
            let product = try context.insert(Product.self)
            product.name = name
            product.stock = Int32(stock)
        }
        try context.save()
        let request = FetchRequest<Product>(predicate: try ObjectPredicate(format: "stock > 0"),
                                            sortDescriptors: [ObjectSortDescriptor(key: "stock", ascending: false)], fetchLimit: 2)
        let top: TypedFetchedObjects<Product> = try context.fetch(request)
        #expect(top.map(\.name) == ["plate", "jug"])
        #expect(try context.count(for: FetchRequest<Product>(predicate: try ObjectPredicate(format: "stock > 0"))) == 3)
        #expect(request.untyped.entityName == "Product")
        // A key-based request still returns plain managed objects, the same ones.
        let plain = try context.fetch(FetchRequest(entityName: "Product", predicate: try ObjectPredicate(format: "stock > 0"),
                                                   sortDescriptors: [ObjectSortDescriptor(key: "stock", ascending: false)], fetchLimit: 2))
        #expect(plain.map { $0 as AnyObject } .elementsEqual(top.map { $0 as AnyObject }) { $0 === $1 })
    }

    @Test("the build plugin made the all-features model's classes: a sub-entity's class is a subclass of its parent's, and a fetch of the parent returns it, typed as the parent")
    func inheritance() throws {
        let coordinator = PersistentStoreCoordinator(model: try ModelFile.read(ModelFixtures.allFeatures).current)
        ModelClasses.register(in: coordinator)
        try coordinator.addStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let concrete = try context.insert(ConcreteEntity.self)
        #expect(throws: ObjectGraphError.self) { try context.insert(AbstractEntity.self) }
        let all = try context.fetch(AbstractEntity.fetchRequest())
        #expect(all.count == 1 && all.first === concrete)
        #expect(all.first is ConcreteEntity)
        #expect(ConcreteEntity.fetchRequest().entityName == "ConcreteEntity")
        #expect(AbstractEntity.fetchRequest().entityName == "AbstractEntity")

        let from = try context.insert(RelationshipFrom.self)
        let a = try context.insert(RelationshipTo.self), b = try context.insert(RelationshipTo.self)
        from.addToRelationshiopProperties(b)
        from.addToRelationshiopProperties(a)
        #expect(from.relationshiopProperties == [b, a])
        #expect(a.relationship2 === from)
    }

    @Test("a typed fetch or insert for a class that is not registered says what to do")
    func unregistered() throws {
        let coordinator = PersistentStoreCoordinator(model: try ModelFile.read(TypedFixtures.shop).current)
        try coordinator.addStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let error = #expect(throws: ObjectGraphError.self) { try context.fetch(Product.fetchRequest()) }
        #expect("\(error!)".contains("Product objects are made as ManagedObject, not Product: register the class"), "\(error!)")
        #expect(throws: ObjectGraphError.self) { try context.insert(Product.self) }
        // Key-based work needs no class.
        #expect(try context.insertObject(forEntityName: "Product")["name"] == .string("Unnamed \"item\""))
    }
}
