import Foundation
import Testing
import GRDB
import ObjectGraph
import ObjectModel
import Predicates
@testable import SQLiteStore
import TestSupport

/// Binary attributes that allow external storage, in Core Data's layout: a tag byte, then the
/// bytes (1) or the name of a file in `.<store>_SUPPORT/_EXTERNAL_DATA/` ending in a NUL (2).
@Suite("Binary values kept outside the database")
struct ExternalDataTests {
    static let xml = ModelFixtures.modelXML("""
        <entity name="Photo" representedClassName="Photo">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
            <attribute name="extra" optional="YES" attributeType="Transformable" allowsExternalBinaryDataStorage="YES"/>
        </entity>
        """)

    static func model() throws -> ManagedObjectModel {
        try XcodeModelFile.read(try ModelFixtures.writeModelFile(xml, name: "Photos")).current
    }

    static let small = Data("a small image".utf8)
    /// Larger than the threshold above which values go to a file.
    static func large(_ seed: UInt8) -> Data { Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) &+ seed }) }

    func externalFiles(_ stack: SQLiteTestStack) -> Set<String> {
        let folder = StoreFiles.externalDataDirectory(forStoreAt: stack.url)
        return Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    func storedImages(_ stack: SQLiteTestStack) throws -> [String: Data] {
        var images: [String: Data] = [:]
        for row in try stack.rawRows("SELECT ZNAME, ZIMAGE FROM ZPHOTO") {
            if let name = row[0] as String?, let image = row[1] as Data? { images[name] = image }
        }
        return images
    }

    @discardableResult
    func insertPhoto(_ name: String, image: Data?, in context: ManagedObjectContext) throws -> ManagedObject {
        let photo = try context.insertObject(forEntityName: "Photo")
        photo["name"] = .string(name)
        if let image { photo["image"] = .data(image) }
        return photo
    }

    @Test("a small value is stored after tag 1, a large one in a file named after tag 2; plain binary is untagged")
    func layout() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        let photo = try insertPhoto("small", image: Self.small, in: stack.context)
        photo["thumbnail"] = .data(Self.small)
        try insertPhoto("large", image: Self.large(0), in: stack.context)
        try stack.context.save()

        let stored = try storedImages(stack)
        #expect(stored["small"] == Data([1]) + Self.small)
        let reference = try #require(stored["large"])
        #expect(reference.first == 2 && reference.last == 0)
        let name = String(decoding: reference.dropFirst().dropLast(), as: UTF8.self)
        #expect(UUID(uuidString: name) != nil, "the file is named by a UUID, as Core Data names it")
        #expect(externalFiles(stack) == [name])
        let folder = stack.url.deletingLastPathComponent().appendingPathComponent(".Store_SUPPORT/_EXTERNAL_DATA")
        #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == Self.large(0))
        #expect(try stack.rawRows("SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZNAME = 'small'").first?[0] as Data? == Self.small)

        let reader = try stack.reopened().context
        let photos = try reader.fetch(FetchRequest(entityName: "Photo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(photos.map { $0["image"] } == [.data(Self.large(0)), .data(Self.small)])
        #expect(photos[1]["thumbnail"] == .data(Self.small))
    }

    @Test("rows written as Core Data writes them read back, in objects and in dictionaries; a missing file is an error naming it")
    func readsCoreDataRows() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        try stack.context.save()
        stack.store.close()
        // What Core Data leaves behind: a tagged inline value, a reference and its file.
        let folder = StoreFiles.externalDataDirectory(forStoreAt: stack.url)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fileName = "0C5F5A4E-8C2B-4E0C-9C61-3E9B7E0F1A2B"
        try Self.large(7).write(to: folder.appendingPathComponent(fileName))
        let queue = try DatabaseQueue(path: stack.url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZIMAGE) VALUES (1, 1, 1, 'inline', ?), (2, 1, 1, 'file', ?), (3, 1, 1, 'gone', ?)",
                           arguments: [Data([1]) + Self.small, Data([2]) + Data(fileName.utf8) + Data([0]),
                                       Data([2]) + Data("11111111-2222-3333-4444-555555555555".utf8) + Data([0])])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Photo'")
        }
        try queue.close()

        let context = try stack.reopened().context
        let byName = { (name: String) throws -> ManagedObject in
            try #require(try context.fetch(FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "name == %@", argumentArray: [.string(name)]))).first)
        }
        #expect(try byName("inline")["image"] == .data(Self.small))
        #expect(try byName("file")["image"] == .data(Self.large(7)))

        var request = FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "name != 'gone'"),
                                   sortDescriptors: [ObjectSortDescriptor(key: "name")])
        request.resultType = .dictionaries
        request.propertiesToFetch = [.key("name"), .key("image")]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.map { $0["image"] } == [.data(Self.large(7)), .data(Self.small)])

        let gone = try byName("gone")
        do {
            _ = try gone.value(forKey: "image")
            Issue.record("a missing external file should be an error")
        } catch let error as ObjectGraphError {
            #expect("\(error)".contains("11111111-2222-3333-4444-555555555555"))
        }
    }

    @Test("a replaced or cleared value's file goes after the save, a deleted object's too; an unchanged value keeps its file")
    func filesFollowTheRows() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        let photo = try insertPhoto("p", image: Self.large(1), in: stack.context)
        let other = try insertPhoto("q", image: Self.large(2), in: stack.context)
        try stack.context.save()
        let first = externalFiles(stack)
        #expect(first.count == 2)

        photo["name"] = "renamed"
        try stack.context.save()
        #expect(externalFiles(stack) == first, "an unchanged value keeps its file")

        photo["image"] = .data(Self.large(3))
        try stack.context.save()
        let second = externalFiles(stack)
        #expect(second.count == 2 && second != first)
        let reader = try stack.reopened().context
        #expect(try reader.fetch(FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "name == 'renamed'"))).first?["image"] == .data(Self.large(3)))

        photo["image"] = .data(Self.small)
        try stack.context.save()
        #expect(externalFiles(stack).count == 1, "a value now small enough for the row leaves its file")

        stack.context.delete(other)
        try stack.context.save()
        #expect(externalFiles(stack).isEmpty)
        #expect(try storedImages(stack) == ["renamed": Data([1]) + Self.small])
    }

    @Test("a save that fails leaves no file behind and the values in memory")
    func failedSave() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        try insertPhoto("p", image: Self.large(1), in: stack.context)
        try stack.context.save()
        let before = externalFiles(stack)

        let mine = stack.newContext()
        let theirs = stack.newContext()
        let photo = try #require(try mine.fetch(FetchRequest(entityName: "Photo")).first)
        let same = try #require(try theirs.fetch(FetchRequest(entityName: "Photo")).first)
        photo["image"] = .data(Self.large(9))
        try insertPhoto("new", image: Self.large(8), in: mine)
        same["name"] = "changed elsewhere"
        try theirs.save()

        #expect(throws: MergeConflictError.self) { try mine.save() }
        #expect(externalFiles(stack) == before, "the files written for the failed save are gone")
        #expect(photo["image"] == .data(Self.large(9)))
        let reader = try stack.reopened().context
        #expect(try reader.fetch(FetchRequest(entityName: "Photo")).map { $0["image"] } == [.data(Self.large(1))])
    }

    @Test("a store in memory keeps large values in the row")
    func inMemory() throws {
        let store = try SQLiteStore(model: try Self.model(), url: nil)
        let coordinator = PersistentStoreCoordinator(model: store.model)
        try coordinator.addStore(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        try insertPhoto("large", image: Self.large(4), in: context)
        try context.save()
        let stored = try store.database.read { try Data.fetchOne($0, sql: "SELECT ZIMAGE FROM ZPHOTO") }
        #expect(stored == Data([1]) + Self.large(4))
        let reader = ManagedObjectContext(coordinator: coordinator)
        #expect(try reader.fetch(FetchRequest(entityName: "Photo")).first?["image"] == .data(Self.large(4)))
    }

    @Test("a file name that could leave the folder is refused: the value cannot be read, and deleting its object removes nothing else")
    func hostileFileName() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        try insertPhoto("good", image: Self.large(5), in: stack.context)
        try stack.context.save()
        let files = externalFiles(stack)
        stack.store.close()
        let queue = try DatabaseQueue(path: stack.url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZIMAGE) VALUES (10, 1, 1, 'up', ?), (11, 1, 1, 'out', ?)",
                           arguments: [Data([2]) + Data("..".utf8) + Data([0]), Data([2]) + Data("../../Store.sqlite".utf8) + Data([0])])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 11 WHERE Z_NAME = 'Photo'")
        }
        try queue.close()

        let reopened = try stack.reopened()
        let context = reopened.context
        let hostile = try context.fetch(FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "name IN {'up', 'out'}")))
        #expect(hostile.count == 2)
        for object in hostile {
            #expect(throws: ObjectGraphError.self) { _ = try object.value(forKey: "image") }
            context.delete(object)
        }
        try context.save()
        #expect(externalFiles(stack) == files, "the other object's file is still there")
        #expect(FileManager.default.fileExists(atPath: stack.url.path))
        #expect(try context.fetch(FetchRequest(entityName: "Photo")).first?["image"] == .data(Self.large(5)))
    }

    @Test("values of other kinds in such a column keep their type, and the object can be changed and deleted")
    func otherKinds() throws {
        let stack = try SQLiteTestStack(model: try Self.model())
        let photo = try insertPhoto("n", image: nil, in: stack.context)
        photo["extra"] = .int(5)
        let tagged = try insertPhoto("u", image: nil, in: stack.context)
        let uuid = UUID()
        tagged["extra"] = .uuid(uuid)
        try stack.context.save()
        #expect(try stack.rawRows("SELECT ZEXTRA FROM ZPHOTO WHERE ZNAME = 'n'").first?[0] as Int? == 5)
        #expect(try stack.rawRows("SELECT ZEXTRA FROM ZPHOTO WHERE ZNAME = 'u'").first?[0] as Data? == Data([1]) + withUnsafeBytes(of: uuid.uuid) { Data($0) })

        let context = try stack.reopened().context
        let photos = try context.fetch(FetchRequest(entityName: "Photo", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        #expect(photos.map { $0["extra"] } == [.int(5), .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        photos[0]["name"] = "renamed"
        try context.save()
        photos.forEach(context.delete)
        try context.save()
        #expect(try stack.rawRows("SELECT COUNT(*) FROM ZPHOTO").first?[0] as Int? == 0)
    }
}
