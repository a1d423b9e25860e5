/// A run of cells on one row that changed since the last frame; what a driver writes.
public struct ScreenChange: Hashable, Sendable {
    /// The row of the run.
    public var y: Int
    /// The column where the run begins.
    public var x: Int
    /// The run's cells, left to right; a two-cell character comes with its continuation cell.
    public var cells: [Cell]
}
