/// A run of cells on one row that changed since the last frame; what a driver writes.
public struct ScreenChange: Hashable, Sendable {
    public var y: Int
    public var x: Int
    public var cells: [Cell]
}
