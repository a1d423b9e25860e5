import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Names from model files become table and column names. Only identifiers get that far.
@Suite("Names from a model file on their way to SQL")
struct ModelNameTests {
    /// Characters a generated name is made of: letters (some beyond ASCII), digits, `_`, and
    /// what SQL gives meaning to.
    static let pool: [Character] = Array("abcXYZ_019éßΩ") + [" ", "'", "\"", ";", "(", ")", "-", ",", ".", "[", "`", "\n", "\u{0}", "\u{200B}", "$", "%"]

    static let identifierPool: [Character] = Array("abcXYZ_019éßΩ")

    /// Half the names from the identifier characters alone, half from all of them.
    static func generatedName(_ rng: inout SeededGenerator) -> String {
        let from = Bool.random(using: &rng) ? identifierPool : pool
        return String((0..<Int.random(in: 1...8, using: &rng)).map { _ in from.randomElement(using: &rng)! })
    }

    /// A one-entity model whose attribute has `name`, or the error building it gives.
    static func model(attribute name: String, entity: String = "Thing") throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: entity, attributes: [AttributeDescription(name: name, type: .string),
                                                         AttributeDescription(name: "marker", type: .integer64)]),
        ])
    }

    @Test("generated names: identifiers go through model, SQLite store, save, reopen and fetch; the rest are refused before a file is made")
    func generatedNames() throws {
        SQLiteStore.register()
        var rng = SeededGenerator(seed: 0x5A1E)
        var accepted = 0, refused = 0
        for index in 0..<300 {
            let name = Self.generatedName(&rng)
            let url = try Fixtures.temporaryDirectory("names").appendingPathComponent("Store.sqlite")
            let model: ManagedObjectModel
            do {
                model = try Self.model(attribute: name)
            } catch let error as ModelError {
                #expect(!ManagedObjectModel.isValidName(name))
                #expect(error.kind == .invalidName(name), "\(error)")
                #expect(!FileManager.default.fileExists(atPath: url.path))
                refused += 1
                continue
            }
            #expect(ManagedObjectModel.isValidName(name), "accepted: \(name.debugDescription)")
            guard name != "marker" else { continue }
            accepted += 1
            let stack = try TestStack(model: model, type: .sqlite, url: url)
            let thing = try stack.context.insertObject(forEntityName: "Thing")
            thing[name] = .string("value \(index)")
            thing["marker"] = .int(index)
            try stack.context.save()
            let reopened = try TestStack(model: model, type: .sqlite, url: url)
            let found = try reopened.context.fetch(FetchRequest(entityName: "Thing",
                predicate: try ObjectPredicate(format: "%K == %@", name, "value \(index)"),
                sortDescriptors: [ObjectSortDescriptor(key: name)]))
            #expect(found.map { $0.int("marker") } == [index], "\(name.debugDescription)")
        }
        #expect(accepted > 50 && refused > 100, "both kinds were tried: \(accepted) accepted, \(refused) refused")
    }

    @Test("names that hold SQL, spaces, quotes or nothing are refused, naming the entity and the name", arguments: [
        "x INTEGER); ATTACH DATABASE 'evil.db' AS evil; CREATE TABLE evil.t (a", "first name", "it's", "a\"b", "", "9lives",
        "_hidden", "semi;colon", "new\nline",
    ])
    func hostileNames(name: String) throws {
        let error = try #require(throws: ModelError.self) { try Self.model(attribute: name) }
        #expect(error.kind == .invalidName(name))
        #expect(error.description.hasPrefix("entity 'Thing', property '"), "\(error)")
        #expect(error.description.contains("is not an identifier"))
        #expect(!error.description.contains("\n"), "a control character is escaped: \(error)")
        #expect(throws: ModelError.self) { try Self.model(attribute: "ok", entity: name) }
    }

    @Test("two entities whose names differ only in case are refused, naming both")
    func caseCollision() throws {
        let error = try #require(throws: ModelError.self) {
            try ManagedObjectModel(entities: [EntityDescription(name: "Car"), EntityDescription(name: "CAR")])
        }
        #expect(error.description.contains("the entities 'Car' and 'CAR' differ only in case"), "\(error)")
        #expect(throws: ModelError.self) {
            try ManagedObjectModel(entities: [EntityDescription(name: "Straße"), EntityDescription(name: "STRASSE")])
        }
    }
}
