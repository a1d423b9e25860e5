/// A rectangle of terminal cells.
///
///     let panel = Rect(x: 10, y: 2, width: 30, height: 8)
///     panel.contains(Point(x: 12, y: 3))   // true
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Int { origin.x }
    public var y: Int { origin.y }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var maxX: Int { origin.x + size.width }
    public var maxY: Int { origin.y + size.height }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

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

    public var description: String { "\(origin) \(size)" }
}
