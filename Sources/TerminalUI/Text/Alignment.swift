/// Where text sits in a space wider than itself.
public enum Alignment: Sendable, Hashable {
    /// Against the left edge, centred (an odd spare cell going to the right), or against the right edge.
    case left, center, right
}
