//
//  JournalStore.swift
//  Journal
//

import Foundation
import CoreData

public final class JournalStore {

    let persistence: PersistenceController

    public var viewContext: NSManagedObjectContext { persistence.container.viewContext }

    public init(persistence: PersistenceController) {
        self.persistence = persistence
    }

    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    /// Writes an entry on a background context, as the share extension and the importer do,
    /// and calls back once it is saved.
    public func addEntry(title: String, body: String?, mood: Int16, at date: Date = Date(), completion: @escaping (Error?) -> Void) {
        persistence.container.performBackgroundTask { context in
            context.transactionAuthor = "importer"
            let entry = Entry(context: context)
            entry.title = title
            entry.body = body
            entry.mood = mood
            entry.createdAt = date
            entry.day = JournalStore.dayFormatter.string(from: date)
            do {
                try context.save()
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    public func archive(_ entry: Entry) throws {
        entry.isArchived = true
        try viewContext.save()
    }

    /// Deletes archived entries written before `date` in the store, without loading them,
    /// and takes them out of the view context. Returns how many went.
    @discardableResult
    public func purgeArchived(before date: Date) throws -> Int {
        let fetchRequest: NSFetchRequest<NSFetchRequestResult> = Entry.fetchRequest()
        fetchRequest.predicate = NSPredicate(format: "%K == YES AND %K < %@",
                                             #keyPath(Entry.isArchived), #keyPath(Entry.createdAt), date as NSDate)
        let deleteRequest = NSBatchDeleteRequest(fetchRequest: fetchRequest)
        deleteRequest.resultType = .resultTypeObjectIDs
        let result = try viewContext.execute(deleteRequest) as? NSBatchDeleteResult
        let deletedIDs = result?.result as? [NSManagedObjectID] ?? []
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deletedIDs], into: [viewContext])
        return deletedIDs.count
    }

    /// The list screen's controller: entries by day, newest day first.
    public func makeEntriesController() -> NSFetchedResultsController<Entry> {
        let request: NSFetchRequest<Entry> = Entry.fetchRequest()
        request.predicate = NSPredicate(format: "isArchived == NO")
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Entry.day, ascending: false),
                                   NSSortDescriptor(keyPath: \Entry.createdAt, ascending: true)]
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: viewContext,
                                          sectionNameKeyPath: #keyPath(Entry.day), cacheName: nil)
    }

    public func averageMood() throws -> Double {
        let request: NSFetchRequest<Entry> = Entry.fetchRequest()
        let entries = try viewContext.fetch(request)
        guard !entries.isEmpty else { return 0 }
        return Double(entries.reduce(0) { $0 + Int($1.mood) }) / Double(entries.count)
    }
}
