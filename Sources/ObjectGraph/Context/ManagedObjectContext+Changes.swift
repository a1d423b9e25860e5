import Foundation
import OrderedCollections
import ObjectModel
import Predicates

/// Every change to an object goes through these primitives, which track what changed
/// and record it for undo. The relationship operations keep inverses in step.
extension ManagedObjectContext {
    // MARK: Attributes

    func recordAttributeChange(_ object: ManagedObject, index: Int, to value: ObjectValue) {
        guard let old = object.attributeValues?[index], !old.isIdentical(to: value) else { return }
        // Written in place: a copy of the array would be made on every change.
        object.attributeValues![index] = value
        if undoManager != nil { record(.attribute(object, index, from: old, to: value)) }
        // An inserted object is saved whole: what changed since it was inserted need not be
        // tracked, but observers still hear of the change.
        if object.status == .inserted {
            noteUpdatedInEvent(object)
        } else {
            let key = object.entity.attributes[index].name
            noteOriginal(object, key, .attribute(old))
            noteChanged(object, key)
        }
        // Undo and redo put back values as they were, dependent ones included. Only a
        // subclass can override the hook: plain objects skip the call and the key's name.
        if !isApplyingUndo, type(of: object) != ManagedObject.self {
            object.didChangeValue(forKey: object.entity.attributes[index].name)
        }
    }

    // MARK: Relationship primitives

    func primitiveSetToOne(_ object: ManagedObject, _ index: Int, _ destination: ManagedObject?) {
        guard case .toOne(let old) = object.relationshipValues[index], old !== destination else { return }
        object.relationshipValues[index] = .toOne(destination)
        record(.toOne(object, index, from: old, to: destination))
        // An inserted object is saved whole, as for attributes.
        if object.status == .inserted {
            noteUpdatedInEvent(object)
            return
        }
        let key = object.entity.relationshipTraits[index].name
        noteOriginal(object, key, .toOne(old))
        noteChanged(object, key)
    }

    func primitiveInsertMember(_ object: ManagedObject, _ index: Int, _ member: ManagedObject, at position: Int? = nil) {
        let key = object.entity.relationshipTraits[index].name
        switch object.relationshipValues[index] {
        case .toMany(var members):
            guard !members.contains(member) else { return }
            noteOriginal(object, key, .toMany(members))
            // Taken out while it changes: with a second reference the set would be copied
            // whole (and rehashed) on every insert.
            object.relationshipValues[index] = .toOne(nil)
            let at = min(position ?? members.count, members.count)
            members.insert(member, at: at)
            object.relationshipValues[index] = .toMany(members)
            record(.insertMember(object, index, member, at: at))
        case .toManyFault(var pending):
            // An owner of many new members (an import joining items to a few categories) is
            // changed already: its original is kept, the key changed and the object listed as
            // updated, and adding a member keeps it so.
            let changedAlready = object.status == .clean && pending.removed.isEmpty && !pending.added.isEmpty && object.originals[key] != nil
            if !changedAlready { noteOriginal(object, key, .toMany(nil)) }
            object.relationshipValues[index] = .toOne(nil)
            if pending.removed.remove(member) == nil { pending.added.append(member) }
            object.relationshipValues[index] = .toManyFault(pending)
            record(.insertMember(object, index, member, at: nil))
            if changedAlready {
                noteUpdatedInEvent(object)
                return
            }
        case .toOne:
            preconditionFailure("\(object.entity.name).\(key) is to-one")
        }
        noteChanged(object, key)
    }

    func primitiveRemoveMember(_ object: ManagedObject, _ index: Int, _ member: ManagedObject) {
        let key = object.entity.relationshipTraits[index].name
        switch object.relationshipValues[index] {
        case .toMany(var members):
            guard let at = members.firstIndex(of: member) else { return }
            noteOriginal(object, key, .toMany(members))
            object.relationshipValues[index] = .toOne(nil)
            members.remove(at: at)
            object.relationshipValues[index] = .toMany(members)
            record(.removeMember(object, index, member, at: at))
        case .toManyFault(var pending):
            noteOriginal(object, key, .toMany(nil))
            object.relationshipValues[index] = .toOne(nil)
            if pending.added.remove(member) == nil { pending.removed.insert(member) }
            object.relationshipValues[index] = .toManyFault(pending)
            record(.removeMember(object, index, member, at: nil))
        case .toOne:
            preconditionFailure("\(object.entity.name).\(key) is to-one")
        }
        noteChanged(object, key)
    }

    func primitiveSetOrder(_ object: ManagedObject, _ index: Int, _ order: OrderedSet<ManagedObject>) {
        guard case .toMany(let old) = object.relationshipValues[index], old != order else { return }
        let key = object.entity.relationshipTraits[index].name
        noteOriginal(object, key, .toMany(old))
        object.relationshipValues[index] = .toMany(order)
        record(.order(object, index, from: old, to: order))
        noteChanged(object, key)
    }

    // MARK: Relationships with inverses

    /// Sets a to-one relationship and updates the inverse on the old and new destinations.
    func setToOne(of object: ManagedObject, index: Int, to destination: ManagedObject?) throws {
        guard case .toOne(let old) = object.relationshipValues[index], old !== destination else { return }
        primitiveSetToOne(object, index, destination)
        guard let inverseName = object.entity.relationshipTraits[index].inverseName else { return }
        if let old { try detach(object, fromInverse: inverseName, of: old) }
        if let destination { try attach(object, toInverse: inverseName, of: destination) }
    }

    /// Adds a member to a to-many relationship, taking it from its previous owner when
    /// the inverse is to-one.
    func addMember(_ member: ManagedObject, to object: ManagedObject, index: Int, at position: Int? = nil) throws {
        if case .toMany(let members) = object.relationshipValues[index], members.contains(member) { return }
        primitiveInsertMember(object, index, member, at: position)
        if let inverseName = object.entity.relationshipTraits[index].inverseName {
            try attach(object, toInverse: inverseName, of: member)
        }
    }

    /// Removes a member from a to-many relationship and clears its inverse.
    func removeMember(_ member: ManagedObject, from object: ManagedObject, index: Int) throws {
        primitiveRemoveMember(object, index, member)
        if let inverseName = object.entity.relationshipTraits[index].inverseName {
            try detach(object, fromInverse: inverseName, of: member)
        }
    }

    /// Makes a to-many relationship hold exactly these members, in this order.
    func replaceToMany(of object: ManagedObject, index: Int, with members: OrderedSet<ManagedObject>) throws {
        let current = try object.toManyMembers(index)
        // From the end: each removal then moves nothing, and undo puts them back by appending.
        for old in current.reversed() where !members.contains(old) { try removeMember(old, from: object, index: index) }
        for new in members where !current.contains(new) { try addMember(new, to: object, index: index) }
        if object.entity.relationshipTraits[index].isOrdered { primitiveSetOrder(object, index, members) }
    }

    /// `holder`'s relationship `inverseName` no longer includes `object`.
    private func detach(_ object: ManagedObject, fromInverse inverseName: String, of holder: ManagedObject) throws {
        guard let j = holder.entity.relationshipIndex(of: inverseName) else { return }
        try holder.fireFault()
        if holder.entity.relationshipTraits[j].isToMany {
            primitiveRemoveMember(holder, j, object)
        } else if case .toOne(let current) = holder.relationshipValues[j], current === object {
            primitiveSetToOne(holder, j, nil)
        }
    }

    /// `holder`'s relationship `inverseName` includes `object`; a to-one inverse first
    /// leaves its previous destination.
    private func attach(_ object: ManagedObject, toInverse inverseName: String, of holder: ManagedObject) throws {
        guard let j = holder.entity.relationshipIndex(of: inverseName) else { return }
        try holder.fireFault()
        let inverse = holder.entity.relationshipTraits[j]
        if inverse.isToMany {
            primitiveInsertMember(holder, j, object)
            return
        }
        guard case .toOne(let previous) = holder.relationshipValues[j], previous !== object else { return }
        if let previous, let back = inverse.inverseName, let k = previous.entity.relationshipIndex(of: back) {
            try previous.fireFault()
            if previous.entity.relationshipTraits[k].isToMany {
                primitiveRemoveMember(previous, k, holder)
            } else {
                primitiveSetToOne(previous, k, nil)
            }
        }
        primitiveSetToOne(holder, j, object)
    }

    // MARK: Change tracking

    /// Remembers a key's value before its first change since the last save.
    func noteOriginal(_ object: ManagedObject, _ key: String, _ original: OriginalValue) {
        if object.originals[key] == nil { object.originals[key] = original }
    }

    /// Updates the object's changed keys and the context's change sets after a change.
    func noteChanged(_ object: ManagedObject, _ key: String) {
        if object.differsFromOriginal(key) {
            object.changedKeys.insert(key)
        } else {
            object.changedKeys.remove(key)
            object.originals[key] = nil
        }
        guard object.status == .clean else {
            if object.status == .inserted { noteUpdatedInEvent(object) }
            return
        }
        if object.changedKeys.isEmpty {
            updated.remove(object)
        } else {
            updated.append(object)
        }
        noteUpdatedInEvent(object)
    }

    func record(_ change: UndoStack.Change) {
        guard !isApplyingUndo, let undo = undoManager else { return }
        undo.record(change)
    }
}

extension ManagedObject {
    /// Whether a key's current value differs from its value at the last save.
    func differsFromOriginal(_ key: String) -> Bool {
        guard let original = originals[key] else { return false }
        switch original {
        case .attribute(let old):
            guard let i = entity.attributeIndex(of: key), let values = attributeValues else { return true }
            return !values[i].isIdentical(to: old)
        case .toOne(let old):
            guard let i = entity.relationshipIndex(of: key), case .toOne(let current) = relationshipValues[i] else { return true }
            return current !== old
        case .toMany(let old):
            guard let i = entity.relationshipIndex(of: key) else { return true }
            switch relationshipValues[i] {
            case .toManyFault(let pending):
                return !pending.added.isEmpty || !pending.removed.isEmpty
            case .toMany(let current):
                guard let old else { return true }
                // Counts first: most changes add or remove, and comparing whole sets on each
                // would make filling a relationship quadratic.
                guard current.count == old.count else { return true }
                return entity.relationshipTraits[i].isOrdered ? current != old : !current.allSatisfy(old.contains)
            case .toOne:
                return true
            }
        }
    }
}

extension ObjectValue {
    /// Equality that also tells kinds apart: `1` and `1.0` and `true` differ, so that a
    /// change of representation still counts as a change.
    func isIdentical(to other: ObjectValue) -> Bool {
        switch (self, other) {
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.decimal(let a), .decimal(let b)): return a == b
        case (.bool, _), (.int, _), (.double, _), (.decimal, _): return false
        default: return self == other
        }
    }
}
