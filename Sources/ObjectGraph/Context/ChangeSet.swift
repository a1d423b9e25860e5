/// One of a context's change sets (inserted, updated, deleted, discarded): its objects in
/// the order they joined it, without duplicates.
///
/// Every object in the graph passes through these sets, so joining, leaving and testing
/// membership hash nothing: each object keeps its position in each kind of set, and a
/// set checks that the object at that position is the one asked about. A position left
/// by an object stays empty until the set closes the gaps, which it does once they
/// outnumber the members.
///
/// ```swift
/// var inserted = ChangeSet(.inserted)
/// inserted.append(item)           // item.changeSlots.inserted == 0
/// inserted.contains(item)         // true
/// ```
struct ChangeSet: Sequence {
    enum Kind { case inserted, updated, deleted, discarded }

    let kind: Kind
    /// Members by position; `nil` where an object left.
    private var slots: [ManagedObject?] = []
    /// The number of members.
    private(set) var count = 0

    init(_ kind: Kind) {
        self.kind = kind
    }

    var isEmpty: Bool { count == 0 }

    func contains(_ object: ManagedObject) -> Bool {
        let slot = Int(object.changeSlots[kind])
        return slot >= 0 && slot < slots.count && slots[slot] === object
    }

    /// Adds an object at the end, unless it is a member already.
    mutating func append(_ object: ManagedObject) {
        guard !contains(object) else { return }
        object.changeSlots[kind] = Int32(slots.count)
        slots.append(object)
        count += 1
    }

    /// Takes an object out, if it is a member.
    mutating func remove(_ object: ManagedObject) {
        guard contains(object) else { return }
        slots[Int(object.changeSlots[kind])] = nil
        object.changeSlots[kind] = -1
        count -= 1
        if slots.count >= 64 && count < slots.count / 2 { closeGaps() }
    }

    mutating func removeAll() {
        slots = []
        count = 0
    }

    private mutating func closeGaps() {
        var kept: [ManagedObject?] = []
        kept.reserveCapacity(count)
        for case let object? in slots {
            object.changeSlots[kind] = Int32(kept.count)
            kept.append(object)
        }
        slots = kept
    }

    func makeIterator() -> Iterator { Iterator(slots: slots.makeIterator()) }

    var underestimatedCount: Int { count }

    struct Iterator: IteratorProtocol {
        fileprivate var slots: IndexingIterator<[ManagedObject?]>

        mutating func next() -> ManagedObject? {
            while let slot = slots.next() {
                if let object = slot { return object }
            }
            return nil
        }
    }
}

/// An object's position in each kind of change set; -1 where it is not a member.
struct ChangeSlots {
    var inserted: Int32 = -1
    var updated: Int32 = -1
    var deleted: Int32 = -1
    var discarded: Int32 = -1

    subscript(kind: ChangeSet.Kind) -> Int32 {
        get {
            switch kind {
            case .inserted: inserted
            case .updated: updated
            case .deleted: deleted
            case .discarded: discarded
            }
        }
        set {
            switch kind {
            case .inserted: inserted = newValue
            case .updated: updated = newValue
            case .deleted: deleted = newValue
            case .discarded: discarded = newValue
            }
        }
    }
}
