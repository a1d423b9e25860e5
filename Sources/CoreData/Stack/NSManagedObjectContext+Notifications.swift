import Foundation
import ObjectGraph

// Core Data's notifications, posted to `NotificationCenter.default` by every context made
// through this module (`init(concurrencyType:)`, a container's `viewContext`,
// `newBackgroundContext()` and background tasks), on the context's queue, as Core Data posts
// them.

extension Notification.Name {
    /// After the context processed its pending changes: the objects inserted, updated,
    /// deleted, refreshed and invalidated, under `NSInsertedObjectsKey` and the others.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Immediately before a save writes to the stores; no user info.
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// After a save: the objects it inserted, updated and deleted. Give the notification to
    /// another context's `mergeChanges(fromContextDidSave:)`.
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// After a save: the IDs of the objects it inserted, updated and deleted, under
    /// `NSManagedObjectContext.NotificationKey.insertedObjectIDs` and the others.
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
}

/// The user-info key of the inserted objects (a `Set<NSManagedObject>`).
public let NSInsertedObjectsKey = "inserted"
/// The user-info key of the updated objects.
public let NSUpdatedObjectsKey = "updated"
/// The user-info key of the deleted objects.
public let NSDeletedObjectsKey = "deleted"
/// The user-info key of the objects whose values were read again.
public let NSRefreshedObjectsKey = "refreshed"
/// The user-info key of the objects that left the context.
public let NSInvalidatedObjectsKey = "invalidated"
/// The user-info key present when the context was reset: the IDs of the objects it held.
public let NSInvalidatedAllObjectsKey = "invalidatedAll"

extension ManagedObjectContext {
    /// The notifications under their newer names.
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    /// `NSManagedObjectContextDidSave` under its newer name: after a save, the objects it inserted,
    /// updated and deleted.
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    /// `NSManagedObjectContextObjectsDidChange` under its newer name: after the context processed
    /// its pending changes.
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    /// `NSManagedObjectContextDidSaveObjectIDs` under its newer name: after a save, the IDs of the
    /// objects it inserted, updated and deleted.
    public static let didSaveObjectIDsNotification = Notification.Name.NSManagedObjectContextDidSaveObjectIDs

    /// The keys of the notifications' user info.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        /// The key's string in the user info.
        public let rawValue: String
        /// The key with this string.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The inserted objects, a `Set<NSManagedObject>` (`NSInsertedObjectsKey`).
        public static let insertedObjects = NotificationKey(rawValue: NSInsertedObjectsKey)
        /// The updated objects, a `Set<NSManagedObject>` (`NSUpdatedObjectsKey`).
        public static let updatedObjects = NotificationKey(rawValue: NSUpdatedObjectsKey)
        /// The deleted objects, a `Set<NSManagedObject>` (`NSDeletedObjectsKey`).
        public static let deletedObjects = NotificationKey(rawValue: NSDeletedObjectsKey)
        /// The objects whose values were read again (`NSRefreshedObjectsKey`).
        public static let refreshedObjects = NotificationKey(rawValue: NSRefreshedObjectsKey)
        /// The objects that left the context (`NSInvalidatedObjectsKey`).
        public static let invalidatedObjects = NotificationKey(rawValue: NSInvalidatedObjectsKey)
        /// Present when the context was reset: the IDs of the objects it held
        /// (`NSInvalidatedAllObjectsKey`).
        public static let invalidatedAllObjects = NotificationKey(rawValue: NSInvalidatedAllObjectsKey)
        /// The IDs of the objects a save inserted, a `Set<NSManagedObjectID>`.
        public static let insertedObjectIDs = NotificationKey(rawValue: "inserted_objectIDs")
        /// The IDs of the objects a save updated, a `Set<NSManagedObjectID>`.
        public static let updatedObjectIDs = NotificationKey(rawValue: "updated_objectIDs")
        /// The IDs of the objects a save deleted, a `Set<NSManagedObjectID>`.
        public static let deletedObjectIDs = NotificationKey(rawValue: "deleted_objectIDs")
        /// The IDs of refreshed objects, under Core Data's key; no notification here carries it.
        public static let refreshedObjectIDs = NotificationKey(rawValue: "refreshed_objectIDs")
        /// The IDs of invalidated objects, under Core Data's key; no notification here carries it.
        public static let invalidatedObjectIDs = NotificationKey(rawValue: "invalidated_objectIDs")
    }

    /// Merges what another context saved, from its `NSManagedObjectContextDidSave`
    /// notification: its objects are refreshed here, its deletions leave, and fetched-results
    /// controllers and notifications follow. Call it on this context's queue.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave,
    ///                                        object: backgroundContext, queue: .main) { note in
    ///     viewContext.mergeChanges(fromContextDidSave: note)
    /// }
    /// ```
    public func mergeChanges(fromContextDidSave notification: Notification) {
        if let save = notification.userInfo?[SavedChanges.key] as? ContextDidSave {
            mergeChanges(fromContextDidSave: save)
        } else {
            mergeChanges(fromContextDidSave: SavedChanges.save(from: notification.userInfo ?? [:], coordinator: coordinator))
        }
    }

    /// Merges changes made elsewhere (a batch request's object IDs, another process's save)
    /// into each context, on its queue: `changeNotificationData` holds arrays or sets of
    /// object IDs, objects or their URIs under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`
    /// and `NSDeletedObjectsKey`.
    ///
    /// ```swift
    /// let result = try context.execute(delete) as? NSBatchDeleteResult
    /// let changes = [NSDeletedObjectsKey: result?.result as? [NSManagedObjectID] ?? []]
    /// NSManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [viewContext])
    /// ```
    public static func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any],
                                    into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            let save = SavedChanges.save(from: changeNotificationData, coordinator: context.coordinator)
            context.performAndWait { context.mergeChanges(fromContextDidSave: save) }
        }
    }

    /// Makes the context post Core Data's notifications to `NotificationCenter.default`.
    @discardableResult
    func postingNotifications() -> Self {
        let saving = SavingObjects()
        observe { [weak self] notification in
            guard let self else { return }
            let center = NotificationCenter.default
            switch notification {
            case .objectsDidChange(let changes):
                var info: [AnyHashable: Any] = [:]
                for (key, objects) in [(NSInsertedObjectsKey, changes.inserted), (NSUpdatedObjectsKey, changes.updated),
                                       (NSDeletedObjectsKey, changes.deleted), (NSRefreshedObjectsKey, changes.refreshed),
                                       (NSInvalidatedObjectsKey, changes.invalidated)] where !objects.isEmpty {
                    info[key] = Set(objects)
                }
                if changes.invalidatedAll { info[NSInvalidatedAllObjectsKey] = changes.invalidated.map(\.objectID) }
                center.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: info)
            case .willSave:
                // The objects as they are before the save: a deleted object leaves the context
                // when the save is done.
                saving.deleted = Dictionary(deletedObjects.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
                center.post(name: .NSManagedObjectContextWillSave, object: self, userInfo: nil)
            case .didSave(let save):
                var objects: [AnyHashable: Any] = [SavedChanges.key: save]
                var ids: [AnyHashable: Any] = [:]
                let inserted = save.inserted.compactMap { registeredObject(for: $0) }
                let updated = save.updated.compactMap { registeredObject(for: $0) }
                let deleted = save.deleted.compactMap { saving.deleted[$0] ?? registeredObject(for: $0) }
                saving.deleted = [:]
                for (key, found, all) in [(NSInsertedObjectsKey, inserted, save.inserted), (NSUpdatedObjectsKey, updated, save.updated),
                                          (NSDeletedObjectsKey, deleted, save.deleted)] where !all.isEmpty {
                    objects[key] = Set(found)
                    ids["\(key)_objectIDs"] = Set(all)
                }
                center.post(name: .NSManagedObjectContextDidSave, object: self, userInfo: objects)
                center.post(name: .NSManagedObjectContextDidSaveObjectIDs, object: self, userInfo: ids)
            }
        }
        return self
    }
}

/// What a context holds between its will-save and did-save notifications.
private final class SavingObjects {
    var deleted: [ManagedObjectID: ManagedObject] = [:]
}

/// A save's changes in a notification's user info, and back.
enum SavedChanges {
    /// The engine's record of the save, exact (the saving context, rekeyed IDs, history
    /// transactions), beside Core Data's keys.
    static let key = "TermDataContextDidSave"

    /// The changes a user info names, however it names them: sets or arrays of objects,
    /// object IDs or their URIs, under Core Data's object or object-ID keys.
    static func save(from info: [AnyHashable: Any], coordinator: PersistentStoreCoordinator) -> ContextDidSave {
        func ids(_ key: String) -> [ManagedObjectID] {
            objectIDs(in: info[key], coordinator: coordinator) + objectIDs(in: info["\(key)_objectIDs"], coordinator: coordinator)
        }
        return ContextDidSave(inserted: ids(NSInsertedObjectsKey), updated: ids(NSUpdatedObjectsKey), deleted: ids(NSDeletedObjectsKey))
    }

    private static func objectIDs(in value: Any?, coordinator: PersistentStoreCoordinator) -> [ManagedObjectID] {
        let elements: [Any]
        switch value {
        case nil: return []
        case let set as Set<ManagedObjectID>: return Array(set)
        case let array as [ManagedObjectID]: return array
        case let set as Set<ManagedObject>: return set.map(\.objectID)
        case let array as [ManagedObject]: return array.map(\.objectID)
        case let array as [Any]: elements = array
        case let set as Set<AnyHashable>: elements = set.map(\.base)
        case let set as NSSet: elements = Array(set)
        case let array as NSArray: elements = Array(array)
        default: return []
        }
        return elements.compactMap { element in
            switch element {
            case let id as ManagedObjectID: id
            case let object as ManagedObject: object.objectID
            case let url as URL: coordinator.managedObjectID(forURI: url)
            case let url as NSURL: (url as URL?).flatMap { coordinator.managedObjectID(forURI: $0) }
            default: nil
            }
        }
    }
}
