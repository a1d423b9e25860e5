import Foundation
import ObjectGraph
import ObjectModel
import Predicates

extension ManagedObject {
    /// A live set of a to-many relationship's objects: adding to it or removing from it
    /// changes the relationship (inverses kept, the change recorded), as Core Data's proxy
    /// does; reading it reads the relationship as it is now.
    ///
    /// ```swift
    /// author.mutableSetValue(forKey: "books").add(book)
    /// ```
    public func mutableSetValue(forKey key: String) -> NSMutableSet {
        guard let relationship = modelEntity.relationship(named: key), relationship.isToMany else {
            preconditionFailure("\(modelEntity.name).mutableSetValue(forKey: \"\(key)\"): not a to-many relationship")
        }
        return RelationshipSet(owner: self, key: key)
    }

    /// The relationship's objects now, in order.
    fileprivate func members(_ key: String) -> [ManagedObject] { objects(key) }

    fileprivate func setMembers(_ members: [ManagedObject], forKey key: String) {
        do { try setObjectValue(.array(members.map { .object($0) }), forKey: key) } catch {
            preconditionFailure("\(modelEntity.name).\(key): \(error)")
        }
    }
}

/// `mutableSetValue(forKey:)`'s set: Foundation's primitive methods over the relationship.
private final class RelationshipSet: NSMutableSet {
    private let owner: ManagedObject
    private let key: String

    init(owner: ManagedObject, key: String) {
        self.owner = owner
        self.key = key
        super.init(capacity: 0)
    }

    required init(capacity numItems: Int) { preconditionFailure("made by mutableSetValue(forKey:) only") }
    required init?(coder: NSCoder) { preconditionFailure("not archived") }
    required convenience init(arrayLiteral elements: Any...) { preconditionFailure("made by mutableSetValue(forKey:) only") }

    override var count: Int { owner.members(key).count }

    override func member(_ object: Any) -> Any? {
        guard let candidate = object as? ManagedObject else { return nil }
        return owner.members(key).first { $0 === candidate }
    }

    override func objectEnumerator() -> NSEnumerator { NSArray(array: owner.members(key)).objectEnumerator() }

    override func add(_ object: Any) {
        guard let member = object as? ManagedObject else { preconditionFailure("\(key): only managed objects join a relationship") }
        let members = owner.members(key)
        if !members.contains(where: { $0 === member }) { owner.setMembers(members + [member], forKey: key) }
    }

    override func remove(_ object: Any) {
        guard let member = object as? ManagedObject else { return }
        let members = owner.members(key)
        if members.contains(where: { $0 === member }) { owner.setMembers(members.filter { $0 !== member }, forKey: key) }
    }

    override func removeAllObjects() { owner.setMembers([], forKey: key) }
}
