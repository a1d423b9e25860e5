import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// An owner of many members (a category of a million items) that gains one: the save neither
/// validates nor writes it by reading every member, as it did (an import into three owners
/// slowed with each batch).
@Suite("An owner of many members")
struct LargeOwnerTests {
    @Test("a member joining a saved owner is validated and saved without loading the owner's members")
    func joiningLoadsNothing() throws {
        let stack = try SQLiteTestStack(model: try ModelFixtures.toDoModel())
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for i in 0..<500 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            item["category"] = .object(home)
        }
        try stack.context.save()

        let context = stack.newContext()
        let owner = context.object(with: home.objectID)
        let item = try context.insertObject(forEntityName: "ToDo")
        item["name"] = "one more"
        item["category"] = .object(owner)
        #expect(owner.hasFaultForRelationship(named: "todos"))
        try context.save()
        #expect(owner.hasFaultForRelationship(named: "todos"), "the save read the owner's 500 members")
        #expect(try context.count(ofRelationship: "todos", of: owner) == 501)
        let reopened = try stack.reopened()
        #expect(try reopened.context.object(with: home.objectID).objects("todos").count == 501)
    }

    static let teamModel = ModelFixtures.modelXML("""
        <entity name="Team"><attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="players" optional="YES" toMany="YES" maxCount="3" deletionRule="Nullify" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
        </entity>
        <entity name="Player"><attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
        </entity>
        """)

    @Test("a count rule on a to-many still holds when it is a fault: the store counts, and one member too many is refused")
    func countRuleOnAFault() throws {
        let model = try XcodeModelFile.read(try ModelFixtures.writeModelFile(Self.teamModel, name: "Teams")).current
        let stack = try SQLiteTestStack(model: model)
        let team = try stack.context.insertObject(forEntityName: "Team")
        for name in ["Ann", "Bo", "Cy"] {
            let player = try stack.context.insertObject(forEntityName: "Player")
            player["name"] = .string(name)
            player["team"] = .object(team)
        }
        try stack.context.save()

        let context = stack.newContext()
        let owner = context.object(with: team.objectID)
        let fourth = try context.insertObject(forEntityName: "Player")
        fourth["team"] = .object(owner)
        let error = #expect(throws: (any Error).self) { try context.save() }
        #expect("\(error!)".contains("more than the maximum 3"), "\(error!)")
        #expect(owner.hasFaultForRelationship(named: "players"), "counted, not loaded")
        #expect(try stack.reopened().rawRows("SELECT COUNT(*) AS n FROM ZPLAYER")[0]["n"] == 3, "nothing was written")
        // With one leaving, the fourth fits.
        let first = try context.fetch(FetchRequest(entityName: "Player", predicate: try ObjectPredicate(format: "name == 'Ann'")))[0]
        first["team"] = .null
        try context.save()
        let reopened = try stack.reopened()
        let players = reopened.context.object(with: team.objectID).objects("players").map { $0.string("name") ?? "(new)" }
        #expect(players.sorted() == ["(new)", "Bo", "Cy"], "\(players)")
        #expect(try stack.reopened().rawRows("SELECT COUNT(*) AS n FROM ZPLAYER WHERE ZTEAM IS NOT NULL")[0]["n"] == 3)
    }
}
