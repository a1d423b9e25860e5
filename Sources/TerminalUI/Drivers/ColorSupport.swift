/// How many colours the terminal can show.
public enum ColorSupport: Sendable, Hashable {
    /// Attributes only: no colour terminal, or `NO_COLOR` is set.
    case monochrome
    /// The eight basic colours (sixteen with bright variants).
    case basic
    /// The 256-colour palette.
    case palette256
}
