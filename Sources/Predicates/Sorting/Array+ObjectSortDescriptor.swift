import Foundation

extension Array where Element == ObjectSortDescriptor {
    /// Orders two objects by the first descriptor that tells them apart.
    ///
    /// ```swift
    /// try [ObjectSortDescriptor(key: "last"), ObjectSortDescriptor(key: "first")].compare(a, b)
    /// ```
    public func compare(_ a: ObjectValue, _ b: ObjectValue) throws -> ComparisonResult {
        for descriptor in self {
            let result = try descriptor.compare(a, b)
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    /// The values sorted by these descriptors; equal values keep their order.
    ///
    /// ```swift
    /// let sorted = try [ObjectSortDescriptor(key: "age", ascending: false)].sorted(rows)
    /// ```
    public func sorted(_ values: [ObjectValue]) throws -> [ObjectValue] {
        try sortedIndices(values).map { values[$0] }
    }

    /// Key-value sources (managed objects, dictionaries) sorted by these descriptors;
    /// equal ones keep their order.
    public func sorted<T: KeyValueCoding>(_ items: [T]) throws -> [T] {
        try sortedIndices(items.map { ObjectValue(keyValueSource: $0) }).map { items[$0] }
    }

    private func sortedIndices(_ values: [ObjectValue]) throws -> [Int] {
        // Read every key once, then sort indices; the index breaks ties, which keeps it stable.
        let keys = try values.map { value in try self.map { try ObjectKeyPath.value(of: $0.key, in: value) } }
        return values.indices.sorted { i, j in
            for (n, descriptor) in self.enumerated() {
                switch descriptor.compareValues(keys[i][n], keys[j][n]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return i < j
        }
    }
}
