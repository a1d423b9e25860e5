import Foundation
import Testing
import TestSupport
import GRDB

@Suite("termdata diff")
struct DiffCommandTests {
    /// Yesterday's copy of Apple's sample store, and today's: a car's model renamed, a car
    /// given another owner, a person deleted, a car added, by plain SQL.
    func stores() throws -> (CommandLineSession, String, String) {
        let cli = try CommandLineSession()
        let (yesterday, today) = (cli.file("yesterday.sqlite"), cli.file("today.sqlite"))
        try FileManager.default.copyItem(at: ModelFixtures.sampleStoreV1, to: yesterday)
        try FileManager.default.copyItem(at: ModelFixtures.sampleStoreV1, to: today)
        try DatabaseQueue(path: today.path).write { db in
            try db.execute(sql: "UPDATE ZCAR SET ZMODEL = 'Punto' WHERE Z_PK = 2")
            try db.execute(sql: "UPDATE ZCAR SET ZOWNER = 3 WHERE Z_PK = 1")
            try db.execute(sql: "UPDATE ZCAR SET ZOWNER = NULL WHERE ZOWNER = 2")
            try db.execute(sql: "DELETE FROM ZPERSON WHERE Z_PK = 2")
            try db.execute(sql: "INSERT INTO ZCAR (Z_PK, Z_ENT, Z_OPT, ZMAKER, ZMODEL) VALUES (500, 1, 1, 'Lancia', 'Delta')")
        }
        return (cli, yesterday.path, today.path)
    }

    @Test("lists the objects added, removed and changed, with the values and relationships that differ; exit 1, and 0 for the same store")
    func text() throws {
        let (cli, yesterday, today) = try stores()
        let model = ModelFixtures.sampleModel.path
        let result = try cli.run(["diff", "--store", yesterday, "--store", today, "--model", model])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("changed Car 1: owner Person 17 → Person 3"), "\(result.stdout)")
        #expect(lines.contains("changed Car 2: model “Panda” → “Punto”"))
        #expect(lines.contains { $0.hasPrefix("changed Car ") && $0.hasSuffix(": owner Person 2 → nil") }, "the cars of the deleted person")
        #expect(lines.contains { $0.hasPrefix("removed Person 2: firstName=“Edythe”") })
        #expect(lines.contains("added Car 500: maker=“Lancia”, model=“Delta”"), "\(result.stdout)")
        #expect(lines.last?.hasPrefix("1 added, 1 removed, ") == true, "\(lines.last ?? "")")
        #expect(lines.last?.contains("(145 objects in ") == true && lines.last?.contains(", 145 in ") == true)

        let same = try cli.run(["diff", "--store", yesterday, "--store", yesterday, "--model", model])
        #expect(same.status == 0)
        #expect(same.stdout.hasPrefix("the stores hold the same objects (145 objects"), "\(same.stdout)")
    }

    @Test("--match names objects by an attribute instead of their keys; --format json writes one object per line; --entity narrows")
    func matchAndJSON() throws {
        let (cli, yesterday, today) = try stores()
        let model = ModelFixtures.sampleModel.path
        let matched = try cli.run(["diff", "--store", yesterday, "--store", today, "--model", model, "--match", "id"])
        #expect(matched.stdout.contains("removed Person id=1CD6E50D-94D1-4E02-B82A-BB220F6AFCA3: firstName=“Edythe”"), "\(matched.stdout)")
        #expect(matched.stdout.contains("changed Car 1: owner Person id="), "cars have no id: matched by key; their owners by id")

        let json = try cli.run(["diff", "--store", yesterday, "--store", today, "--model", model, "--entity", "Car", "--format", "json"])
        #expect(json.status == 1)
        let lines = json.stdout.split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.allSatisfy { $0["entity"] as? String == "Car" })
        let renamed = try #require(objects.first { $0["object"] as? String == "Car 2" })
        #expect(renamed["change"] as? String == "changed")
        #expect((renamed["values"] as? [String: Any])?["model"] as? [String: String] == ["from": "Panda", "to": "Punto"])

        let bad = try cli.run(["diff", "--store", yesterday, "--model", model])
        #expect(bad.status != 0 && bad.stderr.contains("give --store twice"), "\(bad.stderr)")
        let noKey = try cli.run(["diff", "--store", yesterday, "--store", today, "--model", model, "--match", "isbn"])
        #expect(noKey.status != 0 && noKey.stderr.contains("no entity of the model has an attribute of that name"), "\(noKey.stderr)")
    }
}
