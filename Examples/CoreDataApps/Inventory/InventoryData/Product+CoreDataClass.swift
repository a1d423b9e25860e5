//
//  Product+CoreDataClass.swift
//  Inventory
//
//  Created by Inventory on 14/03/2022.
//
//

import Foundation
import CoreData

@objc(Product)
public class Product: NSManagedObject {

    public override func awakeFromInsert() {
        super.awakeFromInsert()
        id = UUID()
        addedAt = Date()
    }

    /// Stock value at the current price.
    public var stockValue: Double {
        Double(stock) * price
    }
}
