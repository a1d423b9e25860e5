//
//  Entry+CoreDataProperties.swift
//  Journal
//
//  Created by Journal on 11/10/2019.
//
//

import Foundation
import CoreData


extension Entry {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Entry> {
        return NSFetchRequest<Entry>(entityName: "Entry")
    }

    @NSManaged public var body: String?
    @NSManaged public var createdAt: Date?
    @NSManaged public var day: String?
    @NSManaged public var isArchived: Bool
    @NSManaged public var mood: Int16
    @NSManaged public var title: String?

}
