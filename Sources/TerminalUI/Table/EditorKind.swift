/// How a cell or field is edited.
///
///     .text, .integer, .decimal, .date, .toggle, .choice(["Home", "Work"]), .readOnly
public enum EditorKind: Hashable, Sendable {
    /// Not editable.
    case readOnly
    case text
    /// Whole numbers.
    case integer
    case decimal
    /// Date and time: arrows change the part under the cursor, `t` sets today.
    case date
    /// A boolean flipped by Enter, `e` or Space.
    case toggle
    /// One of a list, picked in a popup (a to-one relationship, for example).
    case choice([String])
}
