import Foundation
import ObjectModel
import Predicates

/// How a store runs a fetch: the statement as run with its bound values, the engine's plan,
/// the time it took to read every row it returns, and — in the model's own terms — the index
/// that would serve it where none does.
///
/// ```swift
/// let explained = try context.explain(FetchRequest(entityName: "Car", predicate: try ObjectPredicate(format: "maker == 'FIAT'")))
/// explained.plan       // ["SCAN t0"]
/// explained.advice     // "Car.maker is not indexed: ..."
/// ```
public struct FetchExplanation: Sendable {
    /// The statement the store runs, and the values bound to its parameters, in order.
    public var statement: String
    /// The values bound to the statement's parameters, in order, as text.
    public var arguments: [String]
    /// The engine's plan, a step a line, nested steps indented.
    public var plan: [String]
    /// Running the statement and reading every row it returns.
    public var seconds: Double
    /// How many rows the statement returned.
    public var rows: Int
    /// Whether the plan reads every row of the entity's table to find the matches.
    public var readsWholeTable: Bool
    /// Whether the plan sorts the matches itself (no index gives their order).
    public var sorts: Bool
    /// The indexes the plan uses, by name.
    public var indexes: [String]
    /// The index that would serve the fetch, said in the model's terms; nil where one serves
    /// it already or no index would.
    public var advice: String?

    /// An explanation from what a store found running the fetch; `advice` is `nil` when no index is
    /// suggested.
    public init(statement: String, arguments: [String], plan: [String], seconds: Double, rows: Int,
                readsWholeTable: Bool, sorts: Bool, indexes: [String], advice: String? = nil) {
        self.statement = statement
        self.arguments = arguments
        self.plan = plan
        self.seconds = seconds
        self.rows = rows
        self.readsWholeTable = readsWholeTable
        self.sorts = sorts
        self.indexes = indexes
        self.advice = advice
    }

    /// The explanation as lines for a terminal: statement, values, plan, time and index.
    public var lines: [String] {
        var lines = ["statement  " + statement]
        if !arguments.isEmpty { lines.append("values     " + arguments.joined(separator: ", ")) }
        for (i, step) in plan.enumerated() { lines.append((i == 0 ? "plan       " : "           ") + step) }
        lines.append("time       " + String(format: "%.1f ms", seconds * 1_000) + ", \(rows) row\(rows == 1 ? "" : "s")")
        let used = indexes.isEmpty ? "none" : indexes.joined(separator: ", ")
        lines.append("indexes    " + used)
        if let advice { lines.append("advice     " + advice) }
        return lines
    }
}

/// A store that can say how it runs a fetch (SQLite, PostgreSQL).
public protocol ExplainingStore: PersistentStore {
    /// The explanation of a fetch, without its advice (which the context adds).
    func explain(_ request: StoreRequest) throws -> FetchExplanation
}

extension ManagedObjectContext {
    /// How the store runs a fetch, with the index that would serve it. The store's own fetch
    /// is explained: unsaved changes play no part.
    ///
    /// - Throws: `ObjectGraphError.noQueryPlan` for a store that reads its objects in memory.
    public func explain(_ request: FetchRequest<ManagedObject>) throws -> FetchExplanation {
        checkQueue()
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        guard let first = coordinator.stores(forEntityName: entity.name).first else { throw ObjectGraphError.noStoreForEntity(entity.name) }
        guard let store = first as? ExplainingStore else { throw ObjectGraphError.noQueryPlan(first.type) }
        var fetch = request
        fetch.includesPendingChanges = false
        let storeRequest = StoreRequest(fetch: fetch, entityNames: fetch.includesSubentities ? entity.kindNames : [entity.name])
        var explanation = try coordinator.reading(store) { try store.explain(storeRequest) }
        explanation.advice = IndexAdvice.advice(for: fetch, entity: entity, explanation: explanation)
        return explanation
    }
}

/// Which index would serve a fetch whose plan reads the whole table, or sorts what a limit
/// then cuts: the attributes the filter compares with a value — equalities first, then one
/// range — and the first sort key after them, as Xcode would have them set (an attribute's
/// Index option, or a fetch index of several elements).
enum IndexAdvice {
    static func advice(for request: FetchRequest<ManagedObject>, entity: Entity, explanation: FetchExplanation) -> String? {
        var equal: [String] = [], ranged: [String] = []
        if let predicate = request.predicate { collect(predicate, in: entity, equal: &equal, ranged: &ranged) }
        let sortKey = request.sortDescriptors.first.map(\.key).flatMap { entity.attribute(named: $0) == nil ? nil : $0 }
        let filterUnserved = explanation.readsWholeTable && !(equal.isEmpty && ranged.isEmpty)
        let sortUnserved = explanation.sorts && request.fetchLimit > 0 && sortKey != nil
        guard filterUnserved || sortUnserved else {
            if explanation.readsWholeTable, request.predicate != nil {
                return "no index would serve this filter: it compares no attribute of \(entity.name) with a value in a way an index "
                    + "can answer (CONTAINS, BEGINSWITH, ENDSWITH, LIKE, [c] and [d] comparisons, key paths through relationships and OR read every row)"
            }
            return nil
        }
        var keys = equal
        if let range = ranged.first, !keys.contains(range) { keys.append(range) }
        if sortUnserved, let sortKey, !keys.contains(sortKey), ranged.isEmpty { keys.append(sortKey) }
        guard !keys.isEmpty else { return nil }
        let why = filterUnserved ? "the store reads all of \(entity.name)'s rows to find the matches"
            : "the store sorts every match to return the first \(request.fetchLimit)"
        if keys.count == 1 {
            let name = keys[0]
            let unique = entity.declaration.uniquenessConstraints.contains { $0.first == name }
            if entity.attribute(named: name)?.isIndexed == true || unique {
                return "\(entity.name).\(name) is indexed, yet \(why): most rows match, or the comparison is one the index cannot answer"
            }
            return "\(why); marking \(entity.name).\(name) indexed (Xcode: the attribute's Index option) would let it search instead"
        }
        return "\(why); a fetch index on \(entity.name) of (\(keys.joined(separator: ", "))) (Xcode: the entity's Indexes) would let it search instead"
    }

    /// The entity's own attributes compared with a constant, through `AND`s: `==` and `IN`
    /// as equalities, `<`, `<=`, `>`, `>=` and `BETWEEN` as ranges. (A `BEGINSWITH` runs as a
    /// function of the column, which no index answers.)
    private static func collect(_ predicate: ObjectPredicate, in entity: Entity, equal: inout [String], ranged: inout [String]) {
        switch predicate {
        case .and(let parts):
            for part in parts { collect(part, in: entity, equal: &equal, ranged: &ranged) }
        case .comparison(let c):
            guard c.modifier == .direct, c.options.isEmpty else { return }
            guard case .keyPath(let key) = c.lhs, case .constant = c.rhs else { return }
            guard let attribute = entity.attribute(named: key), !attribute.isTransient else { return }
            switch c.op {
            case .equalTo, .in: if !equal.contains(key) { equal.append(key) }
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between:
                if !ranged.contains(key) { ranged.append(key) }
            default: return
            }
        default:
            return
        }
    }
}
