import Foundation
import ObjectModel
import Predicates

/// How often each value of a key path occurs among an entity's objects (an attribute, or an
/// attribute through to-one relationships such as `category.name`), most common first,
/// counted by the store: over SQLite one `GROUP BY`, reading one row per value.
///
/// ```swift
/// let counts = try ValueCounts(keyPath: "category.name", entityName: "ToDo", predicate: nil, in: context)
/// counts.entries[0]   // ("Home", 412)
/// ```
public struct ValueCounts: Sendable {
    public struct Entry: Sendable, Equatable {
        public var value: ObjectValue
        public var count: Int

        public init(value: ObjectValue, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// The most values listed; the rest are counted together.
    public static let defaultLimit = 1_000

    public let keyPath: String
    /// The values, most common first (equal counts in the values' order); nil among them.
    public var entries: [Entry]
    /// The objects counted: those the predicate matches.
    public var total: Int
    /// Whether more values exist than `entries` holds.
    public var isCut: Bool

    /// The objects the listed values do not account for (when the list is cut).
    public var remainder: Int { total - entries.reduce(0) { $0 + $1.count } }

    /// Counts in the store, with the context's saved objects (its unsaved changes are not
    /// counted: a dictionary fetch reads what the store holds).
    ///
    /// - Parameter limit: the most values listed, or nil for all of them.
    public init(keyPath: String, entityName: String, predicate: ObjectPredicate?, limit: Int? = defaultLimit,
                in context: ManagedObjectContext) throws {
        self.keyPath = keyPath
        let count = ExpressionDescription(name: Self.countName, expression: .function("count:", [.keyPath(keyPath)]),
                                          resultType: .integer64)
        let request = FetchRequest(entityName: entityName, predicate: predicate,
                                   sortDescriptors: [ObjectSortDescriptor(key: Self.countName, ascending: false),
                                                     ObjectSortDescriptor(key: keyPath, ascending: true)],
                                   fetchLimit: limit.map { $0 + 1 } ?? 0, resultType: .dictionaries,
                                   propertiesToFetch: [.key(keyPath), .expression(count)],
                                   propertiesToGroupBy: [.key(keyPath)])
        let rows = try context.fetchDictionaries(request)
        isCut = limit.map { rows.count > $0 } ?? false
        entries = rows.prefix(limit ?? rows.count).map { row in
            Entry(value: row[keyPath] ?? .null, count: row[Self.countName]?.intValue ?? 0)
        }
        total = isCut ? try context.count(for: FetchRequest(entityName: entityName, predicate: predicate))
                      : entries.reduce(0) { $0 + $1.count }
    }

    /// The name the count has in the result rows, which no model's key is likely to have.
    static let countName = "termdataValueCount"

    /// The predicate that shows the objects of one value (`key == value`, `key == nil`).
    public static func predicate(_ keyPath: String, equalTo value: ObjectValue) -> ObjectPredicate {
        .comparison(ComparisonPredicate(.keyPath(keyPath), .equalTo, .constant(value)))
    }
}

/// A key path's statistics among an entity's objects, computed by the store: how many objects,
/// how many have no value, the least and greatest value (earliest and latest for dates), and
/// for numbers their mean.
///
/// ```swift
/// let stats = try ValueStatistics(keyPath: "price", type: .decimal, entityName: "Product", predicate: nil, in: context)
/// stats.minimum, stats.maximum, stats.mean
/// ```
public struct ValueStatistics: Sendable {
    public var count: Int
    public var nilCount: Int
    public var minimum: ObjectValue
    public var maximum: ObjectValue
    /// The mean, for numbers; nil otherwise.
    public var mean: ObjectValue?

    public init(keyPath: String, type: AttributeType, entityName: String, predicate: ObjectPredicate?,
                in context: ManagedObjectContext) throws {
        var properties: [FetchProperty] = [
            .expression(ExpressionDescription(name: "minimum", expression: .function("min:", [.keyPath(keyPath)]), resultType: type)),
            .expression(ExpressionDescription(name: "maximum", expression: .function("max:", [.keyPath(keyPath)]), resultType: type)),
        ]
        let isNumber = type.isInteger || [.double, .float, .decimal].contains(type)
        if isNumber {
            properties.append(.expression(ExpressionDescription(name: "mean", expression: .function("average:", [.keyPath(keyPath)]),
                                                                resultType: type == .decimal ? .decimal : .double)))
        }
        let row = try context.fetchDictionaries(FetchRequest(entityName: entityName, predicate: predicate, resultType: .dictionaries,
                                                             propertiesToFetch: properties)).first ?? [:]
        minimum = row["minimum"] ?? .null
        maximum = row["maximum"] ?? .null
        mean = isNumber ? row["mean"] ?? .null : nil
        count = try context.count(for: FetchRequest(entityName: entityName, predicate: predicate))
        let isNil = ValueCounts.predicate(keyPath, equalTo: .null)
        nilCount = try context.count(for: FetchRequest(entityName: entityName, predicate: predicate.map { .and([$0, isNil]) } ?? isNil))
    }
}
