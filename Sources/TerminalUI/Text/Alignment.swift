/// Where text sits in a space wider than itself.
public enum Alignment: Sendable, Hashable {
    case left, center, right
}
