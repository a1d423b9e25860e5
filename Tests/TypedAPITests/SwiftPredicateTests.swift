import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// One predicate written twice: as a format string and as Swift's `#Predicate`, with the
/// products it finds in the fixture.
struct PredicatePair: Sendable, CustomTestStringConvertible {
    var format: String
    var swift: Predicate<Product>
    var names: [String]
    var testDescription: String { format }
}

enum PredicateTable {
    static let limit: Int32 = 3
    static let wanted = ["Teapot", "Cup"]
    static let cutoff = Date(timeIntervalSinceReferenceDate: 802_000_000)

    static let pairs: [PredicatePair] = [
        .init(format: "stock > 5", swift: #Predicate { $0.stock > 5 }, names: ["Cup"]),
        .init(format: "name == 'Teapot'", swift: #Predicate { $0.name == "Teapot" }, names: ["Teapot"]),
        .init(format: "stock <= 3", swift: #Predicate { $0.stock <= limit }, names: ["Café crème", "Plate"]),
        .init(format: "price == nil", swift: #Predicate { $0.price == nil }, names: ["Cup"]),
        .init(format: "price != nil AND rating >= 4.0", swift: #Predicate { $0.price != nil && $0.rating! >= 4 }, names: ["Plate", "Teapot"]),
        .init(format: "name CONTAINS 'pot'", swift: #Predicate { $0.name.contains("pot") }, names: ["Teapot"]),
        .init(format: "name BEGINSWITH 'Te'", swift: #Predicate { $0.name.starts(with: "Te") }, names: ["Teapot"]),
        .init(format: "name CONTAINS 'é'", swift: #Predicate { $0.name.contains("é") }, names: ["Café crème"]),
        .init(format: "NOT (active == YES) OR stock == 0", swift: #Predicate { !($0.active == true) || $0.stock == 0 }, names: ["Café crème", "Plate"]),
        .init(format: "active == NO", swift: #Predicate { !$0.active }, names: ["Café crème", "Plate"]),
        .init(format: "active == YES AND tags.@count == 0 OR stock == 3", swift: #Predicate { $0.active && $0.tags.isEmpty || $0.stock == 3 },
              names: ["Plate"]),
        .init(format: "category.title CONTAINS 'itch'", swift: #Predicate { $0.category?.title?.contains("itch") == true }, names: ["Cup", "Teapot"]),
        .init(format: "NOT category.title CONTAINS 'itch'", swift: #Predicate { $0.category?.title?.contains("itch") != true },
              names: ["Café crème", "Plate"]),
        .init(format: "category.title == 'Kitchen'", swift: #Predicate { $0.category?.title == "Kitchen" }, names: ["Cup", "Teapot"]),
        .init(format: "tags.@count >= 2", swift: #Predicate { $0.tags.count >= 2 }, names: ["Teapot"]),
        .init(format: "tags.@count == 0", swift: #Predicate { $0.tags.isEmpty }, names: ["Café crème"]),
        .init(format: "SUBQUERY(tags, $x1, $x1.label == 'sale').@count > 0",
              swift: #Predicate { $0.tags.contains { $0.label == "sale" } }, names: ["Cup", "Teapot"]),
        .init(format: "SUBQUERY(tags, $x1, NOT ($x1.label != 'gift')).@count == 0",
              swift: #Predicate { $0.tags.allSatisfy { $0.label != "gift" } }, names: ["Café crème", "Cup"]),
        .init(format: "stock * 2 > 10", swift: #Predicate { $0.stock * 2 > 10 }, names: ["Cup"]),
        .init(format: "stock + 1 == 4", swift: #Predicate { $0.stock + 1 == 4 }, names: ["Plate"]),
        .init(format: "modulus:by:(stock, 2) == 0", swift: #Predicate { $0.stock % 2 == 0 }, names: ["Café crème", "Cup", "Teapot"]),
        .init(format: "stock BETWEEN {2, 5}", swift: #Predicate { (2...5).contains($0.stock) }, names: ["Plate", "Teapot"]),
        .init(format: "name IN {'Teapot', 'Cup'}", swift: #Predicate { wanted.contains($0.name) }, names: ["Cup", "Teapot"]),
        .init(format: "added < %@", swift: #Predicate { $0.added! < cutoff }, names: ["Teapot"]),
    ]
}

@Suite("Swift predicates and sort descriptors", .serialized)
struct SwiftPredicateTests {
    /// The fixture's four products in a store of each type.
    static func stack(_ type: StoreType) throws -> ManagedObjectContext {
        SQLiteStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFile.read(TypedFixtures.shop).current)
        ShopClasses.register(in: coordinator)
        coordinator.register(Tag.self)
        let url = type == .inMemory ? nil : try Fixtures.temporaryDirectory().appendingPathComponent("shop.\(type.rawValue.lowercased())")
        try coordinator.addStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let kitchen = try context.insert(ShopCategory.self), dining = try context.insert(ShopCategory.self)
        kitchen.title = "Kitchen"
        dining.title = "Dining"
        let gift = try context.insert(Tag.self), sale = try context.insert(Tag.self)
        gift.label = "gift"
        sale.label = "sale"
        func product(_ name: String, stock: Int32, price: String?, rating: Float?, active: Bool, category: ShopCategory?,
                     tags: [Tag], added: Date? = nil) throws {
            let p = try context.insert(Product.self)
            p.name = name
            p.stock = stock
            p.price = price.flatMap { Decimal(string: $0) }
            p.rating = rating
            p.active = active
            p.category = category
            p.tags = Set(tags)
            p.added = added
        }
        try product("Teapot", stock: 4, price: "12.5", rating: 4.5, active: true, category: kitchen, tags: [gift, sale],
                    added: Date(timeIntervalSinceReferenceDate: 788_918_400))
        try product("Cup", stock: 10, price: nil, rating: 3, active: true, category: kitchen, tags: [sale])
        try product("Café crème", stock: 0, price: "3", rating: nil, active: false, category: nil, tags: [])
        try product("Plate", stock: 3, price: "8", rating: 5, active: false, category: dining, tags: [gift])
        try context.save()
        context.reset()
        return context
    }

    static let storeTypes: [StoreType] = [.inMemory, .sqlite, .xml, .binary]

    @Test("each #Predicate is the predicate its format string is, to the SQL, and finds the same products in every store",
          arguments: PredicateTable.pairs)
    func samePredicate(pair: PredicatePair) throws {
        let swift = try ObjectPredicate(pair.swift)
        let format = try ObjectPredicate(format: pair.format, argumentArray: [.date(PredicateTable.cutoff)])
        #expect(swift.predicateFormat == format.predicateFormat)

        let sqlite = try SQLiteStore(model: try ModelFile.read(TypedFixtures.shop).current,
                                     url: try Fixtures.temporaryDirectory().appendingPathComponent("sql.sqlite"))
        func sql(_ predicate: ObjectPredicate) throws -> String {
            let (text, arguments) = try sqlite.sql(for: StoreRequest(fetch: FetchRequest(entityName: "Product", predicate: predicate),
                                                                    entityNames: ["Product"]))
            return text + " " + arguments.joined(separator: ",")
        }
        #expect(try sql(swift) == sql(format))

        for type in Self.storeTypes {
            let context = try Self.stack(type)
            let typed = try context.fetch(try FetchRequest<Product>(pair.swift, sortBy: [SortDescriptor(\.name)])).map(\.name)
            let keyed = try context.fetch(FetchRequest(entityName: "Product", predicate: format,
                                                       sortDescriptors: [ObjectSortDescriptor(key: "name")])).map { $0.string("name")! }
            #expect(typed == pair.names, "\(type)")
            #expect(keyed == pair.names, "\(type)")
        }
    }

    @Test("SortDescriptor orders as the model's key does, forward and reverse, on every store", arguments: storeTypes)
    func sortDescriptors(type: StoreType) throws {
        let context = try Self.stack(type)
        let byStock = try context.fetch(try FetchRequest<Product>(#Predicate { $0.stock > 0 }, sortBy: [SortDescriptor(\.stock, order: .reverse)]))
        #expect(byStock.map(\.name) == ["Cup", "Teapot", "Plate"])
        let byCategory = try context.fetch(try FetchRequest<Product>(nil, sortBy: [SortDescriptor(\.price), SortDescriptor(\.name)]))
        #expect(byCategory.map(\.name) == ["Cup", "Café crème", "Plate", "Teapot"], "nil first, as in Core Data")
        #expect(try ObjectSortDescriptor(SortDescriptor(\Product.name, order: .reverse)) == ObjectSortDescriptor(key: "name", ascending: false))
    }

    @Test("a construct with no Core Data meaning is refused at the call, by name")
    func refusals() throws {
        func refusal(_ predicate: Predicate<Product>) -> String {
            do { _ = try ObjectPredicate(predicate); return "accepted" } catch { return "\(error)" }
        }
        #expect(refusal(#Predicate { ($0.rating ?? 0) > 2 }).hasPrefix("?? (nil-coalescing) cannot be a Core Data predicate"))
        #expect(refusal(#Predicate { ($0.active ? $0.stock : 0) > 2 }).hasPrefix("a ternary (?:) cannot be a Core Data predicate"))
        #expect(refusal(#Predicate { (2..<5).contains($0.stock) }).hasPrefix("a half-open range cannot be a Core Data predicate"))
        #expect(refusal(#Predicate { $0.name.count > 3 }).hasPrefix("a string's count cannot be a Core Data predicate"))
        #expect(refusal(#Predicate { $0.stock / 2 == 1 }).hasPrefix("integer division (/) cannot be a Core Data predicate: Swift drops the fraction"))
        #expect(refusal(#Predicate { $0.tags.count > 1 }) == "accepted", "a to-many's count is @count")
    }
}
