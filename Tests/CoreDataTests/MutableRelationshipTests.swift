// Relationships changed through Key-Value Coding's mutable collections, as older Core Data code
// (and code generic over entities) does: `mutableSetValue(forKey:)`.
import CoreData
import Foundation
import Testing

@MainActor
@Suite("mutableSetValue(forKey:): a live set of a relationship")
struct MutableRelationshipTests {
    @Test("adding to and removing from the set changes the relationship and its inverse; the set reads the relationship as it is now; the save keeps it")
    func mutableSet() throws {
        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let context = container.viewContext
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue("Le Guin", forKey: "name")
            let books = author.mutableSetValue(forKey: "books")
            #expect(books.count == 0)
            let earthsea = Book(context: context), lathe = Book(context: context)
            earthsea.title = "Earthsea"
            lathe.title = "The Lathe of Heaven"
            books.add(earthsea)
            books.add(lathe)
            books.add(earthsea)
            #expect(books.count == 2)
            #expect((author.value(forKey: "books") as? NSSet)?.count == 2)
            #expect(earthsea.value(forKey: "author") as? NSManagedObject === author, "the inverse follows")
            #expect(books.contains(lathe))
            #expect(Set(books.compactMap { ($0 as? Book)?.title }) == ["Earthsea", "The Lathe of Heaven"], "iterated")
            #expect(Set((books.allObjects as? [Book] ?? []).map(\.title)) == ["Earthsea", "The Lathe of Heaven"])

            books.remove(lathe)
            #expect(lathe.value(forKey: "author") == nil)
            // The set is live: a change made another way shows in it.
            lathe.setValue(author, forKey: "author")
            #expect(books.count == 2)
            #expect(books.member(lathe) as? Book === lathe)
            try context.save()

            let other = container.newBackgroundContext()
            let titles = try other.performAndWait { () throws -> [String] in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
                let saved = try #require(try other.fetch(request).first)
                return (saved.mutableSetValue(forKey: "books").allObjects as? [NSManagedObject] ?? []).compactMap { $0.value(forKey: "title") as? String }.sorted()
            }
            #expect(titles == ["Earthsea", "The Lathe of Heaven"])
        }
    }
}
