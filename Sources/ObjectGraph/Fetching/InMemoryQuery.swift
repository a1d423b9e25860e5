import Foundation
import ObjectModel
import Predicates

/// A fetch evaluated in memory over candidate objects: filter, sort, offset and limit,
/// and the dictionary and count forms. Atomic stores run every fetch this way; the
/// context uses it to fold unsaved changes into a store's results.
struct InMemoryQuery {
    let request: FetchRequest<ManagedObject>

    /// The candidates that match the predicate, in sort order, without offset or limit.
    func filterAndSort(_ candidates: [ObjectValue]) throws -> [ObjectValue] {
        var matching = candidates
        if let predicate = request.predicate {
            matching = try candidates.filter { try predicate.evaluate(with: $0) }
        }
        if !request.sortDescriptors.isEmpty {
            matching = try request.sortDescriptors.sorted(matching)
        }
        return matching
    }

    /// Applies offset and limit.
    func window<T>(_ items: [T]) -> [T] {
        let start = min(request.fetchOffset, items.count)
        let end = request.fetchLimit > 0 ? min(items.count, start + request.fetchLimit) : items.count
        return Array(items[start..<end])
    }

    /// The dictionary results of matching, sorted candidates.
    func dictionaries(_ matching: [ObjectValue], entity: Entity) throws -> [[String: ObjectValue]] {
        let properties = request.propertiesToFetch ?? entity.storedAttributes.map { .key($0.name) }
        let groupBy = request.propertiesToGroupBy ?? []
        let aggregating = properties.contains { Self.aggregate(of: $0) != nil }
        var results: [[String: ObjectValue]]
        if groupBy.isEmpty && !aggregating {
            results = try matching.map { row in
                var d: [String: ObjectValue] = [:]
                for p in properties { d[p.name] = try Self.value(of: p, in: row) }
                return d
            }
        } else {
            // Groups in order of first appearance; one group of everything when not grouping.
            var order: [[ObjectValue]] = []
            var groups: [[ObjectValue]: [ObjectValue]] = [:]
            for row in matching {
                let key = try groupBy.map { try Self.value(of: $0, in: row) }
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(row)
            }
            if groupBy.isEmpty && order.isEmpty { order = [[]]; groups[[]] = [] }
            results = try order.map { key in
                let rows = groups[key] ?? []
                var d: [String: ObjectValue] = [:]
                for p in properties {
                    if let (function, argument) = Self.aggregate(of: p) {
                        let values = try rows.map { try argument.evaluate(with: $0) }
                        d[p.name] = try ObjectExpression.function(function, [.constant(.array(values))]).evaluate(with: .null)
                    } else {
                        d[p.name] = try rows.first.map { try Self.value(of: p, in: $0) } ?? .null
                    }
                }
                return d
            }
            if let having = request.havingPredicate {
                results = try results.filter { try having.evaluate(with: .dictionary($0)) }
            }
            if !groupBy.isEmpty, !request.sortDescriptors.isEmpty {
                results = try request.sortDescriptors.sorted(results.map { ObjectValue.dictionary($0) })
                    .compactMap { if case .dictionary(let d) = $0 { return d }; return nil }
            }
        }
        if request.returnsDistinctResults {
            var seen = Set<[String: ObjectValue]>()
            results = results.filter { seen.insert($0).inserted }
        }
        return results
    }

    static func value(of property: FetchProperty, in row: ObjectValue) throws -> ObjectValue {
        switch property {
        case .key(let path): return try ObjectKeyPath.value(of: path, in: row)
        case .expression(let description): return try description.expression.evaluate(with: row)
        }
    }

    static let aggregateFunctions: Set<String> = ["sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:"]

    /// `function:(argument)` when a property aggregates over the fetched rows.
    static func aggregate(of property: FetchProperty) -> (String, ObjectExpression)? {
        guard case .expression(let description) = property,
              case .function(let name, let arguments) = description.expression,
              aggregateFunctions.contains(name), arguments.count == 1 else { return nil }
        switch arguments[0] {
        case .keyPath, .evaluatedObject: return (name, arguments[0])
        default: return nil
        }
    }
}
