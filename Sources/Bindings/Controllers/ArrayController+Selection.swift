import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension ArrayController {
    // MARK: Selection

    /// The selected objects, in arranged order.
    public var selectedObjects: [ManagedObject] {
        selectionIndexes.compactMap { arrangedObject(at: $0) }
    }

    /// The single selected index, or `nil` for none or several.
    public var selectionIndex: Int? { selectionIndexes.count == 1 ? selectionIndexes.first : nil }

    /// Selects rows; first asks the editors to commit, and refuses (returning false) if one cannot.
    @discardableResult
    public func setSelectionIndexes(_ indexes: IndexSet) -> Bool {
        let valid = IndexSet(indexes.filter { $0 >= 0 && $0 < arrangedCount })
        guard valid != selectionIndexes else { return true }
        guard commitEditing() else { return false }
        var target = valid
        if target.isEmpty && avoidsEmptySelection && arrangedCount > 0 { target = [min(selectionIndexes.first ?? 0, arrangedCount - 1)] }
        guard target != selectionIndexes else { return true }
        selectionIndexes = target
        notify(ArrangedChanges(selectionChanged: true))
        return true
    }

    /// Selects one row.
    @discardableResult
    public func setSelectionIndex(_ index: Int) -> Bool { setSelectionIndexes([index]) }

    /// Selects objects, if they are arranged.
    @discardableResult
    public func setSelectedObjects(_ objects: [ManagedObject]) -> Bool {
        setSelectionIndexes(IndexSet(objects.compactMap { arrangedIndex(of: $0) }))
    }

    /// Whether a row follows the last selected one (or, with nothing selected, whether there is a
    /// first row).
    public var canSelectNext: Bool { (selectionIndexes.last ?? -1) + 1 < arrangedCount }
    /// Whether a row precedes the first selected one.
    public var canSelectPrevious: Bool { (selectionIndexes.first ?? 0) > 0 }

    /// Selects the row after the last selected one (the first row when nothing is selected).
    ///
    /// - Returns: `false` when there is no such row or an editor refused to commit.
    @discardableResult
    public func selectNext() -> Bool {
        guard canSelectNext else { return false }
        return setSelectionIndex((selectionIndexes.last ?? -1) + 1)
    }

    /// Selects the row before the first selected one.
    ///
    /// - Returns: `false` when there is no such row or an editor refused to commit.
    @discardableResult
    public func selectPrevious() -> Bool {
        guard canSelectPrevious else { return false }
        return setSelectionIndex((selectionIndexes.first ?? 1) - 1)
    }

    func restoreSelection(old: [ManagedObject], changes: ArrangedChanges) {
        let selected = selectionIndexes.compactMap { $0 < old.count ? old[$0] : nil }
        restoreSelection(selected, oldFirst: selectionIndexes.first, changes: changes)
    }

    func restoreSelection(_ selected: [ManagedObject], oldFirst: Int?, changes: ArrangedChanges) {
        var changes = changes
        var target = IndexSet()
        if preservesSelection { target = IndexSet(selected.compactMap { arrangedIndex(of: $0) }) }
        if target.isEmpty && avoidsEmptySelection && arrangedCount > 0 {
            target = [min(oldFirst ?? 0, arrangedCount - 1)]
        }
        if target != selectionIndexes {
            selectionIndexes = target
            changes.selectionChanged = true
        }
        if !changes.isEmpty { notify(changes) }
    }

    // MARK: Editing

    /// Registers an editor whose edit must be committed before the selection changes.
    public func registerEditor(_ editor: any Editor) { editors.register(editor) }
    /// Stops asking an editor to commit before the selection changes.
    public func unregisterEditor(_ editor: any Editor) { editors.unregister(editor) }
    /// Whether an edit is in progress.
    public var isEditing: Bool { editors.isEditing }

    /// Asks every editor to commit; `false` if one refuses.
    public func commitEditing() -> Bool { editors.commitEditing() }

    /// Abandons every edit in progress.
    public func discardEditing() { editors.discardEditing() }
}
