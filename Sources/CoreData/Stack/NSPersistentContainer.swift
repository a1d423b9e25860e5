import Foundation
import ObjectGraph
import ObjectModel

/// The whole stack for a model, under Core Data's name: its coordinator, its stores (one
/// SQLite file named after the container by default), a main-queue context, and
/// background contexts.
///
/// ```swift
/// let container = NSPersistentContainer(name: "Model")        // Model.momd or Model.xcdatamodeld among the program's resources
/// container.loadPersistentStores { description, error in
///     if let error { fatalError("\(description.url!): \(error)") }
/// }
/// let context = container.viewContext
/// ```
///
/// `@unchecked Sendable`, as Apple's container is `Sendable`, so that code awaiting
/// `performBackgroundTask` from the main actor compiles as it does there. What holds it: the
/// only mutable state (`persistentStoreDescriptions`, set before `loadPersistentStores`; the
/// lazy `viewContext`) is touched on the thread that set the container up; the coordinator
/// locks its own state and the contexts are used through their queues.
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    /// The container's name: the model it looks for by default, and the default store's file name
    /// (`NAME.sqlite`).
    public let name: String
    /// The model of every store and context of the container; empty when `init(name:)` found none.
    public let managedObjectModel: NSManagedObjectModel
    /// The coordinator that holds the container's stores, which its contexts read and save through.
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// The stores `loadPersistentStores` adds; by default one SQLite store,
    /// `defaultDirectoryURL()/NAME.sqlite`.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]
    /// Why the model named by `init(name:)` could not be found, for `loadPersistentStores` to report.
    private var modelProblem: String?

    /// The main queue's context, made on first use.
    public private(set) lazy var viewContext = NSManagedObjectContext.viewContext(of: persistentStoreCoordinator)

    /// A container for the model named `name` (`name.momd`, `.mom` or `.xcdatamodeld`) in the
    /// program's bundle or the resource bundles beside it. When there is none, the container
    /// has an empty model and `loadPersistentStores` reports where it looked.
    public convenience init(name: String) {
        let (url, searched) = ModelSearch.modelURL(named: name)
        if let url, let model = NSManagedObjectModel(contentsOf: url) {
            self.init(name: name, managedObjectModel: model)
        } else {
            self.init(name: name, managedObjectModel: NSManagedObjectModel(try! ManagedObjectModel(entities: [])))
            modelProblem = url.map { "the model \($0.path) cannot be read" }
                ?? "no model named \(name) (.momd, .mom or .xcdatamodeld) in \(searched.joined(separator: ", "))"
        }
    }

    /// A container for a model.
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        managedObjectModel = model
        persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        persistentStoreDescriptions = [NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
        super.init()
    }

    /// Where stores go by default: `$XDG_DATA_HOME`, or `~/.local/share` (Linux's Application
    /// Support), as Core Data puts them in Application Support.
    open class func defaultDirectoryURL() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true) }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share", isDirectory: true)
    }

    /// Adds every described store, creating folders as needed, and calls the handler once for
    /// each, with its error if it could not be added (the others are added all the same).
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                if let modelProblem { throw StackError(description: modelProblem) }
                if let folder = description.url?.deletingLastPathComponent(), description.type != NSInMemoryStoreType {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
                try persistentStoreCoordinator.addPersistentStore(ofType: description.type, configurationName: description.configuration,
                                                                  at: description.url, options: description.coordinatorOptions)
                block(description, nil)
            } catch {
                block(description, error)
            }
        }
    }

    /// A new private-queue context over the coordinator; use it through `perform`.
    open func newBackgroundContext() -> NSManagedObjectContext {
        NSManagedObjectContext(coordinator: persistentStoreCoordinator, concurrencyType: .privateQueue).postingNotifications()
    }

    /// Runs `block` on a new background context's queue, and returns at once.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its value, or throws its
    /// error, when it has run.
    open func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (NSManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}

extension ManagedObjectContext {
    /// A container's view context: on the main queue, as Core Data's is.
    static func viewContext(of coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator, concurrencyType: .mainQueue).postingNotifications()
    }
}
