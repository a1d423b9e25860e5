/// How a cell stands out from its neighbours: changed and not yet saved, dimmed (done,
/// deleted), or a warning (overdue).
///
///     func emphasis(row: Int, column: String) -> CellEmphasis { isDirty(row, column) ? .modified : .none }
public enum CellEmphasis: Hashable, Sendable {
    /// No emphasis: the cell is drawn in its row's style.
    case none
    /// Changed since the last save.
    case modified
    /// Of less interest: completed, or marked for deletion.
    case dimmed
    /// Needs attention: overdue, invalid.
    case warning
}
