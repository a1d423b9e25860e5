/// A labelled field of a form, bound to its value by get and set closures.
///
///     FormField("title", label: "Title", editor: .text,
///               get: { .text(task.title) }, set: { task.title = try text($0) })
///
/// An error thrown by `set` is shown under the field and the editor stays open.
public struct FormField {
    public let id: String
    public var label: String
    /// `.readOnly` shows the value without letting it change.
    public var editor: EditorKind
    public var format: ValueFormat
    /// Shown (dimmed) for no value, apart from an empty text; nil shows nothing.
    public var nilText: String?
    public let get: () -> CellValue
    public let set: (CellValue) throws -> Void
    /// Whether the value is changed and not yet saved: it is drawn in the theme's `modified` style.
    public var isChanged: (() -> Bool)?

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
