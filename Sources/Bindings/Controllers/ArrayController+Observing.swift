import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension ArrayController {
    // MARK: Observing

    /// Calls `handler` with every change of the arranged objects or the selection.
    public func observe(_ handler: @escaping (ArrangedChanges) -> Void) -> BindingObservation {
        let id = UUID()
        observers[id] = handler
        return BindingObservation { [weak self] in self?.observers[id] = nil }
    }

    func notify(_ changes: ArrangedChanges) {
        for handler in observers.values { handler(changes) }
    }

    // MARK: Following the context

    func followContext() {
        guard contextObservation == nil, lazy == nil else { return }
        contextObservation = context.observe { [weak self] note in
            guard let self, case .objectsDidChange(let changes) = note else { return }
            self.contextChanged(changes)
        }
    }

    func lazyChanged(_ changes: ArrangedChanges) {
        restoreSelection(rememberedSelection, oldFirst: selectionIndexes.first, changes: changes)
    }

    private func contextChanged(_ changes: ObjectChanges) {
        if changes.invalidatedAll { refetch(); return }
        // A merge named objects of these kinds that the context does not hold (many new
        // ones, or changed ones not in memory): only a fetch knows which of them match now.
        if case .entity = mode, changes.mergedObjectIDs.contains(where: { kinds.contains($0.entityName) }) {
            refetch()
            return
        }
        let relevant: (ManagedObject) -> Bool = { [kinds] in kinds.contains($0.entity.name) }
        var membershipChanged = false
        let present = Set(content)

        let gone = Set((changes.deleted + changes.invalidated).filter(relevant))
        if !gone.isEmpty {
            content.removeAll { gone.contains($0) }
            membershipChanged = true
        }

        switch mode {
        case .entity:
            for object in (changes.inserted + changes.updated + changes.refreshed).filter(relevant) where object.isValid && !object.isDeleted {
                let matches = (try? fetchPredicate?.evaluate(with: .object(object)) ?? true) ?? false
                if matches && !present.contains(object) {
                    content.append(object)
                    membershipChanged = true
                } else if !matches && present.contains(object) {
                    content.removeAll { $0 === object }
                    membershipChanged = true
                }
            }
        case .relationship(_, let key):
            guard let owner else { return }
            let ownerChanged = (changes.updated + changes.refreshed + changes.inserted).contains(owner)
            if ownerChanged || !gone.isEmpty {
                let members = owner.objects(key)
                if Set(members) != Set(content) {
                    content = members
                    membershipChanged = true
                }
            }
            if !owner.isValid || owner.isDeleted {
                content = []
                membershipChanged = true
            }
        }

        let changed = Set((changes.updated + changes.refreshed).filter(relevant))
        let old = arranged
        if automaticallyRearrangesObjects {
            arranged = arrange(content)
        } else if membershipChanged {
            // Keep the current order; new objects that pass the filter go at the end.
            let kept = Set(content)
            var next = arranged.filter { kept.contains($0) && $0.isValid && !$0.isDeleted }
            let shown = Set(next)
            let added = content.filter { !shown.contains($0) }
            let filtered = arrange(added)
            next += filtered
            arranged = next
        }
        let diff = ArrangedChanges.difference(from: old, to: arranged, changed: changed)
        guard !diff.isEmpty else { return }
        restoreSelection(old: old, changes: diff)
    }
}
