// A data layer's plumbing as Core Data code writes it: contexts that tell each other of their
// saves through NotificationCenter, and batch requests whose IDs are merged into the view
// context afterwards.
import CoreData
import Foundation
import Testing

/// A container over a SQLite store in `folder`, loaded.
func libraryContainer(in folder: URL) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Library")
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: folder.appendingPathComponent("Library.sqlite"))]
    var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

/// Books with these titles, saved by a context of their own; their IDs.
func saveBooks(_ titles: [String], years: [Int16]? = nil, in container: NSPersistentContainer) throws -> [NSManagedObjectID] {
    let context = container.newBackgroundContext()
    return try context.performAndWait { () throws in
        let books = titles.enumerated().map { index, title in
            let book = Book(context: context)
            book.title = title
            book.year = years?[index] ?? 2000
            return book
        }
        try context.save()
        return books.map(\.objectID)
    }
}

/// The notifications of one name a context posts, gathered until `stop()`.
final class Gathered: @unchecked Sendable {
    // Appended on the posting context's queue, read by the test after that context's work
    // is done (performAndWait returned): no two threads touch it at once.
    private(set) var notifications: [Notification] = []
    private var token: NSObjectProtocol?

    init(_ name: Notification.Name, from context: NSManagedObjectContext) {
        token = NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [unowned self] note in
            notifications.append(note)
        }
    }

    func stop() {
        if let token { NotificationCenter.default.removeObserver(token) }
        token = nil
    }

    deinit { stop() }
}

@Suite("Core Data's notifications, posted to NotificationCenter as apps observe them")
struct ContextNotificationTests {
    @Test("a save posts will-save, then did-save with the saved objects, then did-save-object-IDs with their permanent IDs")
    func saveNotifications() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let context = container.newBackgroundContext()
            let willSave = Gathered(.NSManagedObjectContextWillSave, from: context)
            let didSave = Gathered(NSManagedObjectContext.didSaveObjectsNotification, from: context)
            let didSaveIDs = Gathered(.NSManagedObjectContextDidSaveObjectIDs, from: context)
            var titles: Set<String> = []
            try context.performAndWait { () throws in
                for title in ["Kindred", "Dawn"] { Book(context: context).title = title }
                try context.save()
                let note = try #require(didSave.notifications.first)
                let inserted = try #require(note.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>)
                titles = Set(inserted.compactMap { ($0 as? Book)?.title })
                #expect(note.userInfo?[NSDeletedObjectsKey] == nil)
                #expect(note.object as? NSManagedObjectContext === context)
            }
            #expect(titles == ["Kindred", "Dawn"])
            #expect(willSave.notifications.count == 1)
            let ids = try #require(didSaveIDs.notifications.first?.userInfo?[NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue]
                                   as? Set<NSManagedObjectID>)
            #expect(ids.count == 2)
            #expect(ids.allSatisfy { !$0.isTemporaryID })
        }
    }

    @Test("processing pending changes posts objects-did-change with the inserted, updated and deleted objects")
    func objectsDidChange() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let ids = try saveBooks(["Parable of the Sower", "Wild Seed"], in: container)
            let context = container.newBackgroundContext()
            let changed = Gathered(NSManagedObjectContext.didChangeObjectsNotification, from: context)
            try context.performAndWait { () throws in
                let sower = try #require(try context.existingObject(with: ids[0]) as? Book)
                let seed = try context.existingObject(with: ids[1])
                sower.year = 1993
                context.delete(seed)
                Book(context: context).title = "Fledgling"
                context.processPendingChanges()
            }
            let info = try #require(changed.notifications.last?.userInfo)
            context.performAndWait {
                #expect((info[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.compactMap { ($0 as? Book)?.title } == ["Fledgling"])
            }
            #expect((info[NSUpdatedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) == [ids[0]])
            #expect((info[NSDeletedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) == [ids[1]])
        }
    }

    @Test("another context merges a save from its notification: new objects appear, changed ones show the new values, deleted ones go")
    func mergeFromNotification() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let ids = try saveBooks(["Kindred", "Dawn"], years: [1979, 1987], in: container)
            let reader = container.newBackgroundContext()
            let writer = container.newBackgroundContext()
            // The reader holds both books before the writer changes them.
            let held = try reader.performAndWait { try ids.map { try reader.existingObject(with: $0) as! Book } }

            let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) { note in
                reader.performAndWait { reader.mergeChanges(fromContextDidSave: note) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try writer.performAndWait { () throws in
                let kindred = try writer.existingObject(with: ids[0]) as! Book
                kindred.title = "Kindred (1979)"
                writer.delete(try writer.existingObject(with: ids[1]))
                Book(context: writer).title = "Adulthood Rites"
                try writer.save()
            }

            try reader.performAndWait { () throws in
                #expect(held[0].title == "Kindred (1979)")
                #expect(held[1].isDeleted || held[1].managedObjectContext == nil)
                let titles = try reader.fetch(NSFetchRequest<Book>(entityName: "Book")).map(\.title).sorted()
                #expect(titles == ["Adulthood Rites", "Kindred (1979)"])
            }
        }
    }
}

@Suite("Batch requests through execute(_:), merged as apps merge them")
struct BatchRequestTests {
    @Test("a batch delete returns the deleted objects' IDs, and merging them takes the objects out of the view context")
    func batchDelete() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            _ = try saveBooks(["Old 1", "Old 2", "New"], years: [1950, 1960, 2020], in: container)
            let view = container.newBackgroundContext()
            let old = try view.performAndWait { () throws in
                let request = NSFetchRequest<Book>(entityName: "Book")
                request.predicate = NSPredicate(format: "year < 2000")
                return try view.fetch(request)
            }
            #expect(old.count == 2)

            let background = container.newBackgroundContext()
            let ids = try background.performAndWait { () throws in
                let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
                fetch.predicate = NSPredicate(format: "year < %d", 2000)
                let delete = NSBatchDeleteRequest(fetchRequest: fetch)
                delete.resultType = .resultTypeObjectIDs
                let result = try background.execute(delete) as? NSBatchDeleteResult
                return result?.result as? [NSManagedObjectID] ?? []
            }
            #expect(Set(ids) == Set(old.map(\.objectID)))

            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [view])
            try view.performAndWait { () throws in
                #expect(old.allSatisfy { $0.isDeleted || $0.managedObjectContext == nil })
                #expect(try view.count(for: NSFetchRequest<Book>(entityName: "Book")) == 1)
            }
        }
    }

    @Test("a batch delete by object IDs deletes those objects and no others, and counts them")
    func batchDeleteByIDs() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let ids = try saveBooks(["A", "B", "C"], in: container)
            let context = container.newBackgroundContext()
            try context.performAndWait { () throws in
                let delete = NSBatchDeleteRequest(objectIDs: [ids[0], ids[2]])
                delete.resultType = .resultTypeCount
                #expect((try context.execute(delete) as? NSBatchDeleteResult)?.result as? Int == 2)
                #expect(try context.fetch(NSFetchRequest<Book>(entityName: "Book")).map(\.title) == ["B"])
            }
        }
    }

    @Test("a batch update sets values in the store; merged as updates, the view context's objects show them")
    func batchUpdate() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            _ = try saveBooks(["Kindred", "Dawn", "Fledgling"], years: [1979, 1987, 2005], in: container)
            let view = container.newBackgroundContext()
            let books = try view.performAndWait { () throws in
                let request = NSFetchRequest<Book>(entityName: "Book")
                request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
                return try view.fetch(request)
            }
            let update = NSBatchUpdateRequest(entityName: "Book")
            update.predicate = NSPredicate(format: "year < 2000")
            update.propertiesToUpdate = ["isRead": true, "rating": 4.5]
            update.resultType = .updatedObjectIDsResultType
            let background = container.newBackgroundContext()
            let ids = try background.performAndWait { try background.execute(update) as? NSBatchUpdateResult }?.result as? [NSManagedObjectID]
            #expect(ids?.count == 2)

            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids ?? []], into: [view])
            view.performAndWait {
                #expect(books.map(\.isRead) == [true, true, false])
                #expect(books.map { $0.value(forKey: "rating") as? Double } == [4.5, 4.5, 0])
            }
        }
    }

    @Test("a batch insert writes dictionaries as objects with the model's defaults, from a list or a handler")
    func batchInsert() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let context = container.newBackgroundContext()
            try context.performAndWait { () throws in
                let insert = NSBatchInsertRequest(entityName: "Book", objects: [["title": "Kindred", "year": 1979], ["title": "Dawn"]])
                insert.resultType = .count
                #expect((try context.execute(insert) as? NSBatchInsertResult)?.result as? Int == 2)

                var next = 0
                let handled = NSBatchInsertRequest(entityName: "Book") { object in
                    next += 1
                    guard next <= 3 else { return true }
                    object["title"] = "Xenogenesis \(next)"
                    return false
                }
                handled.resultType = .objectIDs
                let ids = (try context.execute(handled) as? NSBatchInsertResult)?.result as? [NSManagedObjectID]
                #expect(ids?.count == 3)

                let request = NSFetchRequest<Book>(entityName: "Book")
                request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
                let books = try context.fetch(request)
                #expect(books.map(\.title) == ["Dawn", "Kindred", "Xenogenesis 1", "Xenogenesis 2", "Xenogenesis 3"])
                #expect(books.map(\.year) == [0, 1979, 0, 0, 0])
            }
        }
    }

    @Test("a store that runs no batch requests refuses one, saying which stores do, and nothing changes")
    func unsupportedStore() throws {
        let container = NSPersistentContainer(name: "Library")
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, _ in }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            Book(context: context).title = "Kindred"
            try context.save()
            let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Book"))
            let error = #expect(throws: (any Error).self) { try context.execute(delete) }
            #expect("\(error.map { "\($0)" } ?? "")".contains("runs no batch requests"))
            #expect(try context.count(for: NSFetchRequest<Book>(entityName: "Book")) == 1)
        }
    }
}

@MainActor
@Suite("NSPersistentStoreDescription's options")
struct StoreDescriptionOptionTests {
    @Test("an option set with setOption and its property are one setting; a store made read-only by the option refuses a save")
    func optionsAreProperties() throws {
        let description = NSPersistentStoreDescription()
        #expect(!description.isReadOnly)
        #expect(description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically)
        description.setOption(false as NSNumber, forKey: NSInferMappingModelAutomaticallyOption)
        #expect(!description.shouldInferMappingModelAutomatically)
        description.shouldMigrateStoreAutomatically = false
        #expect((description.options[NSMigratePersistentStoresAutomaticallyOption] as? NSNumber)?.boolValue == false)

        try withTemporaryFolder { folder in
            _ = try saveBooks(["Kindred"], in: try libraryContainer(in: folder))
            let readOnly = NSPersistentStoreDescription(url: folder.appendingPathComponent("Library.sqlite"))
            readOnly.setOption(true as NSNumber, forKey: NSReadOnlyPersistentStoreOption)
            #expect(readOnly.isReadOnly)
            let container = NSPersistentContainer(name: "Library")
            container.persistentStoreDescriptions = [readOnly]
            var loadError: (any Error)?
            container.loadPersistentStores { _, error in loadError = error }
            #expect(loadError == nil)
            let context = container.viewContext
            #expect(try context.count(for: NSFetchRequest<Book>(entityName: "Book")) == 1)
            Book(context: context).title = "Beloved"
            #expect(throws: (any Error).self, "the option made the store read-only") { try context.save() }
        }
    }
}
