/// A rectangle of terminal cells.
///
///     let panel = Rect(x: 10, y: 2, width: 30, height: 8)
///     panel.contains(Point(x: 12, y: 3))   // true
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left cell.
    public var origin: Point
    /// The width and height in cells.
    public var size: Size

    /// A rectangle `size` cells large with its top-left cell at `origin`.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle `width` columns wide and `height` rows high with its top-left cell at (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at (0, 0).
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left column: `origin.x`.
    public var x: Int { origin.x }
    /// The top row: `origin.y`.
    public var y: Int { origin.y }
    /// The number of columns: `size.width`.
    public var width: Int { size.width }
    /// The number of rows: `size.height`.
    public var height: Int { size.height }
    /// The first column past the right edge: `x + width`.
    public var maxX: Int { origin.x + size.width }
    /// The first row past the bottom edge: `y + height`.
    public var maxY: Int { origin.y + size.height }
    /// Whether the rectangle covers no cell: its width or height is zero or less.
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// Whether `point` is one of the rectangle's cells; `maxX` and `maxY` are outside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The overlap of two rectangles; empty (zero size) when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by `amount` cells on every side.
    public func insetBy(_ amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount,
             width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// A rectangle of `size` centred in this one, clamped to fit.
    public func centered(_ size: Size) -> Rect {
        let w = min(size.width, width), h = min(size.height, height)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }

    /// The origin and the size, such as `(2, 1) 40×10`.
    public var description: String { "\(origin) \(size)" }
}
