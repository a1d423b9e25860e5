import Foundation
import ObjectGraph

extension ArrayController {
    /// A controller over the objects a typed request matches, in its order:
    /// `try ArrayController(context: context, request: ToDoItem.fetchRequest())`. Its
    /// objects are instances of the request's class; `arrangedObjects(as:)` gives them so.
    ///
    /// - Throws: `ObjectGraphError.classNotRegistered` when the entity's objects are not
    ///   made as the class; the errors of `init(context:entityName:...)`.
    public convenience init<T: ManagedObject>(context: ManagedObjectContext, request: FetchRequest<T>,
                                              usesLazyFetching: Bool = false, automaticallyPreparesContent: Bool = true) throws {
        try context.checkResultClass(of: request)
        try self.init(context: context, entityName: request.entityName, fetchPredicate: request.predicate,
                      sortDescriptors: request.sortDescriptors, usesLazyFetching: usesLazyFetching,
                      automaticallyPreparesContent: automaticallyPreparesContent)
    }

    /// The arranged objects as a class registered for the entity.
    public func arrangedObjects<T: ManagedObject>(as type: T.Type) -> [T] {
        arrangedObjects.compactMap { $0 as? T }
    }

    /// The selected objects as a class registered for the entity.
    public func selectedObjects<T: ManagedObject>(as type: T.Type) -> [T] {
        selectedObjects.compactMap { $0 as? T }
    }
}

extension FetchedResultsController {
    /// A controller over a typed request; `object(at:as:)` gives its objects as the class.
    ///
    /// - Throws: `ObjectGraphError.classNotRegistered` when the entity's objects are not
    ///   made as the class.
    public convenience init<T: ManagedObject>(fetchRequest: FetchRequest<T>, context: ManagedObjectContext,
                                              sectionNameKeyPath: String? = nil) throws {
        try context.checkResultClass(of: fetchRequest)
        self.init(fetchRequest: fetchRequest.untyped, context: context, sectionNameKeyPath: sectionNameKeyPath)
    }

    /// The object at an index, as a class registered for the entity.
    public func object<T: ManagedObject>(at index: Int, as type: T.Type) throws -> T {
        let object = try object(at: index)
        guard let typed = object as? T else {
            throw ObjectGraphError.classNotRegistered(entity: object.entity.name, requested: "\(T.self)", made: "\(Swift.type(of: object))")
        }
        return typed
    }
}
