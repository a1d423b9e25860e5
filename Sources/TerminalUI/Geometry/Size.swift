/// A size in terminal cells.
///
///     let screen = Size(width: 80, height: 24)
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// A size of `width` columns by `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// No columns and no rows.
    public static let zero = Size(width: 0, height: 0)

    /// Whether this size is at least `other` in both directions.
    public func contains(_ other: Size) -> Bool {
        width >= other.width && height >= other.height
    }

    /// The width and the height, such as `80×24`.
    public var description: String { "\(width)×\(height)" }
}
