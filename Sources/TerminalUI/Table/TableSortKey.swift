/// One key of a table's sort: a column and its direction. A table sorts by several, the
/// first deciding and each next one breaking the ties of those before it.
public struct TableSortKey: Codable, Equatable, Sendable {
    /// The column's identifier.
    public var column: String
    /// Whether the column sorts in ascending order; false for descending.
    public var ascending: Bool

    /// A key on the column with identifier `column`, ascending unless told otherwise.
    public init(_ column: String, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }
}

extension [TableSortKey] {
    /// The keys after the column's turn in the header's `S` cycle: a column not among them is
    /// added ascending, an ascending one turns descending, a descending one leaves the sort.
    public func cycling(_ column: String) -> [TableSortKey] {
        guard let i = firstIndex(where: { $0.column == column }) else { return self + [TableSortKey(column)] }
        var keys = self
        if keys[i].ascending { keys[i].ascending = false } else { keys.remove(at: i) }
        return keys
    }
}
