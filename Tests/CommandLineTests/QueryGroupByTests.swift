import Foundation
import Testing
import TestSupport

extension StoreCommandTests {
    @Test("query --group-by prints each value of a key path with its count, most first, nil among them, counted in the store")
    func groupBy() throws {
        let cli = try importedToDo()
        let json = try cli.run(["query", "ToDo", "--group-by", "category.name", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try self.json(json.stdout)
        #expect(rows.map { $0["category.name"] is NSNull ? "nil" : ($0["category.name"] as? String ?? "?") } == ["Home", "nil", "Work"])
        #expect(rows.map { ($0["count"] as? NSNumber)?.intValue } == [2, 1, 1])

        let open = try cli.run(["query", "ToDo", "completed == NO", "--group-by", "category.name", "--format", "csv"])
        #expect(open.stdout == "category.name,count\n,1\nHome,1\nWork,1\n", "\(open.stdout)")

        let table = try cli.run(["query", "ToDo", "--group-by", "category.name", "--limit", "1"])
        #expect(table.stdout == """
            category.name   count
            --------------  -----
            Home            2
            (other values)  2
            (2 values)

            """, "\(table.stdout)")
    }

    @Test("query --group-by refuses options it cannot honour and a key the entity lacks, saying which")
    func groupByRefusals() throws {
        let cli = try importedToDo()
        let counted = try cli.run(["query", "ToDo", "--group-by", "name", "--count"])
        #expect(counted.status != 0)
        #expect(counted.stderr.contains("--group-by prints values and counts, most first; it does not take --count"), "\(counted.stderr)")
        let unknown = try cli.run(["query", "ToDo", "--group-by", "nmae"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("name"), "\(unknown.stderr)")
    }
}
