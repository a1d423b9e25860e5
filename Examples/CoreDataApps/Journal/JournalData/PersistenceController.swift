//
//  PersistenceController.swift
//  Journal
//

import Foundation
import CoreData

public struct PersistenceController {

    public let container: NSPersistentContainer

    /// `inMemory` for previews and tests; otherwise the store is `storeURL`, or the default
    /// location when none is given.
    public init(inMemory: Bool = false, storeURL: URL? = nil) {
        let model = NSManagedObjectModel.mergedModel(from: [Bundle.module])!
        container = NSPersistentContainer(name: "Journal", managedObjectModel: model)
        let description = container.persistentStoreDescriptions.first!
        if inMemory {
            description.type = NSInMemoryStoreType
        } else if let storeURL = storeURL {
            description.url = storeURL
        }
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.loadPersistentStores(completionHandler: { (storeDescription, error) in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        })
        container.viewContext.automaticallyMergesChangesFromParent = true
        container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        container.viewContext.name = "viewContext"
        container.viewContext.transactionAuthor = "app"
    }
}
