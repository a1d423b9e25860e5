/// What changes while a form is used: the focused field, its open editor, errors and scroll.
public struct FormState {
    /// The index of the focused field in the form's `fields`.
    public var focusedField = 0
    /// The editor open on the focused field, if any.
    public var editor: CellEditor?
    /// Messages by field identifier, shown under the field until it changes.
    public var errors: [String: String] = [:]
    /// The first row shown; a field with a message under it takes two rows.
    public var scrollOffset = 0

    /// A state with the first field focused, no editor, no errors and nothing scrolled.
    public init() {}

    /// Whether an editor is open on the focused field.
    public var isEditing: Bool { editor != nil }
}
