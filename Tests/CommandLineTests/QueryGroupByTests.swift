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

    @Test("query --group-by --bucket counts dates by month (in the user's time zone) and numbers in ranges, with their bounds in JSON")
    func groupByBucket() throws {
        let cli = try importedToDo()
        let run = { (arguments: [String]) in
            try TermDataProcess.run(arguments, environment: ["XDG_DATA_HOME": cli.dataHome.path, "TZ": "UTC"], currentDirectory: cli.directory)
        }
        let table = try run(["query", "ToDo", "--group-by", "dueDate", "--bucket", "month"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout == ["dueDate  count", "-------  -----", "2024-05  1", "2024-06  1", "         2", "(3 values)", ""]
            .joined(separator: "\n"), "nil last: \(table.stdout)")
        let json = try self.json(try run(["query", "ToDo", "--group-by", "dueDate", "--bucket", "month", "--format", "json"]).stdout)
        #expect(json.first?["from"] as? String == "2024-05-01T00:00:00Z" && json.first?["to"] as? String == "2024-06-01T00:00:00Z", "\(json)")

        let refused = try cli.run(["query", "ToDo", "--group-by", "name", "--bucket", "10"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("ranges of a width need numbers, not String values"), "\(refused.stderr)")
        let alone = try cli.run(["query", "ToDo", "--bucket", "day"])
        #expect(alone.stderr.contains("--bucket goes with --group-by"), "\(alone.stderr)")
        let odd = try cli.run(["query", "ToDo", "--group-by", "dueDate", "--bucket", "fortnight"])
        #expect(odd.stderr.contains("--bucket fortnight: a width greater than 0, or year, month, week, day or hour"), "\(odd.stderr)")
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
