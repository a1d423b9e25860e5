// A list screen's data source as Core Data code writes it: an NSFetchedResultsController in
// sections, and a delegate that turns each change into row and section updates.
import CoreData
import Foundation
import Testing

/// A delegate as a table view's data source writes one: each call, in order, as text.
final class ChangeLog: NSFetchedResultsControllerDelegate {
    var lines: [String] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        lines.append("begin")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        lines.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let title = (anObject as? Book)?.title ?? "?"
        let place = { (path: IndexPath?) in path.map { "\($0.section).\($0.row)" } ?? "-" }
        lines.append("\(type) \(title) \(place(indexPath))→\(place(newIndexPath))")
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        lines.append("end \(controller.sections?.map { "\($0.name):\($0.numberOfObjects)" }.joined(separator: ",") ?? "")")
    }
}

@Suite("NSFetchedResultsController, as a list screen uses it")
struct FetchedResultsControllerTests {
    /// Books by two authors, saved; a context to list them in.
    func library(in folder: URL) throws -> NSManagedObjectContext {
        let container = try libraryContainer(in: folder)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let butler = Author(context: context), le = Author(context: context)
            butler.name = "Butler"
            le.name = "Le Guin"
            for (title, author) in [("Kindred", butler), ("Dawn", butler), ("The Dispossessed", le)] {
                let book = Book(context: context)
                book.title = title
                book.author = author
            }
            try context.save()
        }
        return context
    }

    func booksByAuthor(in context: NSManagedObjectContext) -> NSFetchedResultsController<Book> {
        let request = NSFetchRequest<Book>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "author.name", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                          sectionNameKeyPath: "author.name", cacheName: nil)
    }

    @Test("the results come in sections by the key path, reached by index paths both ways")
    func sections() throws {
        try withTemporaryFolder { folder in
            let context = try library(in: folder)
            try context.performAndWait { () throws in
                let books = booksByAuthor(in: context)
                #expect(books.fetchedObjects == nil)
                try books.performFetch()
                #expect(books.sections?.map(\.name) == ["Butler", "Le Guin"])
                #expect(books.sections?.map(\.numberOfObjects) == [2, 1])
                #expect(books.fetchedObjects?.map(\.title) == ["Dawn", "Kindred", "The Dispossessed"])
                let dispossessed = books.object(at: IndexPath(row: 0, section: 1))
                #expect(dispossessed.title == "The Dispossessed")
                #expect(books.indexPath(forObject: dispossessed) == IndexPath(row: 0, section: 1))
                #expect(books.sectionIndexTitles == ["B", "L"])
                #expect((books.sections?[0].objects as? [Book])?.map(\.title) == ["Dawn", "Kindred"])

                // A new predicate, fetched again.
                books.fetchRequest.predicate = NSPredicate(format: "title BEGINSWITH %@", "K")
                try books.performFetch()
                #expect(books.fetchedObjects?.map(\.title) == ["Kindred"])
                #expect(books.sections?.map(\.name) == ["Butler"])
            }
        }
    }

    @Test("the delegate hears each change as row and section changes, between will-change and did-change")
    func delegate() throws {
        try withTemporaryFolder { folder in
            let context = try library(in: folder)
            try context.performAndWait { () throws in
                let books = booksByAuthor(in: context)
                let log = ChangeLog()
                books.delegate = log
                try books.performFetch()
                let all = try #require(books.fetchedObjects)
                let (dawn, kindred, dispossessed) = (all[0], all[1], all[2])

                // A new book in an existing section.
                let wildSeed = Book(context: context)
                wildSeed.title = "Wild Seed"
                wildSeed.author = dawn.author
                context.processPendingChanges()
                #expect(log.lines == ["begin", "insert Wild Seed -→0.2", "end Butler:3,Le Guin:1"])

                // A change that keeps the place is an update; one that re-sorts is a move.
                log.lines = []
                dawn.year = 1987
                context.processPendingChanges()
                #expect(log.lines == ["begin", "update Dawn 0.0→0.0", "end Butler:3,Le Guin:1"])
                log.lines = []
                kindred.title = "A Kindred"
                context.processPendingChanges()
                #expect(log.lines == ["begin", "move A Kindred 0.1→0.0", "end Butler:3,Le Guin:1"])

                // A book of a new author makes a section; the last book of one takes it away.
                log.lines = []
                let delany = Author(context: context)
                delany.name = "Delany"
                let dhalgren = Book(context: context)
                dhalgren.title = "Dhalgren"
                dhalgren.author = delany
                context.delete(dispossessed)
                context.processPendingChanges()
                #expect(log.lines == ["begin", "section delete 1 Le Guin", "section insert 1 Delany",
                                      "delete The Dispossessed 1.0→-", "insert Dhalgren -→1.0", "end Butler:3,Delany:1"])

                // Changes to other entities' objects say nothing.
                log.lines = []
                Tag(context: context).name = "classic"
                context.processPendingChanges()
                #expect(log.lines == [])
            }
        }
    }

    @Test("without a section key path there is one section of every result, also when there are none")
    func oneSection() throws {
        try withTemporaryFolder { folder in
            let context = try library(in: folder)
            try context.performAndWait { () throws in
                let request = NSFetchRequest<Book>(entityName: "Book")
                request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: false)]
                let books = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
                try books.performFetch()
                #expect(books.sections?.map(\.numberOfObjects) == [3])
                #expect(books.object(at: IndexPath(item: 2, section: 0)).title == "Dawn")

                request.predicate = NSPredicate(value: false)
                try books.performFetch()
                #expect(books.sections?.map(\.numberOfObjects) == [0])
                #expect(books.fetchedObjects?.isEmpty == true)
            }
        }
    }
}
