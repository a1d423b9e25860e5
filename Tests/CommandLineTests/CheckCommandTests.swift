import Foundation
import Testing
import TestSupport
import GRDB

extension StoreCommandTests {
    @Test("check says a sound store is sound (exit 0); a dangling reference written by plain SQL is named with its object (exit 1), as text and JSON")
    func check() throws {
        let cli = try importedToDo()
        let sound = try cli.run(["check"])
        #expect(sound.status == 0, "\(sound.stderr)")
        #expect(sound.stdout.hasPrefix("The store is sound: "), "\(sound.stdout)")

        let store = cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite")
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "UPDATE ZTODO SET ZCATEGORY = 999 WHERE Z_PK = 1") }
        let broken = try cli.run(["check"])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("✗ ToDo.category holds the key of a Category that is not in the store: 1 object"), "\(broken.stdout)")
        #expect(broken.stdout.contains("/ToDo/p1"))
        #expect(broken.stdout.hasSuffix("1 problem found in 6 objects; the store was not changed.\n"), "\(broken.stdout)")
        let json = try self.json(try cli.run(["check", "--format", "json"]).stdout)
        #expect(json.first?["kind"] as? String == "danglingReference" && json.first?["key"] as? String == "category", "\(json)")
    }

    @Test("check --repair says what it will fix, fixes it in the file and checks again: exit 0 once the store is sound")
    func checkRepair() throws {
        let cli = try importedToDo()
        let store = cli.dataHome.appendingPathComponent("termdata/ToDo.sqlite")
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "UPDATE ZTODO SET ZCATEGORY = 999 WHERE Z_PK = 1") }
        let repaired = try cli.run(["check", "--repair"])
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(repaired.stdout.contains("repair: clear ToDo.category on 1 object (it names a Category that is not in the store)"), "\(repaired.stdout)")
        #expect(repaired.stdout.hasSuffix("Repaired: the store is sound.\n"))
        #expect(try cli.run(["check"]).status == 0)
    }
}
