/// A cell position on the screen: column `x`, row `y`, both counted from zero.
///
///     let origin = Point(x: 0, y: 0)
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The column, counted from zero at the left.
    public var x: Int
    /// The row, counted from zero at the top.
    public var y: Int

    /// The point at column `x`, row `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top-left cell, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// The point as `(x, y)`, such as `(3, 7)`.
    public var description: String { "(\(x), \(y))" }
}
