import Foundation
import Predicates

/// Evaluations per second of a typical compound predicate over dictionary rows, plus
/// parsing speed for the same format string.
enum PredicateBenchmarks {
    static let format = "name BEGINSWITH[c] 'a' AND age >= 30 AND (ANY tags == 'urgent' OR score > 7.5) AND NOT done == YES"

    static func run() throws {
        let names = ["Ann", "bob", "Alice", "Cy", "Åsa"]
        let rows: [ObjectValue] = (0..<10_000).map { (i: Int) -> ObjectValue in
            var row: [String: ObjectValue] = [:]
            row["name"] = .string(names[i % 5] + String(i))
            row["age"] = .int(18 + i % 50)
            row["score"] = .double(Double(i % 100) / 10)
            row["done"] = .bool(i % 3 == 0)
            row["tags"] = i % 4 == 0 ? ["urgent", "home"] : ["work"]
            return .dictionary(row)
        }
        let predicate = try ObjectPredicate(format: format)

        var matches = 0
        let passes = 20
        let start = Date()
        for _ in 0..<passes {
            for row in rows where try predicate.evaluate(with: row) { matches += 1 }
        }
        let elapsed = Date().timeIntervalSince(start)
        let evaluations = Double(passes * rows.count)
        print("predicate: \(format)")
        print(String(format: "evaluate: %.0f evaluations/s (%d matches in %.0f evaluations, %.3f s)",
                     evaluations / elapsed, matches, evaluations, elapsed))

        let parseStart = Date()
        let parses = 20_000
        for _ in 0..<parses { _ = try ObjectPredicate(format: format) }
        let parseElapsed = Date().timeIntervalSince(parseStart)
        print(String(format: "parse: %.0f parses/s", Double(parses) / parseElapsed))

        // MATCHES, as a SQL fetch calls it once per row: the pattern compiled once, a value each call.
        let values = (0..<100_000).map { "Item \($0) of the list" }
        var matched = 0
        let regexStart = Date()
        for value in values where try RegularExpressionMatcher.matches(value, pattern: ".*9.*9.*") { matched += 1 }
        let regexElapsed = Date().timeIntervalSince(regexStart)
        print(String(format: "MATCHES '.*9.*9.*': %.0f values/s (%d of %d match, %.3f s)",
                     Double(values.count) / regexElapsed, matched, values.count, regexElapsed))
    }
}
