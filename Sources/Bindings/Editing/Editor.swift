/// Something editing a controller's values — a table cell or form field in edit — that
/// must finish before the selection changes or the context saves.
///
/// A controller asks its registered editors to commit before it changes its selection;
/// an editor that refuses (its text does not parse, say) keeps the selection where it is.
public protocol Editor: AnyObject {
    /// Writes the edit in progress; `false` when it cannot (the edit stays open).
    func commitEditing() -> Bool
    /// Abandons the edit in progress.
    func discardEditing()
}

struct WeakEditor {
    weak var editor: (any Editor)?
}

/// Keeps the editors registered with a controller.
final class EditorRegistry {
    private var editors: [WeakEditor] = []

    func register(_ editor: any Editor) {
        editors.removeAll { $0.editor == nil || $0.editor === editor }
        editors.append(WeakEditor(editor: editor))
    }

    func unregister(_ editor: any Editor) {
        editors.removeAll { $0.editor == nil || $0.editor === editor }
    }

    var isEditing: Bool { editors.contains { $0.editor != nil } }

    func commitEditing() -> Bool {
        editors.compactMap(\.editor).allSatisfy { $0.commitEditing() }
    }

    func discardEditing() {
        for e in editors.compactMap(\.editor) { e.discardEditing() }
    }
}
