import Foundation
import ObjectGraph
import Predicates

/// The results of a fetch request for a list: its objects in sections, and, with a
/// delegate, what each change of the context does to them (inserted, deleted, moved,
/// updated rows and sections).
///
/// ```swift
/// let request = NSFetchRequest<Book>(entityName: "Book")
/// request.sortDescriptors = [NSSortDescriptor(key: "author.name", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
/// let books = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                        sectionNameKeyPath: "author.name", cacheName: nil)
/// books.delegate = self
/// try books.performFetch()
/// let first = books.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// The results are held in memory, as Core Data's controller holds them; the first sort
/// descriptor groups the sections. Use it on the context's queue. `cacheName` is kept and
/// has no effect.
open class NSFetchedResultsController<ResultType>: NSObject {
    /// The request; change its predicate or sort, then `performFetch()` again.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// The context the request runs in, whose changes the controller follows.
    public let managedObjectContext: NSManagedObjectContext
    /// The key path whose value names each object's section (sort by it first); `nil` for one
    /// section of everything.
    public let sectionNameKeyPath: String?
    /// The cache name given; kept, with no effect, as there is no section cache here.
    public let cacheName: String?
    let results: FetchedResults

    /// Told of each change once the results were fetched; without one, the controller does
    /// not follow the context.
    open weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { results.delegate }
        set { results.delegate = newValue }
    }

    /// A controller of a request's results in a context, in sections by a key path's values;
    /// `performFetch()` fetches them.
    public init(fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        self.fetchRequest = fetchRequest
        managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        cacheName = name
        results = FetchedResults(context: context, sectionNameKeyPath: sectionNameKeyPath)
        super.init()
        results.owner = self
        results.request = { fetchRequest.fetchRequest }
        results.prepare = {
            if let entityName = fetchRequest.entityName {
                ManagedClasses.prepareFetch(of: entityName, as: ResultType.self, in: context.coordinator)
            }
        }
    }

    /// Another controller over the same results (the delegate's view of a typed controller).
    init(viewing results: FetchedResults, request: NSFetchRequest<ResultType>) {
        fetchRequest = request
        managedObjectContext = results.context
        sectionNameKeyPath = results.sectionNameKeyPath
        cacheName = nil
        self.results = results
        super.init()
    }

    /// Fetches the results, grouped into sections.
    ///
    /// - Throws: the store's error; an unknown entity or key.
    open func performFetch() throws {
        try results.fetch()
    }

    /// The objects, in order; nil before `performFetch()`.
    open var fetchedObjects: [ResultType]? {
        results.ids.map { ids in ids.map { results.object($0) as! ResultType } }
    }

    /// The sections; nil before `performFetch()`. Without a section key path there is one.
    open var sections: [any NSFetchedResultsSectionInfo]? {
        guard results.ids != nil else { return nil }
        return results.sections.map { SectionInfo(results: results, section: $0) }
    }

    /// The object at a section and row.
    open func object(at indexPath: IndexPath) -> ResultType {
        guard let ids = results.ids, indexPath.count == 2, results.sections.indices.contains(indexPath[0]),
              (0..<results.sections[indexPath[0]].count).contains(indexPath[1]) else {
            preconditionFailure("no object at \(indexPath) in \(results.sections.map(\.count)) (section, row)")
        }
        return results.object(ids[results.sections[indexPath[0]].start + indexPath[1]]) as! ResultType
    }

    /// Where an object is, or nil when the results do not hold it.
    open func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let managed = object as? ManagedObject, let index = results.ids?.firstIndex(of: managed.objectID) else { return nil }
        return results.indexPath(of: index)
    }

    /// The sections' index titles, each once, in order.
    open var sectionIndexTitles: [String] {
        var titles: [String] = []
        for section in results.sections {
            if let title = results.indexTitle(of: section.name), titles.last != title { titles.append(title) }
        }
        return titles
    }

    /// The index title of the section with a name.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        results.indexTitle(of: sectionName)
    }

    /// The first section whose index title is `title`.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        results.sections.firstIndex { results.indexTitle(of: $0.name) == title } ?? sectionIndex
    }

    /// Core Data keeps a cache of sections on disk; there is none here.
    open class func deleteCache(withName name: String?) {}
}

/// A section as the controller shows it.
private struct SectionInfo: NSFetchedResultsSectionInfo {
    let results: FetchedResults
    let section: FetchedResults.Section

    var name: String { section.name }
    var indexTitle: String? { results.indexTitle(of: section.name) }
    var numberOfObjects: Int { section.count }
    var objects: [Any]? {
        results.ids.map { ids in ids[section.start..<(section.start + section.count)].map { results.object($0) } }
    }
}

/// What a controller and the views of it share: the fetched IDs, the sections, and the
/// following of the context.
final class FetchedResults {
    struct Section: Equatable {
        var name: String
        var start: Int
        var count: Int
    }

    let context: ManagedObjectContext
    let sectionNameKeyPath: String?
    var request: () -> FetchRequest<ManagedObject> = { preconditionFailure("a controller's request is set at its init") }
    /// Finds the classes of the request's entities, as a fetch of the controller's result type would.
    var prepare: () -> Void = {}
    weak var owner: AnyObject?
    weak var delegate: (any NSFetchedResultsControllerDelegate)?
    private(set) var ids: [ManagedObjectID]?
    private(set) var sections: [Section] = []
    /// The section name of each result, by index.
    private var names: [String] = []
    private var kinds: Set<String> = []
    private var observation: ContextObservation?

    init(context: ManagedObjectContext, sectionNameKeyPath: String?) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    deinit { observation?.cancel() }

    func fetch() throws {
        let (ids, names) = try read()
        self.ids = ids
        self.names = names
        sections = Self.sections(of: names, keyed: sectionNameKeyPath != nil)
        if observation == nil {
            observation = context.observe { [weak self] notification in
                guard let self, case .objectsDidChange(let changes) = notification else { return }
                contextChanged(changes)
            }
        }
    }

    /// The results' IDs and section names, from the store and the context's pending changes.
    private func read() throws -> ([ManagedObjectID], [String]) {
        var request = request()
        request.resultType = .managedObjects
        try context.checkAttached(for: request.entityName)
        if let entity = context.model.entity(named: request.entityName) {
            kinds = Set(request.includesSubentities ? entity.kindNames : [entity.name])
        }
        prepare()
        let objects = try context.fetch(request)
        let names = sectionNameKeyPath.map { key in objects.map { Self.sectionName(of: $0.value(forKeyPath: key)) } }
            ?? Array(repeating: "", count: objects.count)
        return (objects.map(\.objectID), names)
    }

    func object(_ id: ManagedObjectID) -> ManagedObject { context.object(with: id) }

    func indexPath(of index: Int) -> IndexPath {
        let section = sections.lastIndex { $0.start <= index } ?? 0
        return IndexPath(indexes: [section, index - sections[section].start])
    }

    func indexTitle(of sectionName: String) -> String? {
        if let delegate, let owner = owner as? NSFetchedResultsController<NSFetchRequestResult> {
            return delegate.controller(owner, sectionIndexTitleForSectionName: sectionName)
        }
        return sectionName.first.map { String($0).uppercased() }
    }

    static func sectionName(of value: Any?) -> String {
        switch value {
        case nil, is NSNull: ""
        case let string as String: string
        case let value?: "\(value)"
        }
    }

    /// Runs of equal names; without a key path, one section of everything.
    static func sections(of names: [String], keyed: Bool) -> [Section] {
        guard keyed else { return [Section(name: "", start: 0, count: names.count)] }
        var sections: [Section] = []
        for (index, name) in names.enumerated() {
            if sections.last?.name == name { sections[sections.count - 1].count += 1 } else { sections.append(Section(name: name, start: index, count: 1)) }
        }
        return sections
    }

    // MARK: Following the context

    private func contextChanged(_ changes: ObjectChanges) {
        guard delegate != nil, let oldIDs = ids else { return }
        let touched = changes.inserted + changes.updated + changes.deleted + changes.refreshed + changes.invalidated
        guard changes.invalidatedAll || !changes.mergedObjectIDs.isEmpty || touched.contains(where: { kinds.contains($0.objectID.entityName) })
        else { return }
        let oldSections = sections, oldNames = names
        guard let (newIDs, newNames) = try? read() else { return }
        ids = newIDs
        names = newNames
        sections = Self.sections(of: newNames, keyed: sectionNameKeyPath != nil)
        let updated = Set((changes.updated + changes.refreshed).map(\.objectID))
        tell(from: (oldIDs, oldNames, oldSections), updated: updated)
    }

    /// Tells the delegate what turned the old results into the new: sections first, then
    /// objects, between will-change and did-change.
    private func tell(from old: (ids: [ManagedObjectID], names: [String], sections: [Section]), updated: Set<ManagedObjectID>) {
        guard let delegate, let ids else { return }
        let oldPath = { (index: Int) -> IndexPath in
            let section = old.sections.lastIndex { $0.start <= index } ?? 0
            return IndexPath(indexes: [section, index - old.sections[section].start])
        }
        var sectionChanges: [(Int, Section, NSFetchedResultsChangeType)] = []
        let oldSectionNames = Set(old.sections.map(\.name)), newSectionNames = Set(sections.map(\.name))
        for (index, section) in old.sections.enumerated() where !newSectionNames.contains(section.name) {
            sectionChanges.append((index, section, .delete))
        }
        for (index, section) in sections.enumerated() where !oldSectionNames.contains(section.name) {
            sectionChanges.append((index, section, .insert))
        }

        // Objects: those that left, those that came, then those that stayed and moved (a
        // changed object whose place among the others changed, or whose section did) or
        // changed in place.
        var objectChanges: [(ManagedObjectID, IndexPath?, NSFetchedResultsChangeType, IndexPath?)] = []
        let oldSet = Set(old.ids), newSet = Set(ids)
        for (index, id) in old.ids.enumerated() where !newSet.contains(id) {
            objectChanges.append((id, oldPath(index), .delete, nil))
        }
        for (index, id) in ids.enumerated() where !oldSet.contains(id) {
            objectChanges.append((id, nil, .insert, indexPath(of: index)))
        }
        let oldCommon = old.ids.filter(newSet.contains), newCommon = ids.filter(oldSet.contains)
        // Objects that did not change but sort elsewhere among themselves (a key path through
        // a relationship changed): those the difference of their orders inserts.
        var resorted: Set<ManagedObjectID> = []
        let keptOld = oldCommon.filter { !updated.contains($0) }, keptNew = newCommon.filter { !updated.contains($0) }
        if keptOld != keptNew {
            for case let .insert(_, id, _) in keptNew.difference(from: keptOld) { resorted.insert(id) }
        }
        var oldRank: [ManagedObjectID: Int] = [:], oldIndex: [ManagedObjectID: Int] = [:]
        for (rank, id) in oldCommon.enumerated() { oldRank[id] = rank }
        for (index, id) in old.ids.enumerated() { oldIndex[id] = index }
        var rank = 0
        for (index, id) in ids.enumerated() where oldSet.contains(id) {
            defer { rank += 1 }
            guard let before = oldIndex[id] else { continue }
            let changed = updated.contains(id)
            if resorted.contains(id) || (changed && oldRank[id] != rank) || old.names[before] != names[index] {
                objectChanges.append((id, oldPath(before), .move, indexPath(of: index)))
            } else if changed {
                objectChanges.append((id, oldPath(before), .update, indexPath(of: index)))
            }
        }
        guard !sectionChanges.isEmpty || !objectChanges.isEmpty else { return }

        let view = (owner as? NSFetchedResultsController<NSFetchRequestResult>)
            ?? NSFetchedResultsController<NSFetchRequestResult>(viewing: self, request: NSFetchRequest(request()))
        delegate.controllerWillChangeContent(view)
        for (index, section, type) in sectionChanges {
            delegate.controller(view, didChange: SectionInfo(results: self, section: section), atSectionIndex: index, for: type)
        }
        for (id, from, type, to) in objectChanges {
            delegate.controller(view, didChange: object(id), at: from, for: type, newIndexPath: to)
        }
        delegate.controllerDidChangeContent(view)
    }
}

// A row's place under UIKit's and AppKit's names, which Core Data code uses with its
// fetched-results controllers: a section and a row (or item).
extension IndexPath {
    /// The index path of a row in a section.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The index path of an item in a section.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The first index: the section.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second index: the row within the section.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second index: the item within the section, the same as `row`.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
