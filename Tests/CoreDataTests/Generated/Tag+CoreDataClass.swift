//
//  Tag+CoreDataClass.swift
//  Library
//
//  This file was automatically generated and should not be edited.
//

import CoreData

public class Tag: NSManagedObject {

}
