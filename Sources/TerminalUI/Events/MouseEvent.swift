/// A mouse action at a screen position.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press, release, click, doubleClick, wheelUp, wheelDown
    }

    public var kind: Kind
    /// Position, in the coordinates of whoever receives the event.
    public var position: Point

    public init(_ kind: Kind, at position: Point) {
        self.kind = kind
        self.position = position
    }
}
