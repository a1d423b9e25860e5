import Foundation
import OrderedCollections
import Predicates

/// Undo and redo for a context: changes are recorded in groups, one per event by
/// default (each `processPendingChanges` closes a group), or in explicit groups.
///
/// ```swift
/// context.undoManager = UndoStack()
/// item["name"] = "Renamed"
/// context.processPendingChanges()
/// context.undo()            // the old name is back
/// ```
public final class UndoStack {
    /// One recorded change; undo applies its inverse.
    enum Change {
        case attribute(ManagedObject, Int, from: ObjectValue, to: ObjectValue)
        case toOne(ManagedObject, Int, from: ManagedObject?, to: ManagedObject?)
        case insertMember(ManagedObject, Int, ManagedObject, at: Int?)
        case removeMember(ManagedObject, Int, ManagedObject, at: Int?)
        case order(ManagedObject, Int, from: OrderedSet<ManagedObject>, to: OrderedSet<ManagedObject>)
        case status(ManagedObject, from: ManagedObject.Status, to: ManagedObject.Status)
    }

    struct Group {
        var changes: [Change] = []
        var actionName = ""
    }

    /// Whether each event becomes one undo group (the default).
    public var groupsByEvent = true
    /// How many groups to keep; 0 keeps all.
    public var levelsOfUndo = 0

    var undoGroups: [Group] = []
    var redoGroups: [Group] = []
    private var open = Group()
    private var explicitDepth = 0
    private var disabledCount = 0

    /// An empty stack that groups changes by event and keeps every group.
    public init() {}

    /// Whether there is something to undo.
    public var canUndo: Bool { !undoGroups.isEmpty || !open.changes.isEmpty }
    /// Whether there is something to redo.
    public var canRedo: Bool { !redoGroups.isEmpty }
    /// How many groups an undo can revert, counting changes not yet closed into a group:
    /// unchanged between two moments when nothing was recorded in between.
    public var undoGroupCount: Int { undoGroups.count + (open.changes.isEmpty ? 0 : 1) }
    /// The name of the group an undo would revert.
    public var undoActionName: String { open.changes.isEmpty ? (undoGroups.last?.actionName ?? "") : open.actionName }
    /// The name of the group a redo would apply.
    public var redoActionName: String { redoGroups.last?.actionName ?? "" }
    /// Whether changes are being recorded.
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Names the group being recorded ("Add Item", "Delete").
    public func setActionName(_ name: String) { open.actionName = name }

    /// Starts an explicit group; changes until the matching `endUndoGrouping` undo together.
    public func beginUndoGrouping() {
        if explicitDepth == 0 { closeGroup() }
        explicitDepth += 1
    }

    /// Ends an explicit group.
    public func endUndoGrouping() {
        precondition(explicitDepth > 0, "endUndoGrouping without beginUndoGrouping")
        explicitDepth -= 1
        if explicitDepth == 0 { closeGroup() }
    }

    /// Stops recording until `enableUndoRegistration`.
    public func disableUndoRegistration() { disabledCount += 1 }

    /// Resumes recording.
    public func enableUndoRegistration() {
        precondition(disabledCount > 0, "enableUndoRegistration without disableUndoRegistration")
        disabledCount -= 1
    }

    /// Forgets every recorded change.
    public func removeAllActions() {
        undoGroups.removeAll()
        redoGroups.removeAll()
        open = Group()
    }

    func record(_ change: Change) {
        guard disabledCount == 0 else { return }
        open.changes.append(change)
        redoGroups.removeAll()
    }

    func closeEventGroup() {
        if explicitDepth == 0 { closeGroup() }
    }

    private func closeGroup() {
        guard !open.changes.isEmpty else { return }
        undoGroups.append(open)
        open = Group()
        if levelsOfUndo > 0, undoGroups.count > levelsOfUndo { undoGroups.removeFirst(undoGroups.count - levelsOfUndo) }
    }

    func popUndo() -> Group? {
        closeGroup()
        return undoGroups.popLast()
    }

    func popRedo() -> Group? { redoGroups.popLast() }
    func pushRedo(_ group: Group) { redoGroups.append(group) }
    func pushUndo(_ group: Group) { undoGroups.append(group) }
}
