import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import Migration
import SQLiteStore
import TestSupport

/// One lightweight step over an inheritance tree and a plain entity: renames, additions with
/// defaults and removals on the abstract parent (`Item`), its sub-entities (`Book`, `Film`)
/// and a plain entity (`Shelf`). The SQLite store changes in place; the XML store takes the
/// general path. Both must end with the same objects and values.
@Suite("Lightweight changes on parent entities, sub-entities and plain entities")
struct InheritedChangesMigrationTests {
    static let one = """
        <entity name="Item" isAbstract="YES">
            <attribute name="rating" optional="YES" attributeType="Integer 16"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="note" optional="YES" attributeType="String"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
        </entity>
        <entity name="Book" parentEntity="Item">
            <attribute name="pages" optional="YES" attributeType="Integer 32"/>
            <attribute name="blurb" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Film" parentEntity="Item">
            <attribute name="minutes" optional="YES" attributeType="Integer 32"/>
            <attribute name="studio" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Shelf">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="capacity" optional="YES" attributeType="Integer 32"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
        </entity>
        """

    /// `rating` → `score` and `shelf` → `place` on the parent, `note` removed, `genre` added;
    /// `pages` → `pageCount` on Book, `blurb` removed, `isbn` added; `studio` → `company` on
    /// Film, `format` added; `label` → `name` on Shelf, `capacity` removed, `floor` added.
    static let two = """
        <entity name="Item" isAbstract="YES">
            <attribute name="score" optional="YES" attributeType="Integer 16" elementID="rating"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="genre" optional="YES" attributeType="String" defaultValueString="none"/>
            <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf" elementID="shelf"/>
        </entity>
        <entity name="Book" parentEntity="Item">
            <attribute name="pageCount" optional="YES" attributeType="Integer 32" elementID="pages"/>
            <attribute name="isbn" attributeType="String" defaultValueString="unknown"/>
        </entity>
        <entity name="Film" parentEntity="Item">
            <attribute name="minutes" optional="YES" attributeType="Integer 32"/>
            <attribute name="company" optional="YES" attributeType="String" elementID="studio"/>
            <attribute name="format" optional="YES" attributeType="String" defaultValueString="DVD"/>
        </entity>
        <entity name="Shelf">
            <attribute name="name" optional="YES" attributeType="String" elementID="label"/>
            <attribute name="floor" optional="YES" attributeType="Integer 16" defaultValueString="1"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="place" inverseEntity="Item"/>
        </entity>
        """

    /// The two versions; with `abstractParent` false, `Item` is a concrete entity (with a
    /// mapping of its own) in both.
    func versions(abstractParent: Bool) throws -> ModelVersions {
        func xml(_ body: String) -> String {
            ModelFixtures.modelXML(abstractParent ? body : body.replacingOccurrences(of: #" isAbstract="YES""#, with: ""))
        }
        let one = try XcodeModelFile.read(try ModelFixtures.writeModelFile(xml(Self.one), name: "Library")).current
        let two = try XcodeModelFile.read(try ModelFixtures.writeModelFile(xml(Self.two), name: "Library 2")).current
        #expect(one.entity(named: "Item")?.isAbstract == abstractParent)
        return try ModelVersions(versions: [.init(name: "Library", model: one), .init(name: "Library 2", model: two)],
                                 currentVersionName: "Library 2")
    }

    /// A store of the first version: two shelves, two books, two films.
    func versionOneStore(type: StoreType, versions: ModelVersions) throws -> URL {
        SQLiteStore.register()
        let url = try Fixtures.temporaryDirectory("inherited").appendingPathComponent("Library.\(type == .sqlite ? "sqlite" : "xml")")
        let stack = try TestStack(model: versions.version(named: "Library")!, type: type, url: url)
        let context = stack.context
        func insert(_ entity: String, _ values: [String: ObjectValue]) throws -> ManagedObject {
            let object = try context.insertObject(forEntityName: entity)
            for (key, value) in values { object[key] = value }
            return object
        }
        let attic = try insert("Shelf", ["label": "Attic", "capacity": 10])
        let basement = try insert("Shelf", ["label": "Basement", "capacity": 20])
        _ = try insert("Book", ["rating": 4, "title": "Dune", "note": "sand", "pages": 412, "blurb": "spice", "shelf": .object(attic)])
        _ = try insert("Book", ["rating": 2, "title": "Emma", "pages": 300])
        _ = try insert("Film", ["rating": 5, "title": "Alien", "minutes": 117, "studio": "Fox", "shelf": .object(basement)])
        _ = try insert("Film", ["title": "Brazil", "note": "ducts", "studio": "Embassy", "shelf": .object(attic)])
        try context.save()
        return url
    }

    /// Every object of the second version, a line each, in a fixed order.
    func contents(of url: URL, type: StoreType, model: ManagedObjectModel) throws -> [String] {
        let stack = try TestStack(model: model, type: type, url: url)
        let context = stack.context
        func text(_ object: ManagedObject, _ keys: [String]) -> String {
            keys.map { key in
                let value = object[key]
                if case .object(let target) = value, let shelf = target as? ManagedObject { return "\(key)=\(shelf.string("name") ?? "?")" }
                switch value {
                case .null: return "\(key)=nil"
                case .int(let n): return "\(key)=\(n)"
                case .string(let s): return "\(key)=\(s)"
                default: return "\(key)=\(value)"
                }
            }.joined(separator: " ")
        }
        let items = try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "title")]))
        let shelves = try context.fetch(FetchRequest(entityName: "Shelf", sortDescriptors: [ObjectSortDescriptor(key: "name")]))
        return items.map { item in
            let own = item.entity.name == "Book" ? ["pageCount", "isbn"] : ["minutes", "company", "format"]
            return "\(item.entity.name) " + text(item, ["title", "score", "genre", "place"] + own)
        } + shelves.map { "Shelf " + text($0, ["name", "floor"]) + " items=\($0.objects("items").count)" }
    }

    static let expected = [
        "Film title=Alien score=5 genre=none place=Basement minutes=117 company=Fox format=DVD",
        "Film title=Brazil score=nil genre=none place=Attic minutes=nil company=Embassy format=DVD",
        "Book title=Dune score=4 genre=none place=Attic pageCount=412 isbn=unknown",
        "Book title=Emma score=2 genre=none place=nil pageCount=300 isbn=unknown",
        "Shelf name=Attic floor=1 items=2",
        "Shelf name=Basement floor=1 items=1",
    ]

    @Test("SQLite in place and XML by the general path keep every renamed value, fill every default, and agree",
          arguments: [true, false])
    func bothPaths(abstractParent: Bool) throws {
        let versions = try versions(abstractParent: abstractParent)
        var results: [StoreType: [String]] = [:]
        for type in [StoreType.sqlite, .xml] {
            let url = try versionOneStore(type: type, versions: versions)
            let reports = try StoreMigrator(versions: versions).migrateStore(at: url, type: type)
            #expect(reports.map(\.inPlace) == [type == .sqlite], "\(type): the path taken")
            results[type] = try contents(of: url, type: type, model: versions.current)
        }
        #expect(results[.sqlite] == Self.expected, "\(results[.sqlite] ?? [])")
        #expect(results[.xml] == Self.expected, "\(results[.xml] ?? [])")
    }
}
