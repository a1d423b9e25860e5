/// The objects a context has in memory with permanent IDs, found by ID.
///
/// One table per entity and store, keyed by the store's primary key: an open-addressed
/// array of keys beside unretained object references, whose first slot for a key is the
/// key itself folded into the table (a store numbers an entity's rows 1, 2, 3…, so a fetch
/// enters its objects into consecutive slots and frees them from consecutive slots). A
/// probe compares keys and never touches an object; removing an object compares addresses.
/// No object or ID is retained or released on the way (the names of the entity and store
/// only when a lookup moves to another table). A dictionary keyed by the ID instances
/// retained each key, hashed it again at every shift of a removal, and scattered each
/// fetch over memory: reading a hundred thousand results (and freeing them) cost several
/// times the fetch.
///
/// Entries do not keep objects alive: an object leaves the table in its `deinit`, so every
/// entry is a live object. An object's ID must not change while it is entered (the context
/// removes, changes, and enters it again).
struct ObjectRegistry: ~Copyable {
    /// The tables, by family; a family is an entity name and a store identifier.
    private var tables: [KeyTable] = []
    private var families: [Family: Int] = [:]
    /// The family looked up last, and its table (-1 for none): objects of one entity tend
    /// to come in runs. (Three fields rather than a tuple: comparing copies nothing.)
    private var lastEntityName = ""
    private var lastStoreIdentifier: String?
    private var lastIndex = -1
    /// The key family whose table is the last one, compared by identity (and held, so that
    /// its address is not another family's); `nil` when the last table was found by name.
    private var lastKeyFamily: ObjectIdentifier?
    private var lastKeyFamilyHeld: KeyFamily?
    /// How many objects are entered.
    private(set) var count = 0

    private struct Family: Hashable {
        var entityName: String
        var storeIdentifier: String?
    }

    init() {}

    deinit {
        for table in tables { table.deallocate() }
    }

    var isEmpty: Bool { count == 0 }

    /// The entered object whose ID equals `id`.
    func object(for id: ManagedObjectID) -> ManagedObject? {
        guard let key = id.primaryKey, let t = existingTable(id.entityName, id.storeIdentifier) else { return nil }
        return tables[t].object(for: key)
    }

    /// The entered object of an entity and store with `key`, and the table to enter one in
    /// (`enter(_:key:table:)`) when there is none.
    mutating func object(forKey key: Int64, entityName: String, storeIdentifier: String?) -> (object: ManagedObject?, table: Int) {
        let t = table(entityName, storeIdentifier)
        return (tables[t].object(for: key), t)
    }

    /// The same for `family`'s entity and store, found by the family's identity when it was
    /// the last one asked.
    mutating func object(forKey key: Int64, of family: KeyFamily) -> (object: ManagedObject?, table: Int) {
        if ObjectIdentifier(family) != lastKeyFamily {
            _ = table(family.entityName, family.storeIdentifier)
            rememberKeyFamily(family)
        }
        return (tables[lastIndex].object(for: key), lastIndex)
    }

    /// Enters an object of a table's entity and store under `key` (after it is made, should
    /// making it have reached the registry: the entry probes again).
    mutating func enter(_ object: ManagedObject, key: Int64, table t: Int) {
        count += tables[t].enter(object, key: key)
    }

    /// Enters an object by its current ID, in place of any entered object with an equal ID.
    mutating func enter(_ object: ManagedObject) {
        let id = object.objectID
        guard let key = id.primaryKey else { preconditionFailure("\(id) is temporary: the registry holds permanent IDs") }
        count += tables[table(id.entityName, id.storeIdentifier)].enter(object, key: key)
    }

    /// Removes this very object if it is entered (another object with an equal ID stays),
    /// without making an ID it has not made yet.
    mutating func remove(_ object: ManagedObject) {
        let found: (key: Int64, table: Int)?
        switch object.identityStorage {
        case .id(let id):
            guard let key = id.primaryKey else { return }
            found = existingTable(id.entityName, id.storeIdentifier, remembering: true).map { (key, $0) }
        case .key(let key, let family):
            if ObjectIdentifier(family) == lastKeyFamily {
                found = (key, lastIndex)
            } else {
                found = existingTable(family.entityName, family.storeIdentifier, remembering: true).map { (key, $0) }
                if found != nil { rememberKeyFamily(family) }
            }
        }
        guard let found else { return }
        count -= tables[found.table].remove(object, key: found.key)
    }

    /// Makes room for `more` objects besides those entered, of an entity in a store.
    mutating func reserveCapacity(forMore more: Int, entityName: String, storeIdentifier: String?) {
        let t = table(entityName, storeIdentifier)
        tables[t].reserveCapacity(tables[t].count + more)
    }

    /// Every entered object, in no particular order.
    var objects: [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        for table in tables { table.appendObjects(to: &objects) }
        return objects
    }

    /// Forgets every object.
    mutating func removeAll() {
        for table in tables { table.deallocate() }
        tables = []
        families = [:]
        forgetLast()
        count = 0
    }

    // MARK: Families

    private mutating func table(_ entityName: String, _ storeIdentifier: String?) -> Int {
        if let t = existingTable(entityName, storeIdentifier, remembering: true) { return t }
        tables.append(KeyTable())
        families[Family(entityName: entityName, storeIdentifier: storeIdentifier)] = tables.count - 1
        remember(entityName, storeIdentifier, tables.count - 1)
        return tables.count - 1
    }

    private mutating func remember(_ entityName: String, _ storeIdentifier: String?, _ index: Int) {
        lastEntityName = entityName
        lastStoreIdentifier = storeIdentifier
        lastIndex = index
        lastKeyFamily = nil
        lastKeyFamilyHeld = nil
    }

    private mutating func rememberKeyFamily(_ family: KeyFamily) {
        lastKeyFamily = ObjectIdentifier(family)
        lastKeyFamilyHeld = family
    }

    private mutating func forgetLast() {
        remember("", nil, -1)
    }

    /// The table of an entity and store, if it has one. The names are compared to the last
    /// family's first: the IDs and keys of one fetch share their strings, and equal strings
    /// with one storage compare at once.
    private func existingTable(_ entityName: String, _ storeIdentifier: String?) -> Int? {
        if lastIndex >= 0, lastEntityName == entityName, lastStoreIdentifier == storeIdentifier { return lastIndex }
        return families[Family(entityName: entityName, storeIdentifier: storeIdentifier)]
    }

    /// The same, remembering a family found in the dictionary as the last one.
    private mutating func existingTable(_ entityName: String, _ storeIdentifier: String?, remembering: Bool) -> Int? {
        if lastIndex >= 0, lastEntityName == entityName, lastStoreIdentifier == storeIdentifier { return lastIndex }
        guard let t = families[Family(entityName: entityName, storeIdentifier: storeIdentifier)] else { return nil }
        remember(entityName, storeIdentifier, t)
        return t
    }
}

/// One family's objects by primary key: Robin Hood linear probing from the key folded
/// into the table (an entry never sits further from its first slot than the one after it
/// does, so a probe stops at the first entry closer to home than the key would be), and
/// removals by backward shift to the next entry at home (no tombstones). Consecutive keys
/// all sit at home, so each lookup, entry and removal touches one slot or two.
private struct KeyTable {
    private struct Slot {
        var key: Int64
        /// `nil` in an empty slot.
        var object: Unmanaged<ManagedObject>?
    }

    private var slots: UnsafeMutablePointer<Slot>
    /// Slot count minus one; the slot count is a power of two.
    private var mask: Int
    private var bits: Int
    private(set) var count = 0

    init() {
        (slots, mask, bits) = Self.allocate(slotCount: 16)
    }

    func deallocate() { slots.deallocate() }

    func object(for key: Int64) -> ManagedObject? {
        slot(of: key).flatMap { slots[$0].object?.takeUnretainedValue() }
    }

    /// The slot holding `key`.
    private func slot(of key: Int64) -> Int? {
        var i = home(of: key)
        var distance = 0
        while slots[i].object != nil, distance <= self.distance(at: i) {
            if slots[i].key == key { return i }
            i = (i + 1) & mask
            distance += 1
        }
        return nil
    }

    /// Enters an object under `key`, replacing any with that key; returns how many more
    /// objects the table holds (0 or 1).
    mutating func enter(_ object: ManagedObject, key: Int64) -> Int {
        if let i = slot(of: key) {
            slots[i].object = Unmanaged.passUnretained(object)
            return 0
        }
        if count + 1 > (mask + 1) / 4 * 3 { rehash(slotCount: (mask + 1) * 2) }
        place(Slot(key: key, object: Unmanaged.passUnretained(object)))
        count += 1
        return 1
    }

    /// Puts an entry for a key not in the table, displacing entries nearer their home.
    private mutating func place(_ entry: Slot) {
        var carried = entry
        var i = home(of: carried.key)
        var distance = 0
        while slots[i].object != nil {
            let theirs = self.distance(at: i)
            if theirs < distance {
                swap(&carried, &slots[i])
                distance = theirs
            }
            i = (i + 1) & mask
            distance += 1
        }
        slots[i] = carried
    }

    /// Removes this very object from `key`'s slot; returns how many fewer objects the
    /// table holds (0 or 1).
    mutating func remove(_ object: ManagedObject, key: Int64) -> Int {
        guard let found = slot(of: key),
              slots[found].object?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() else { return 0 }
        // Backward shift: the entries after it that are away from home move back one slot.
        var hole = found
        var j = (hole + 1) & mask
        while slots[j].object != nil, distance(at: j) > 0 {
            slots[hole] = slots[j]
            hole = j
            j = (j + 1) & mask
        }
        slots[hole].object = nil
        count -= 1
        return 1
    }

    /// How far the entry in an occupied slot sits from its key's first slot.
    private func distance(at i: Int) -> Int {
        (i - home(of: slots[i].key)) & mask
    }

    mutating func reserveCapacity(_ capacity: Int) {
        var slotCount = mask + 1
        while capacity > slotCount / 4 * 3 { slotCount *= 2 }
        if slotCount != mask + 1 { rehash(slotCount: slotCount) }
    }

    func appendObjects(to objects: inout [ManagedObject]) {
        for i in 0...mask {
            if let object = slots[i].object { objects.append(object.takeUnretainedValue()) }
        }
    }

    /// A key's first slot: its low bits, with the higher bits folded in so that keys
    /// far apart (another store's numbering, a stride of the table's size) spread too.
    private func home(of key: Int64) -> Int {
        let k = UInt64(bitPattern: key)
        return Int(truncatingIfNeeded: k ^ (k >> UInt64(bits)) ^ (k >> UInt64(2 * bits))) & mask
    }

    private mutating func rehash(slotCount: Int) {
        let (old, oldMask) = (slots, mask)
        (slots, mask, bits) = Self.allocate(slotCount: slotCount)
        for k in 0...oldMask where old[k].object != nil {
            place(old[k])
        }
        old.deallocate()
    }

    private static func allocate(slotCount: Int) -> (UnsafeMutablePointer<Slot>, Int, Int) {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(key: 0, object: nil), count: slotCount)
        return (slots, slotCount - 1, slotCount.trailingZeroBitCount)
    }
}
