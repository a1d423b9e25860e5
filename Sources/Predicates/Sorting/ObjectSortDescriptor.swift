import Foundation

/// How to order objects: a key path, a direction and a comparison.
///
/// `nil` sorts first in ascending order and last in descending order, as SQLite orders
/// NULLs, so stores and memory agree.
///
/// ```swift
/// let byName = ObjectSortDescriptor(key: "name", comparison: .localizedStandardCompare)
/// let rows = try [byName].sorted(people)   // stable
/// ```
public struct ObjectSortDescriptor: Equatable, Hashable, Sendable {
    /// The key path read from each object.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How values are compared.
    public var comparison: SortComparison

    /// A sort descriptor; ascending with `compare:` unless told otherwise.
    public init(key: String, ascending: Bool = true, comparison: SortComparison = .compare) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// A sort descriptor with a selector name such as `"caseInsensitiveCompare:"`; nil for a
    /// selector that stores cannot sort by.
    public init?(key: String, ascending: Bool = true, selector: String) {
        guard let comparison = SortComparison(rawValue: selector) else { return nil }
        self.init(key: key, ascending: ascending, comparison: comparison)
    }

    /// The same key and comparison in the other direction.
    public var reversed: ObjectSortDescriptor {
        ObjectSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// Orders two objects by the values at `key`.
    ///
    /// ```swift
    /// try ObjectSortDescriptor(key: "age").compare(["age": 3], ["age": 5])   // .orderedAscending
    /// ```
    public func compare(_ a: ObjectValue, _ b: ObjectValue) throws -> ComparisonResult {
        compareValues(try ObjectKeyPath.value(of: key, in: a), try ObjectKeyPath.value(of: key, in: b))
    }

    /// Orders two values already read at `key`.
    public func compareValues(_ a: ObjectValue, _ b: ObjectValue) -> ComparisonResult {
        let result = comparison.order(a, b)
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}

extension ObjectSortDescriptor: CustomStringConvertible {
    /// `(name, ascending, compare:)`, as Foundation describes a sort descriptor.
    public var description: String {
        "(\(key), \(ascending ? "ascending" : "descending"), \(comparison.rawValue))"
    }
}
