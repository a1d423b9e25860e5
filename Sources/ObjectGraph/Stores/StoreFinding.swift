import Foundation

/// What a store check found wrong: one kind of problem on one entity's key, how many objects
/// have it, and the first of them (up to `namedObjects`) by URI.
public struct StoreFinding: Sendable, Codable, Equatable {
    /// The kinds of problem a store check finds.
    public enum Kind: String, Sendable, Codable {
        /// A to-one relationship holds the key of a row that is not there.
        case danglingReference
        /// A one-to-one relationship whose inverse does not point back.
        case oneSidedReference
        /// A many-to-many join row whose object on one side is not there.
        case orphanJoinRow
        /// A value the model requires is nil.
        case missingRequiredValue
        /// Objects that share the values of a uniqueness constraint.
        case duplicateUnique
        /// `Z_PRIMARYKEY` is behind the largest key of a table: the next insert would reuse a key.
        case keyCounterBehind
        /// Rows whose `Z_ENT` names no entity of their table.
        case unknownEntityNumber
        /// A to-many relationship holding fewer or more objects than the model's count rule allows.
        case countOutOfRange
        /// `Z_PRIMARYKEY` says otherwise than the model and the tables: an entity's row missing,
        /// or under another parent.
        case metadataMismatch
    }

    /// The kind of problem.
    public var kind: Kind
    /// The name of the entity whose objects (or table) have the problem.
    public var entity: String
    /// The attribute, relationship or constraint concerned; nil for the table as a whole.
    public var key: String?
    /// How many objects (or rows) have the problem.
    public var count: Int
    /// The first of them, up to `namedObjects` (20), by URI (`x-coredata://…/Car/p4`), or by
    /// key for rows of no entity.
    public var objects: [String]
    /// The problem in words.
    public var message: String

    /// A finding from its kind, where it is, how many objects have it, which of them it names,
    /// and the problem in words.
    public init(kind: Kind, entity: String, key: String?, count: Int, objects: [String], message: String) {
        (self.kind, self.entity, self.key, self.count, self.objects, self.message) = (kind, entity, key, count, objects, message)
    }

    /// How many objects a finding names.
    public static let namedObjects = 20
}

/// A store that checks itself against its model (`termdata check`, the browser's `K`).
public protocol CheckingStore: PersistentStore {
    /// What does not hold, reading only; empty for a sound store.
    func check() throws -> [StoreFinding]
}

extension PersistentStoreCoordinator {
    /// Every store that checks itself, checked (reading only); `nil` when none can.
    public func checkStores() throws -> [StoreFinding]? {
        let checking = stores.compactMap { $0 as? any CheckingStore }
        guard !checking.isEmpty else { return nil }
        return try checking.flatMap { store in try reading(store) { try store.check() } }
    }
}
