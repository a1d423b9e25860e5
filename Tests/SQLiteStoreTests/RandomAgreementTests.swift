import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore
import TestSupport

/// Generated predicates over the company fixture, evaluated in memory and in SQL.
@Suite("Generated predicates agree in memory and in SQL")
struct RandomAgreementTests {
    /// A small deterministic generator, so a failure names a predicate that reproduces.
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    static let comparisons: [String] = {
        var g = Generator(state: 42)
        let strings = ["'Ada'", "'ada'", "'é'", "'e'", "'C'", "'c'", "'Sales'", "'SQL'", "''", "nil", "5"]
        let numbers = ["0", "50000", "65000", "80000.5", "-1", "nil", "'x'"]
        let stringKeys = ["name", "department.name", "ANY notes.text", "ANY projects.name", "ALL projects.name", "NONE notes.text"]
        let stringOps = ["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN"]
        let options = ["", "[c]", "[d]", "[cd]"]
        var formats: [String] = []
        for _ in 0..<150 {
            let key = g.pick(stringKeys)
            let op = g.pick(stringOps)
            let value = op == "IN" ? "{\(g.pick(strings)), \(g.pick(strings))}" : (op == "LIKE" ? g.pick(["'*a*'", "'?o?'", "'A*'", "'*E'"]) : g.pick(strings))
            let opts = op == "IN" || op == "LIKE" || op.first!.isLetter || op == "==" ? g.pick(options) : ""
            formats.append("\(key) \(op)\(opts) \(value)")
        }
        for _ in 0..<60 {
            let key = g.pick(["salary", "department.budget", "projects.@count", "notes.@count"])
            let op = g.pick(["==", "!=", "<", "<=", ">", ">=", "BETWEEN", "IN"])
            let value = op == "BETWEEN" || op == "IN" ? "{\(g.pick(numbers)), \(g.pick(numbers))}" : g.pick(numbers)
            formats.append("\(key) \(op) \(value)")
        }
        return formats
    }()

    static let predicates: [String] = {
        var g = Generator(state: 7)
        var result = comparisons
        for _ in 0..<80 {
            let a = g.pick(comparisons), b = g.pick(comparisons)
            result.append(g.pick(["(\(a)) AND (\(b))", "(\(a)) OR (\(b))", "NOT (\(a))", "NOT ((\(a)) OR (\(b)))"]))
        }
        return result
    }()

    @Test("every generated predicate selects the same employees")
    func agree() throws {
        let (memory, sqlite) = try PredicateAgreementTests.stacks()
        var disagreements: [String] = []
        var unsupported = 0, compared = 0, matchedSome = 0
        for format in Self.predicates {
            guard let predicate = try? ObjectPredicate(format: format) else { continue }
            let request = FetchRequest(entityName: "Employee", predicate: predicate)
            let inMemory: [String]
            do { inMemory = try memory.fetch(request).compactMap { $0.string("name") }.sorted() } catch { continue }
            do {
                let inSQL = try sqlite.fetch(request).compactMap { $0.string("name") }.sorted()
                compared += 1
                if !inMemory.isEmpty && inMemory.count < 5 { matchedSome += 1 }
                if inSQL != inMemory { disagreements.append("\(format): memory \(inMemory), SQL \(inSQL)") }
            } catch is SQLiteStoreError {
                unsupported += 1
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        #expect(unsupported < Self.predicates.count / 4)
        // The table tells employees apart: most predicates compared, many selecting some but not all.
        #expect(compared > Self.predicates.count / 2, "compared \(compared) of \(Self.predicates.count)")
        #expect(matchedSome > compared / 5, "\(matchedSome) of \(compared) selected some but not all")
    }
}
