//
//  InventoryService.swift
//  Inventory
//

import Foundation
import CoreData

/// The inventory's data layer: products, their suppliers and tags, in one SQLite store.
public final class InventoryService {

    public enum ServiceError: Error, Equatable {
        case missingValue(String)
        case saveFailed(code: Int)
    }

    static let model: NSManagedObjectModel = {
        guard let model = NSManagedObjectModel.mergedModel(from: [Bundle.module]) else {
            fatalError("Inventory model not found in the package's resources")
        }
        return model
    }()

    public let container: NSPersistentContainer

    public var viewContext: NSManagedObjectContext { container.viewContext }

    public init(storeURL: URL) {
        container = NSPersistentContainer(name: "Inventory", managedObjectModel: Self.model)
        let description = NSPersistentStoreDescription(url: storeURL)
        description.shouldMigrateStoreAutomatically = true
        description.shouldInferMappingModelAutomatically = true
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { storeDescription, error in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        }
        container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    }

    // MARK: - Adding

    @discardableResult
    public func addSupplier(named name: String) -> Supplier {
        let supplier = Supplier(context: viewContext)
        supplier.name = name
        return supplier
    }

    @discardableResult
    public func addProduct(sku: String?, name: String, stock: Int32, price: Double, supplier: Supplier?) -> Product {
        let product = Product(context: viewContext)
        product.sku = sku
        product.name = name
        product.stock = stock
        product.price = price
        supplier?.addToProducts(product)
        return product
    }

    public func tag(named name: String) throws -> Tag {
        let request: NSFetchRequest<Tag> = Tag.fetchRequest()
        request.predicate = NSPredicate(format: "%K ==[c] %@", #keyPath(Tag.name), name)
        request.fetchLimit = 1
        if let existing = try viewContext.fetch(request).first {
            return existing
        }
        let tag = Tag(context: viewContext)
        tag.name = name
        return tag
    }

    // MARK: - Saving

    /// Saves the view context; a validation failure is reported by its Core Data code and the
    /// changes are kept so the user can fix them.
    public func save() throws {
        guard viewContext.hasChanges else { return }
        do {
            try viewContext.save()
        } catch let error as NSError where error.code == NSValidationMissingMandatoryPropertyError {
            throw ServiceError.missingValue(error.userInfo[NSValidationKeyErrorKey] as? String ?? "?")
        } catch let error as NSError {
            throw ServiceError.saveFailed(code: error.code)
        }
    }

    // MARK: - Queries

    public func products(suppliedBy supplierName: String) throws -> [Product] {
        let request: NSFetchRequest<Product> = Product.fetchRequest()
        request.predicate = NSPredicate(format: "%K == %@", #keyPath(Product.supplier.name), supplierName)
        request.sortDescriptors = [NSSortDescriptor(key: #keyPath(Product.sku), ascending: true)]
        return try viewContext.fetch(request)
    }

    /// Products to reorder: in stock below the threshold and not discontinued, by name.
    public func lowStock(below threshold: Int32) throws -> [Product] {
        let request: NSFetchRequest<Product> = Product.fetchRequest()
        request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "%K < %d", #keyPath(Product.stock), threshold),
            NSPredicate(format: "%K == NO", #keyPath(Product.discontinued)),
        ])
        request.sortDescriptors = [
            NSSortDescriptor(keyPath: \Product.name, ascending: true),
            NSSortDescriptor(key: #keyPath(Product.sku), ascending: true,
                             selector: #selector(NSString.localizedStandardCompare(_:))),
        ]
        return try viewContext.fetch(request)
    }

    public func products(taggedWith tagName: String) throws -> [Product] {
        let request: NSFetchRequest<Product> = Product.fetchRequest()
        request.predicate = NSPredicate(format: "ANY %K ==[c] %@", #keyPath(Product.tags.name), tagName)
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Product.sku, ascending: true)]
        return try viewContext.fetch(request)
    }

    /// The value of everything in stock, computed by the store.
    public func totalUnitsInStock() throws -> Int {
        let sum = NSExpressionDescription()
        sum.name = "units"
        sum.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: \Product.stock)])
        sum.expressionResultType = .integer64AttributeType

        let request = NSFetchRequest<NSDictionary>(entityName: "Product")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [sum]
        let results = try viewContext.fetch(request)
        return (results.first?["units"] as? NSNumber)?.intValue ?? 0
    }

    public func productCount() throws -> Int {
        let request: NSFetchRequest<Product> = Product.fetchRequest()
        return try viewContext.count(for: request)
    }
}
