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
    /// One listed value, or range of values, and how many objects have it.
    public struct Entry: Sendable, Equatable {
        /// The value; for a range, its lower bound.
        public var value: ObjectValue
        /// How many of the counted objects have the value, or a value in the range.
        public var count: Int
        /// Where the value's range ends (not in it), when values are counted by ranges.
        public var upperBound: ObjectValue?

        /// An entry for a value, or for a range when `upperBound` is given.
        public init(value: ObjectValue, count: Int, upperBound: ObjectValue? = nil) {
            self.value = value
            self.count = count
            self.upperBound = upperBound
        }
    }

    /// The most values listed; the rest are counted together.
    public static let defaultLimit = 1_000

    /// The key path whose values are counted.
    public let keyPath: String
    /// The ranges the values were counted by, or nil for each value apart.
    public let bucketing: ValueBucketing?
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
    /// - Parameter keyPath: the attribute, or attribute through to-one relationships, whose
    ///   values are counted.
    /// - Parameter entityName: the entity whose objects are counted.
    /// - Parameter predicate: which of the entity's objects are counted; `nil` for all of them.
    /// - Parameter limit: the most values listed, or nil for all of them.
    /// - Parameter context: the context whose store counts the objects.
    public init(keyPath: String, entityName: String, predicate: ObjectPredicate?, limit: Int? = defaultLimit,
                in context: ManagedObjectContext) throws {
        self.keyPath = keyPath
        bucketing = nil
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

    /// Counts by ranges of values, in order from the least, every range between the least
    /// and the greatest value listed (empty ones with 0), objects without a value last.
    ///
    /// - Parameter keyPath: the attribute, or attribute through to-one relationships, whose
    ///   values are counted.
    /// - Parameter entityName: the entity whose objects are counted.
    /// - Parameter predicate: which of the entity's objects are counted; `nil` for all of them.
    /// - Parameter bucketing: the ranges the values are counted by.
    /// - Parameter type: the attribute type the key path ends in.
    /// - Parameter context: the context whose store counts the objects.
    /// - Throws: `ValueBucketing.Refusal` for values of another kind or too many ranges.
    public init(keyPath: String, entityName: String, predicate: ObjectPredicate?, bucketing: ValueBucketing,
                type: AttributeType, in context: ManagedObjectContext) throws {
        self.keyPath = keyPath
        self.bucketing = bucketing
        isCut = false
        let (minimum, maximum) = try ValueStatistics.range(keyPath, type: type, entityName: entityName, predicate: predicate, in: context)
        let bounds = minimum == .null ? [] : try bucketing.bounds(from: minimum, to: maximum, type: type)
        let integral = bounds.allSatisfy { if case .int = $0 { true } else { false } }
        let bucket = ExpressionDescription(name: Self.bucketName, expression: ValueBucketing.expression(keyPath, bounds: bounds),
                                           resultType: type == .date ? .date : integral ? .integer64 : .double)
        let count = ExpressionDescription(name: Self.countName, expression: .function("count:", [.keyPath(keyPath)]),
                                          resultType: .integer64)
        let rows = try context.fetchDictionaries(FetchRequest(entityName: entityName, predicate: predicate, resultType: .dictionaries,
                                                              propertiesToFetch: [.expression(bucket), .expression(count)],
                                                              propertiesToGroupBy: [.expression(bucket)]))
        // Each group's count is of its objects, those without a value among them.
        var found: [ObjectValue: Int] = [:]
        var nilCount = 0
        for row in rows {
            let value = row[Self.bucketName] ?? .null, n = row[Self.countName]?.intValue ?? 0
            if value == .null { nilCount += n } else { found[Self.key(value), default: 0] += n }
        }
        entries = zip(bounds, bounds.dropFirst()).map { lower, upper in
            Entry(value: lower, count: found[Self.key(lower)] ?? 0, upperBound: upper)
        }
        if nilCount > 0 { entries.append(Entry(value: .null, count: nilCount)) }
        total = entries.reduce(0) { $0 + $1.count }
    }

    /// A range's bound as a dictionary key: integers and doubles that are equal are one key.
    private static func key(_ value: ObjectValue) -> ObjectValue {
        if case .int(let i) = value { return .double(Double(i)) }
        return value
    }

    /// The name the count has in the result rows, which no model's key is likely to have.
    static let countName = "termdataValueCount"
    static let bucketName = "termdataValueRange"

    /// The predicate that shows the objects of one value (`key == value`, `key == nil`).
    public static func predicate(_ keyPath: String, equalTo value: ObjectValue) -> ObjectPredicate {
        .comparison(ComparisonPredicate(.keyPath(keyPath), .equalTo, .constant(value)))
    }

    /// The predicate that shows the objects of one entry: its value, or its range
    /// (`key >= lower AND key < upper`).
    public static func predicate(_ keyPath: String, for entry: Entry) -> ObjectPredicate {
        guard let upper = entry.upperBound else { return predicate(keyPath, equalTo: entry.value) }
        return .and([.comparison(ComparisonPredicate(.keyPath(keyPath), .greaterThanOrEqualTo, .constant(entry.value))),
                     .comparison(ComparisonPredicate(.keyPath(keyPath), .lessThan, .constant(upper)))])
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
    /// How many objects match the predicate (counted with the context's unsaved changes).
    public var count: Int
    /// How many of them have no value at the key path.
    public var nilCount: Int
    /// The least value (the earliest date); `.null` when no object has one.
    public var minimum: ObjectValue
    /// The greatest value (the latest date); `.null` when no object has one.
    public var maximum: ObjectValue
    /// The mean, for numbers; nil otherwise.
    public var mean: ObjectValue?

    /// Computes the statistics of the objects the predicate matches (all when `nil`): the counts
    /// with the context's unsaved changes, the values as the store holds them.
    ///
    /// - Parameter keyPath: the attribute, or attribute through to-one relationships, whose
    ///   statistics are computed.
    /// - Parameter type: the attribute type the key path ends in.
    /// - Parameter entityName: the entity whose objects are looked at.
    /// - Parameter predicate: which of the entity's objects are looked at; `nil` for all of them.
    /// - Parameter context: the context the objects are counted in; its store computes the values.
    public init(keyPath: String, type: AttributeType, entityName: String, predicate: ObjectPredicate?,
                in context: ManagedObjectContext) throws {
        var properties = Self.rangeProperties(keyPath, type: type)
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

    /// The least and greatest value of a key path among the objects matched (nil, nil when none has one).
    static func range(_ keyPath: String, type: AttributeType, entityName: String, predicate: ObjectPredicate?,
                      in context: ManagedObjectContext) throws -> (ObjectValue, ObjectValue) {
        let row = try context.fetchDictionaries(FetchRequest(entityName: entityName, predicate: predicate, resultType: .dictionaries,
                                                             propertiesToFetch: rangeProperties(keyPath, type: type))).first ?? [:]
        return (row["minimum"] ?? .null, row["maximum"] ?? .null)
    }

    private static func rangeProperties(_ keyPath: String, type: AttributeType) -> [FetchProperty] {
        [
            .expression(ExpressionDescription(name: "minimum", expression: .function("min:", [.keyPath(keyPath)]), resultType: type)),
            .expression(ExpressionDescription(name: "maximum", expression: .function("max:", [.keyPath(keyPath)]), resultType: type)),
        ]
    }
}
