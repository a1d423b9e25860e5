/// A size in terminal cells.
///
///     let screen = Size(width: 80, height: 24)
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// Whether this size is at least `other` in both directions.
    public func contains(_ other: Size) -> Bool {
        width >= other.width && height >= other.height
    }

    public var description: String { "\(width)×\(height)" }
}
