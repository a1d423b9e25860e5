//
//  Tag+CoreDataClass.swift
//  Inventory
//
//  Created by Inventory on 14/03/2022.
//
//

import Foundation
import CoreData

@objc(Tag)
public class Tag: NSManagedObject {

}
