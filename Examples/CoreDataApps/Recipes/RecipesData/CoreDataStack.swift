//
//  CoreDataStack.swift
//  Recipes
//
//  Created by Recipes on 2/11/15.
//

import Foundation
import CoreData

/// The Core Data stack, built by hand: model, coordinator, SQLite store, a main-queue
/// context for the UI and a private-queue context for imports.
public class CoreDataStack {

    public let storeURL: URL

    public init(storeURL: URL) {
        self.storeURL = storeURL
    }

    public lazy var managedObjectModel: NSManagedObjectModel = {
        // The model is a resource of this module.
        return NSManagedObjectModel.mergedModel(from: [Bundle.module])!
    }()

    public lazy var persistentStoreCoordinator: NSPersistentStoreCoordinator = {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: self.managedObjectModel)
        let options = [NSMigratePersistentStoresAutomaticallyOption: true,
                       NSInferMappingModelAutomaticallyOption: true]
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: self.storeURL, options: options)
        } catch let error as NSError {
            NSLog("Unresolved error \(error), \(error.userInfo)")
            abort()
        }
        return coordinator
    }()

    public lazy var managedObjectContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = self.persistentStoreCoordinator
        return context
    }()

    /// A private-queue child of the main context, for work off the main thread.
    public func newImportContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.parent = managedObjectContext
        return context
    }

    public func saveContext() {
        let context = managedObjectContext
        if context.hasChanges {
            do {
                try context.save()
            } catch let error as NSError {
                NSLog("Unresolved error \(error), \(error.userInfo)")
                abort()
            }
        }
    }
}
