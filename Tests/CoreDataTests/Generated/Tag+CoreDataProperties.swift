//
//  Tag+CoreDataProperties.swift
//  Library
//
//  This file was automatically generated and should not be edited.
//

import CoreData


extension Tag {

    public class func fetchRequest() -> NSFetchRequest<Tag> {
        return NSFetchRequest<Tag>(entityName: "Tag")
    }

    @Managed public var name: String?
    @Managed public var books: NSSet?

}

// MARK: Generated accessors for books
extension Tag {

    @ManagedAccessor public func addToBooks(_ value: Book)

    @ManagedAccessor public func removeFromBooks(_ value: Book)

    @ManagedAccessor public func addToBooks(_ values: NSSet)

    @ManagedAccessor public func removeFromBooks(_ values: NSSet)

}

extension Tag : Identifiable {

}
