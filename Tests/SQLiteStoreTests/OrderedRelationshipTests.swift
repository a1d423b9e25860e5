import SQLSyntax
import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
@testable import SQLiteStore
import TestSupport

@Suite("Ordered relationships keep their order")
struct OrderedRelationshipTests {
    static let xml = ModelFixtures.modelXML("""
        <entity name="Album" representedClassName="Album">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="tracks" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Track" inverseName="albums" inverseEntity="Track"/>
        </entity>
        <entity name="Playlist" representedClassName="Playlist">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Track" inverseName="playlist" inverseEntity="Track"/>
        </entity>
        <entity name="Track" representedClassName="Track">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="albums" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Album" inverseName="tracks" inverseEntity="Album"/>
            <relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
        </entity>
        """)

    func model() throws -> ManagedObjectModel {
        try XcodeModelFile.read(try ModelFixtures.writeModelFile(Self.xml, name: "Music")).current
    }

    @Test("order columns: Z_FOK_<REL> beside the foreign key, Z_FOK_<n><REL> in the join table")
    func columns() throws {
        let statements = try StoreSchema(model: try model()).creationStatements
        #expect(statements.contains("CREATE TABLE ZTRACK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPLAYLIST INTEGER, Z_FOK_PLAYLIST INTEGER, ZTITLE VARCHAR )"))
        #expect(statements.contains("CREATE TABLE Z_1TRACKS ( Z_1ALBUMS INTEGER, Z_3TRACKS INTEGER, Z_FOK_3TRACKS INTEGER, PRIMARY KEY (Z_1ALBUMS, Z_3TRACKS) )"))
    }

    @Test("members read back in the order they were saved, and after reordering")
    func order() throws {
        let stack = try SQLiteTestStack(model: try model())
        let c = stack.context
        let album = try c.insertObject(forEntityName: "Album")
        let playlist = try c.insertObject(forEntityName: "Playlist")
        var tracks: [ManagedObject] = []
        for title in ["one", "two", "three", "four"] {
            let t = try c.insertObject(forEntityName: "Track")
            t["title"] = .string(title)
            tracks.append(t)
        }
        let order = [2, 0, 3, 1].map { ObjectValue.object(tracks[$0]) }
        album["tracks"] = .array(order)
        playlist["songs"] = .array(order.reversed())
        try c.save()

        func titles(_ context: ManagedObjectContext, _ entity: String, _ key: String) throws -> [String] {
            let o = try #require(try context.fetch(FetchRequest(entityName: entity)).first)
            return o.objects(key).compactMap { $0.string("title") }
        }
        let reader = try stack.reopened().context
        #expect(try titles(reader, "Album", "tracks") == ["three", "one", "four", "two"])
        #expect(try titles(reader, "Playlist", "songs") == ["two", "four", "one", "three"])

        album["tracks"] = .array([.object(tracks[3]), .object(tracks[2])])
        try c.save()
        let again = try stack.reopened().context
        #expect(try titles(again, "Album", "tracks") == ["four", "three"])
        #expect(try titles(again, "Playlist", "songs") == ["two", "four", "one", "three"])
    }
}
