/// A labelled field of a form, bound to its value by get and set closures.
///
///     FormField("title", label: "Title", editor: .text,
///               get: { .text(task.title) }, set: { task.title = try text($0) })
///
/// An error thrown by `set` is shown under the field and the editor stays open.
public struct FormField {
    /// Identifies the field; its error message is kept under this key in `FormState.errors`.
    public let id: String
    /// The text shown to the left of the value.
    public var label: String
    /// `.readOnly` shows the value without letting it change.
    public var editor: EditorKind
    /// Turns the value into the text shown; by default `.checkbox` for a `.toggle` field and
    /// `.automatic` otherwise.
    public var format: ValueFormat
    /// Shown (dimmed) for no value, apart from an empty text; nil shows nothing.
    public var nilText: String?
    /// Reads the field's current value, at each draw and when editing begins.
    public let get: () -> CellValue
    /// Stores an edited value; an error it throws is shown under the field and the editor stays open.
    public let set: (CellValue) throws -> Void
    /// Whether the value is changed and not yet saved: it is drawn in the theme's `modified` style.
    public var isChanged: (() -> Bool)?

    /// A field `id` labelled `label`, read by `get` and stored by `set`; without `set`, every
    /// change is refused with `ReadOnlyError`.
    public init(_ id: String, label: String, editor: EditorKind = .text, format: ValueFormat? = nil,
                get: @escaping () -> CellValue, set: @escaping (CellValue) throws -> Void = { _ in throw ReadOnlyError() }) {
        self.id = id
        self.label = label
        self.editor = editor
        self.format = format ?? (editor == .toggle ? .checkbox : .automatic)
        self.get = get
        self.set = set
    }
}
