import Foundation
import ObjectGraph
import Predicates
import Testing

/// The library model's objects for the history tests, on any store that keeps history: two
/// shelves, two tags and a book on the first shelf with both tags, a date, a decimal and bytes,
/// saved as the store's first transaction.
public struct LibraryFixture {
    public let coordinator: PersistentStoreCoordinator
    /// Reads the store as it is now (`object(_:)` resets it).
    public let context: ManagedObjectContext
    public let poetry: ManagedObjectID, prose: ManagedObjectID, dune: ManagedObjectID
    public let classic: ManagedObjectID, scifi: ManagedObjectID

    public static let published = Date(timeIntervalSince1970: 1_700_000_000.25)
    public static let price = Decimal(string: "12.345678901234567890")!
    public static let cover = Data((0..<200).map { UInt8($0) })

    public init(coordinator: PersistentStoreCoordinator, context: ManagedObjectContext) throws {
        self.coordinator = coordinator
        self.context = context
        let poetry = try context.insertObject(forEntityName: "Shelf"), prose = try context.insertObject(forEntityName: "Shelf")
        poetry["title"] = "Poetry"
        prose["title"] = "Prose"
        let classic = try context.insertObject(forEntityName: "Tag"), scifi = try context.insertObject(forEntityName: "Tag")
        classic["label"] = "classic"
        scifi["label"] = "sf"
        let dune = try context.insertObject(forEntityName: "Book")
        dune["title"] = "Dune"
        dune["pages"] = 412
        dune["published"] = .date(Self.published)
        dune["price"] = .decimal(Self.price)
        dune["cover"] = .data(Self.cover)
        dune["shelf"] = .object(poetry)
        dune["tags"] = .set([.object(classic), .object(scifi)])
        try context.save()
        (self.poetry, self.prose, self.dune) = (poetry.objectID, prose.objectID, dune.objectID)
        (self.classic, self.scifi) = (classic.objectID, scifi.objectID)
    }

    /// Changes objects in a fresh context and saves; returns the transaction's token.
    public func save(author: String? = nil, _ change: (ManagedObjectContext) throws -> Void) throws -> HistoryToken {
        let context = ManagedObjectContext(coordinator: coordinator)
        context.transactionAuthor = author
        try change(context)
        try context.save()
        return try coordinator.currentHistoryToken()
    }

    /// The object as the store holds it now (objects read before through `context` are gone).
    public func object(_ id: ManagedObjectID) throws -> ManagedObject {
        context.reset()
        return try context.existingObject(with: id)
    }

    /// Whether the store holds the object.
    public func exists(_ id: ManagedObjectID) -> Bool {
        (try? ManagedObjectContext(coordinator: coordinator).existingObject(with: id)) != nil
    }

    /// The transaction of a token.
    public func transaction(_ token: HistoryToken) throws -> HistoryTransaction {
        let number = try #require(token.transactionNumbers.first?.value)
        let after = HistoryToken(token.transactionNumbers.mapValues { _ in number - 1 })
        return try #require(try coordinator.fetchHistory(HistoryRequest(after: after, fetchLimit: 1)).first)
    }

    /// One object's change in the transaction of a token.
    public func change(of id: ManagedObjectID, in token: HistoryToken) throws -> HistoryChange {
        try #require(try transaction(token).changes.first { $0.changedObjectID == id })
    }

    /// The object ID a value names (an ID, or a managed object's).
    public static func id(_ value: ObjectValue?) -> ManagedObjectID? { value?.objectID }

    /// The IDs of a to-many relationship's members.
    public static func members(_ object: ManagedObject, _ key: String) -> Set<ManagedObjectID> {
        switch object[key] {
        case .set(let values), .array(let values): Set(values.compactMap { id($0) })
        default: []
        }
    }
}
