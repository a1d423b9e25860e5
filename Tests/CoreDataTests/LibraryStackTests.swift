// A small library's data layer as Core Data code writes it, under `import CoreData` alone:
// an old coordinator stack, a container with a background task, a subclass with accessors
// written by hand over `value(forKey:)` beside Xcode's generated ones, fetch requests of
// every result type.
import CoreData
import Testing

/// A class written by hand, as older apps wrote them: accessors over `value(forKey:)`.
/// (Author and Tag are Xcode's generated classes, in Generated/.)
public final class Book: NSManagedObject {
    var title: String {
        get { value(forKey: "title") as? String ?? "" }
        set { setValue(newValue, forKey: "title") }
    }
    var year: Int16 {
        get { value(forKey: "year") as? Int16 ?? 0 }
        set { setValue(newValue, forKey: "year") }
    }
    var isRead: Bool {
        get { value(forKey: "isRead") as? Bool ?? false }
        set { setValue(newValue, forKey: "isRead") }
    }
    var author: Author? {
        get { value(forKey: "author") as? Author }
        set { setValue(newValue, forKey: "author") }
    }
    var added: Date? { value(forKey: "added") as? Date }
    /// Transformable, `NSSecureUnarchiveFromDataTransformer`, custom class `[String]`.
    var keywords: [String]? {
        get { value(forKey: "keywords") as? [String] }
        set { setValue(newValue, forKey: "keywords") }
    }

    public override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Date(), forKey: "added")
    }

    public override func awakeFromFetch() {
        super.awakeFromFetch()
        if title.isEmpty { setPrimitiveValue("(untitled)", forKey: "title") }
    }

    class func unread() -> NSFetchRequest<Book> {
        let request = NSFetchRequest<Book>(entityName: "Book")
        request.predicate = NSPredicate(format: "isRead == NO")
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        return request
    }
}

/// An app's own class in a transformable attribute (`UIColor`'s place on Apple's systems).
final class Swatch: NSObject, NSSecureCoding {
    static let supportsSecureCoding = true
    let hex: String
    init(hex: String) { self.hex = hex }
    required init?(coder: NSCoder) {
        guard let hex = coder.decodeObject(of: NSString.self, forKey: "hex") else { return nil }
        self.hex = hex as String
    }
    func encode(with coder: NSCoder) { coder.encode(hex as NSString, forKey: "hex") }
}

/// The app's transformer for it, as apps write one since iOS 12.
// Restated as Swift asks of a subclass of ValueTransformer: it holds no state.
final class SwatchTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override class var allowedTopLevelClasses: [AnyClass] { [Swatch.self] }
}

/// A transformer of the older kind: forward makes the stored data, reverse reads it.
// Restated as Swift asks of a subclass of ValueTransformer: it holds no state.
final class ShoutTransformer: ValueTransformer, @unchecked Sendable {
    override class func transformedValueClass() -> AnyClass { NSData.self }
    override func transformedValue(_ value: Any?) -> Any? { (value as? String).map { Data($0.uppercased().utf8) } }
    override func reverseTransformedValue(_ value: Any?) -> Any? { (value as? Data).map { String(decoding: $0, as: UTF8.self) } }
}

/// The model, as an app's tests find it: in the test bundle's resources.
let libraryModelURL = Bundle.module.url(forResource: "Library", withExtension: "xcdatamodeld")!

/// A folder of its own for each test's store files, removed after.
func withTemporaryFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
}

/// The stack apps had before containers: model, coordinator, store, main-queue context.
@MainActor
func libraryContext(at url: URL) throws -> NSManagedObjectContext {
    let model = try #require(NSManagedObjectModel(contentsOf: libraryModelURL))
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                       options: [NSMigratePersistentStoresAutomaticallyOption: true,
                                                 NSInferMappingModelAutomaticallyOption: true])
    let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return context
}

@MainActor
@Suite("A Core Data stack written as apps write it, on a real SQLite file")
struct LibraryStackTests {
    @Test("an old coordinator stack saves subclass objects to SQLite, and a new stack fetches them back as those classes")
    func oldCoordinatorStack() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            let context = try libraryContext(at: url)
            let le = Author(context: context)
            le.name = "Ursula K. Le Guin"
            for (title, year) in [("The Dispossessed", 1974), ("The Left Hand of Darkness", 1969), ("The Lathe of Heaven", 1971)] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context) as! Book
                book.title = title
                book.year = Int16(year)
                book.author = le
            }
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("classic", forKey: "name")
            tag.setValue(le.books, forKey: "books")
            #expect(le.books?.count == 3, "the inverse of author is kept")
            #expect(context.hasChanges)
            #expect((le.books as? Set<Book>)?.allSatisfy { $0.added != nil } == true, "awakeFromInsert ran for each book")
            try context.save()
            #expect(!context.hasChanges && !le.objectID.isTemporaryID)

            let reopened = try libraryContext(at: url)
            let unread = try reopened.fetch(Book.unread())
            #expect(unread.map(\.title) == ["The Left Hand of Darkness", "The Lathe of Heaven", "The Dispossessed"])
            #expect(unread.map(\.year) == [1969, 1971, 1974])
            #expect(unread.first?.author?.name == "Ursula K. Le Guin", "a to-one relationship gives the Author subclass")

            // An untyped fetch makes each entity's objects as the class its model names, found by name.
            let authors = try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
            #expect(authors.count == 1 && authors.first is Author)
            let tags = try reopened.fetch(NSFetchRequest<NSFetchRequestResult>(entityName: "Tag")) as! [NSManagedObject]
            #expect(tags.count == 1 && tags[0] is Tag)
            #expect((tags[0].value(forKey: "books") as? Set<Book>)?.count == 3, "a to-many relationship reads as an NSSet of its objects")
        }
    }

    @Test("values read as Core Data gives them: NSNumber for numbers and Booleans, NSNull in committed values, changes listed")
    func keyValueCoding() throws {
        try withTemporaryFolder { folder in
            let context = try libraryContext(at: folder.appendingPathComponent("Library.sqlite"))
            let book = Book(context: context)
            book.title = "Kindred"
            book.year = 1979
            #expect(book.value(forKey: "year") is NSNumber)
            #expect(book.value(forKey: "year") as? Int == 1979 && book.value(forKey: "year") as? Int64 == 1979)
            #expect(book.value(forKey: "isRead") as? Bool == false)
            #expect(book.value(forKey: "author") == nil)
            #expect(book.entity.name == "Book" && book.entity.attributesByName["year"]?.attributeType == .integer16AttributeType)
            #expect(book.entity.relationshipsByName["author"]?.inverseRelationship?.name == "books")
            #expect(book.entity.relationshipsByName["author"]?.destinationEntity?.relationshipsByName["books"]?.deleteRule == .cascadeDeleteRule)
            try context.save()

            book.isRead = true
            #expect(book.changedValues().keys.sorted() == ["isRead"])
            #expect(book.changedValues()["isRead"] as? Bool == true)
            #expect(book.committedValues(forKeys: ["isRead", "author"])["isRead"] as? Bool == false)
            #expect(book.committedValues(forKeys: ["author"])["author"] is NSNull)
            #expect(book.isUpdated && book.hasPersistentChangedValues)

            let uri = book.objectID.uriRepresentation()
            let id = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri))
            #expect(try context.existingObject(with: id) === book)
            #expect(Book.entity().name == "Book", "a class finds its entity in the model in use")

            book.setValue("Octavia E. Butler", forKeyPath: "author.name")
            #expect(book.author == nil, "a key path through nil sets nothing, as in Core Data")
            let untitled = Book(context: context)
            untitled.year = 2000
            try context.save()
            let reopened = try libraryContext(at: folder.appendingPathComponent("Library.sqlite"))
            let request = NSFetchRequest<Book>(entityName: "Book")
            request.predicate = NSPredicate(format: "year == 2000")
            let fetched = try #require(try reopened.fetch(request).first)
            #expect(fetched.title == "(untitled)", "awakeFromFetch set the value")
            #expect(!fetched.hasChanges && !reopened.hasChanges, "a primitive value set in awakeFromFetch is no change, as in Core Data")
        }
    }

    @Test("a transformable [String] under NSSecureUnarchiveFromDataTransformer is saved as Foundation's keyed archive and read back as the array")
    func transformableArray() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            let context = try libraryContext(at: url)
            let book = Book(context: context)
            book.title = "Dune"
            book.keywords = ["desert", "spice"]
            #expect(book.keywords == ["desert", "spice"], "read back before the save, as set")
            try context.save()

            let reopened = try libraryContext(at: url)
            let again = try #require(try reopened.fetch(NSFetchRequest<Book>(entityName: "Book")).first)
            #expect(again.keywords == ["desert", "spice"])
            #expect(again.value(forKey: "keywords") is [Any], "an array, as NSSecureUnarchiveFromData gives it")
            #expect(again.committedValues(forKeys: ["keywords"])["keywords"] as? [String] == ["desert", "spice"])
            again.keywords = nil
            try reopened.save()
            let third = try libraryContext(at: url)
            #expect(try third.fetch(NSFetchRequest<Book>(entityName: "Book")).first?.keywords == nil)
        }
    }

    @Test("an app's own class in a transformable attribute reads and saves through the ValueTransformer registered under the model's name")
    func registeredValueTransformers() throws {
        ValueTransformer.setValueTransformer(SwatchTransformer(), forName: NSValueTransformerName("SwatchTransformer"))
        ValueTransformer.setValueTransformer(ShoutTransformer(), forName: NSValueTransformerName("ShoutTransformer"))
        #expect(ValueTransformer.valueTransformerNames().contains(NSValueTransformerName("SwatchTransformer")))
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            let context = try libraryContext(at: url)
            let book = Book(context: context)
            book.setValue(Swatch(hex: "6343E2"), forKey: "jacket")
            book.setValue("quiet", forKey: "shout")
            try context.save()

            let reopened = try libraryContext(at: url)
            let again = try #require(try reopened.fetch(NSFetchRequest<Book>(entityName: "Book")).first)
            #expect((again.value(forKey: "jacket") as? Swatch)?.hex == "6343E2")
            let jacket: Swatch? = again.managedValue(forKey: "jacket")
            #expect(jacket?.hex == "6343E2", "a @Managed property of the class reads it too")
            #expect(again.value(forKey: "shout") as? String == "QUIET", "stored as the forward transform made it, read back by the reverse")
            again.setManagedValue(Swatch(hex: "FFFFFF"), forKey: "jacket")
            #expect((again.value(forKey: "jacket") as? Swatch)?.hex == "FFFFFF")
            again.setValue(nil, forKey: "jacket")
            #expect(again.value(forKey: "jacket") == nil)
            // Every path goes through the registered transformer: the primitive setter, and the
            // generic @Managed accessors (a String through the older kind of transformer).
            again.setPrimitiveValue(Swatch(hex: "000000"), forKey: "jacket")
            #expect((again.value(forKey: "jacket") as? Swatch)?.hex == "000000")
            again.setManagedValue("loud" as String?, forKey: "shout")
            let shout: String? = again.managedValue(forKey: "shout")
            #expect(shout == "LOUD")
        }
    }

    @Test("a child context made without a parent is given one, and its save reaches the parent, not the store")
    func childContext() throws {
        try withTemporaryFolder { folder in
            let context = try libraryContext(at: folder.appendingPathComponent("Library.sqlite"))
            let book = Book(context: context)
            book.title = "Parable of the Sower"
            try context.save()

            let child = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            #expect(child.persistentStoreCoordinator == nil)
            child.parent = context
            #expect(child.persistentStoreCoordinator === context.persistentStoreCoordinator)
            let draft = child.object(with: book.objectID) as! Book
            draft.isRead = true
            try child.save()
            #expect(book.isRead && context.hasChanges, "the child's save is in the parent, unsaved")
            #expect(try context.count(for: Book.unread()) == 0)
        }
    }

    @Test("a private-queue context is given its coordinator and parent on the thread that made it, as apps do, then used in perform")
    func privateContextSetUpOffItsQueue() throws {
        try withTemporaryFolder { folder in
            let context = try libraryContext(at: folder.appendingPathComponent("Library.sqlite"))
            Book(context: context).title = "Wild Seed"
            try context.save()

            let importer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            importer.persistentStoreCoordinator = context.persistentStoreCoordinator
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = importer
            let counts = try [importer, child].map { background in
                try background.performAndWait { try background.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Book")) }
            }
            #expect(counts == [1, 1])
        }
    }

    @Test("Xcode's generated classes with @Managed: properties read and write the object's values, to-many accessors keep inverses")
    func generatedClasses() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            let context = try libraryContext(at: url)
            let butler = Author(context: context)
            #expect(butler.name == "", "the model's default value, as a generated String? reads it")
            #expect(butler.born == nil)
            butler.name = "Octavia E. Butler"
            butler.born = Date(timeIntervalSinceReferenceDate: -1_000_000_000)
            let kindred = Book(context: context)
            kindred.title = "Kindred"
            let dawn = Book(context: context)
            dawn.title = "Dawn"
            butler.addToBooks(kindred)
            butler.addToBooks(NSSet(array: [dawn]))
            #expect(kindred.author === butler && dawn.author === butler, "adding to books sets each book's author")
            #expect(butler.books?.count == 2)
            let classics = Tag(context: context)
            classics.name = "classics"
            classics.addToBooks(kindred)
            try context.save()

            let reopened = try libraryContext(at: url)
            let request: NSFetchRequest<Author> = Author.fetchRequest()
            request.predicate = NSPredicate(format: "ANY books.title == %@", "Dawn")
            let found = try #require(try reopened.fetch(request).first)
            #expect(found.name == "Octavia E. Butler" && found.born == Date(timeIntervalSinceReferenceDate: -1_000_000_000))
            let books = try #require(found.books as? Set<Book>)
            #expect(books.map(\.title).sorted() == ["Dawn", "Kindred"])
            let readKindred = try #require(books.first { $0.title == "Kindred" })
            found.removeFromBooks(readKindred)
            #expect(readKindred.author == nil, "removing from books clears the book's author")
            #expect(found.books?.count == 1 && found.hasChanges)
            let tagRequest: NSFetchRequest<Tag> = Tag.fetchRequest()
            #expect(try reopened.fetch(tagRequest).first?.books?.count == 1)
        }
    }

    @Test("a context given no coordinator says so when it fetches, instead of finding nothing")
    func unattachedContext() {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        #expect(throws: (any Error).self) { try context.fetch(NSFetchRequest<Book>(entityName: "Book")) }
        do {
            _ = try context.fetch(NSFetchRequest<Book>(entityName: "Book"))
        } catch {
            #expect("\(error)".contains("no persistentStoreCoordinator"), "\(error)")
        }
    }
}

@MainActor
@Suite("NSPersistentContainer as apps use it")
struct LibraryContainerTests {
    @Test("init(name:) finds the model among the program's resources; a background task's save is fetched on the view context")
    func containerWithBackgroundTask() async throws {
        let container = NSPersistentContainer(name: "Library")
        #expect(container.managedObjectModel.entitiesByName.keys.sorted() == ["Author", "Book", "Tag"])
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)

        try await container.performBackgroundTask { context in
            for i in 1...5 {
                let book = Book(context: context)
                book.title = "Book \(i)"
                book.year = Int16(2000 + i)
                book.isRead = i % 2 == 0
            }
            try context.save()
        }
        let context = container.viewContext
        #expect(try context.count(for: NSFetchRequest<Book>(entityName: "Book")) == 5)
        #expect(try context.fetch(Book.unread()).map(\.year) == [2001, 2003, 2005])

        let byYear = NSFetchRequest<NSManagedObjectID>(entityName: "Book")
        byYear.resultType = .managedObjectIDResultType
        byYear.predicate = NSPredicate(format: "year > %d", 2003)
        #expect(try context.fetch(byYear).count == 2)

        let counted = NSFetchRequest<NSNumber>(entityName: "Book")
        counted.resultType = .countResultType
        #expect(try context.fetch(counted).first?.intValue == 5)

        let total = NSExpressionDescription()
        total.name = "total"
        total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "year")])
        total.expressionResultType = .integer64AttributeType
        let sums = NSFetchRequest<NSDictionary>(entityName: "Book")
        sums.resultType = .dictionaryResultType
        sums.propertiesToFetch = ["isRead", total]
        sums.propertiesToGroupBy = ["isRead"]
        sums.sortDescriptors = [NSSortDescriptor(key: "isRead", ascending: true)]
        let rows = try context.fetch(sums)
        #expect(rows.count == 2)
        #expect(rows.first?["total"] as? Int == 2001 + 2003 + 2005)
        #expect(rows.first?["isRead"] as? Bool == false)

        let template = try #require(container.managedObjectModel.fetchRequestTemplate(forName: "UnreadBooks"))
        #expect(try context.count(for: template) == 3)
    }

    @Test("a container whose model is nowhere reports where it looked when it loads its stores")
    func missingModel() {
        let container = NSPersistentContainer(name: "NoSuchModel")
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        let message = loadError.map { "\($0)" } ?? ""
        #expect(message.contains("no model named NoSuchModel"), "\(message)")
    }
}
