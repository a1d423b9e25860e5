// Persistent history as an app's data layer reads it: a container whose store tracks history,
// an importer saving on a background context, and the view context merging what others
// saved from the last token it kept (archived between launches), then trimming what it merged.
import CoreData
import Foundation
import Testing

/// A container over a SQLite store that keeps history, loaded.
func trackedLibraryContainer(in folder: URL) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Library")
    let description = NSPersistentStoreDescription(url: folder.appendingPathComponent("Library.sqlite"))
    description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
    description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
    container.persistentStoreDescriptions = [description]
    var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

@MainActor
@Suite("Persistent history requests, as apps merge other writers' changes")
struct PersistentHistoryRequestTests {
    @Test("fetchHistory(after:) with a fetch request leaving out the app's own author gives the importer's transaction; merging its notification refreshes what the view context holds; the token archives; deleteHistory(before:) trims")
    func mergeFromHistory() throws {
        try withTemporaryFolder { folder in
            let container = try trackedLibraryContainer(in: folder)
            let viewContext = container.viewContext
            viewContext.transactionAuthor = "app"
            let seen = Book(context: viewContext)
            seen.title = "Seen here"
            try viewContext.save()
            let start = try #require(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
            let seenID = seen.objectID

            let importer = container.newBackgroundContext()
            importer.transactionAuthor = "importer"
            try importer.performAndWait { () throws in
                for title in ["Dune", "Emma"] { Book(context: importer).title = title }
                (try importer.existingObject(with: seenID) as? Book)?.title = "Renamed by the importer"
                try importer.save()
            }
            Book(context: viewContext).title = "Mine"
            try viewContext.save()

            // The app's token, kept between launches as apps keep it.
            let archived = try NSKeyedArchiver.archivedData(withRootObject: start, requiringSecureCoding: true)
            let lastToken = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: archived))
            #expect(lastToken == start)

            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let transactionsRequest = try #require(NSPersistentHistoryTransaction.fetchRequest)
            transactionsRequest.predicate = NSPredicate(format: "%K != %@", "author", "app")
            request.fetchRequest = transactionsRequest
            let result = try #require(try viewContext.execute(request) as? NSPersistentHistoryResult)
            let transactions = try #require(result.result as? [NSPersistentHistoryTransaction])
            #expect(transactions.map(\.author) == ["importer"])
            let changes = try #require(transactions.first?.changes)
            #expect(changes.filter { $0.changeType == .insert }.count == 2)
            let update = try #require(changes.first { $0.changeType == .update })
            #expect(update.changedObjectID == seenID)
            #expect(update.updatedProperties?.map(\.name) == ["title"])
            #expect(update.transaction === transactions.first)

            // The view context still holds its own value until it merges the transaction.
            #expect(seen.title == "Seen here")
            for transaction in transactions { viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            #expect(seen.title == "Renamed by the importer")

            // Transactions only, chosen by their changes: those that updated something.
            let updating = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let changesRequest = try #require(NSPersistentHistoryChange.fetchRequest)
            changesRequest.predicate = NSPredicate(format: "changeType == %d", NSPersistentHistoryChangeType.update.rawValue)
            updating.fetchRequest = changesRequest
            updating.resultType = .transactionsOnly
            let updatingTransactions = try #require((try viewContext.execute(updating) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
            #expect(updatingTransactions.map(\.author) == ["importer"])
            #expect(updatingTransactions.first?.changes == nil)

            let counting = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            counting.resultType = .count
            #expect((try viewContext.execute(counting) as? NSPersistentHistoryResult)?.result as? Int == 2)
            let changesOnly = NSPersistentHistoryChangeRequest.fetchHistory(after: transactions.last)
            changesOnly.resultType = .changesOnly
            let mine = try #require((try viewContext.execute(changesOnly) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryChange])
            #expect(mine.map(\.changeType) == [.insert], "the app's own save after the importer's")
            #expect(mine.first?.transaction?.author == "app", "a change alone still names its transaction")

            // Trimming what was merged leaves what came after.
            try viewContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: transactions.last))
            let all = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
            let left = try #require((try viewContext.execute(all) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
            #expect(left.map(\.author) == ["app"], "only the app's last save is left")
        }
    }
}
