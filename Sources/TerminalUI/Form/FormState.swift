/// What changes while a form is used: the focused field, its open editor, errors and scroll.
public struct FormState {
    public var focusedField = 0
    public var editor: CellEditor?
    /// Messages by field identifier, shown under the field until it changes.
    public var errors: [String: String] = [:]
    public var scrollOffset = 0

    public init() {}

    public var isEditing: Bool { editor != nil }
}
