/// How a cell or field is edited.
///
///     .text, .integer, .decimal, .date, .toggle, .choice(["Home", "Work"]), .readOnly
public enum EditorKind: Hashable, Sendable {
    /// Not editable.
    case readOnly
    /// One line of free text; an empty line stores no value (`.empty`).
    case text
    /// Whole numbers.
    case integer
    /// Numbers with a fraction; a decimal comma is read as a point unless it could also separate
    /// thousands, when the number is refused.
    case decimal
    /// Date and time: arrows change the part under the cursor, `t` sets today.
    case date
    /// A boolean flipped by Enter, `e` or Space.
    case toggle
    /// One of a list, picked in a popup (a to-one relationship, for example).
    case choice([String])
}
