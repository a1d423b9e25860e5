import CoreData
import Testing

/// Errors as Core Data code reads them: `NSError`s in Cocoa's domain, with Core Data's codes
/// and `userInfo` keys.
@MainActor
@Suite("Core Data's errors: NSError codes and userInfo keys")
struct CoreDataErrorTests {
    @Test("a required value left out fails the save with NSValidationMissingMandatoryPropertyError, naming the object and key; the store keeps nothing")
    func missingValue() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            let context = try libraryContext(at: url)
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue(nil, forKey: "name")
            do {
                try context.save()
                Issue.record("the save went through")
            } catch {
                // As `termdata port` writes `catch let error as NSError`: on Linux only `as NSError` bridges.
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.code == NSValidationMissingMandatoryPropertyError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect((error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === author)
                #expect(error.localizedDescription.contains("name is required"))
            }
            #expect(context.hasChanges)
            let other = try libraryContext(at: url)
            #expect(try other.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Author")) == 0)
        }
    }

    @Test("several failures together are NSValidationMultipleErrorsError, one error for each under NSDetailedErrorsKey")
    func severalFailures() throws {
        try withTemporaryFolder { folder in
            let context = try libraryContext(at: folder.appendingPathComponent("Library.sqlite"))
            for entity in ["Author", "Tag"] {
                NSEntityDescription.insertNewObject(forEntityName: entity, into: context).setValue(nil, forKey: "name")
            }
            #expect {
                try context.save()
            } throws: { error in
                let error = error as NSError
                let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                return error.code == NSValidationMultipleErrorsError
                    && details.map(\.code) == [NSValidationMissingMandatoryPropertyError, NSValidationMissingMandatoryPropertyError]
                    && Set(details.compactMap { ($0.userInfo[NSValidationObjectErrorKey] as? NSManagedObject)?.entity.name }) == ["Author", "Tag"]
            }
        }
    }

    @Test("a store file that is not a store fails to load with Foundation's code for a damaged file")
    func notAStore() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            try Data("a shopping list, not a database\n".utf8).write(to: url)
            let model = try #require(NSManagedObjectModel(contentsOf: libraryModelURL))
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            #expect {
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            } throws: { error in
                let error = error as NSError
                return error.domain == NSCocoaErrorDomain && error.code == NSFileReadCorruptFileError
            }
            #expect(try Data(contentsOf: url) == Data("a shopping list, not a database\n".utf8))
        }
    }
}
