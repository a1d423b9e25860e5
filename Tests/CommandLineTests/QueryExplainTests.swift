import Foundation
import Testing
import TestSupport

extension StoreCommandTests {
    @Test("query --explain prints the statement with its values, SQLite's plan, the time and the index that would serve the filter")
    func explain() throws {
        let cli = try importedToDo()
        let run = try cli.run(["query", "ToDo", "completed == NO", "--sort", "dueDate", "--limit", "5", "--explain"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("statement  SELECT t0.Z_PK, t0.Z_ENT FROM ZTODO t0 WHERE t0.ZCOMPLETED = ?") == true, "\(run.stdout)")
        #expect(lines.contains("values     0, 5, 0"), "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("plan       ") } && lines.contains { $0.hasPrefix("time       ") })
        #expect(lines.last?.hasPrefix("advice     ") == true && lines.last?.contains("ToDo") == true, "\(run.stdout)")

        let refused = try cli.run(["query", "ToDo", "--explain", "--group-by", "completed"])
        #expect(refused.status != 0 && refused.stderr.contains("--explain shows how the store runs the fetch; it does not take --group-by"),
                "\(refused.stderr)")
    }
}
