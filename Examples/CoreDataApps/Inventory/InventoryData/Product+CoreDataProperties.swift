//
//  Product+CoreDataProperties.swift
//  Inventory
//
//  Created by Inventory on 14/03/2022.
//
//

import Foundation
import CoreData


extension Product {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Product> {
        return NSFetchRequest<Product>(entityName: "Product")
    }

    @NSManaged public var addedAt: Date?
    @NSManaged public var discontinued: Bool
    @NSManaged public var id: UUID?
    @NSManaged public var name: String?
    @NSManaged public var price: Double
    @NSManaged public var sku: String?
    @NSManaged public var stock: Int32
    @NSManaged public var supplier: Supplier?
    @NSManaged public var tags: NSSet?

}

// MARK: Generated accessors for tags
extension Product {

    @objc(addTagsObject:)
    @NSManaged public func addToTags(_ value: Tag)

    @objc(removeTagsObject:)
    @NSManaged public func removeFromTags(_ value: Tag)

    @objc(addTags:)
    @NSManaged public func addToTags(_ values: NSSet)

    @objc(removeTags:)
    @NSManaged public func removeFromTags(_ values: NSSet)

}

extension Product : Identifiable {

}
