/// A mouse action at a screen position.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Kind: Hashable, Sendable {
        /// `press` and `release`: the left button went down or up; `click` and `doubleClick`: it
        /// was clicked once or twice; `wheelUp` and `wheelDown`: the wheel turned.
        case press, release, click, doubleClick, wheelUp, wheelDown
    }

    /// Which action it was: a click, a press or release, or a turn of the wheel.
    public var kind: Kind
    /// Position, in the coordinates of whoever receives the event.
    public var position: Point

    /// A mouse action of `kind` at `position`.
    public init(_ kind: Kind, at position: Point) {
        self.kind = kind
        self.position = position
    }
}
