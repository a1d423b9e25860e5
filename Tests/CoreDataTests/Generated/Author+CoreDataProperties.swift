//
//  Author+CoreDataProperties.swift
//  Library
//
//  This file was automatically generated and should not be edited.
//

import CoreData


extension Author {

    public class func fetchRequest() -> NSFetchRequest<Author> {
        return NSFetchRequest<Author>(entityName: "Author")
    }

    @Managed public var born: Date?
    @Managed public var name: String?
    @Managed public var books: NSSet?

}

// MARK: Generated accessors for books
extension Author {

    @ManagedAccessor public func addToBooks(_ value: Book)

    @ManagedAccessor public func removeFromBooks(_ value: Book)

    @ManagedAccessor public func addToBooks(_ values: NSSet)

    @ManagedAccessor public func removeFromBooks(_ values: NSSet)

}

extension Author : Identifiable {

}
