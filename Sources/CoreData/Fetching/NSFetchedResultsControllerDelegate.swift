import Foundation

/// What happened to an object or a section of a fetched-results controller.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// An object or section new to the results, at `newIndexPath` (or its section index).
    case insert = 1
    /// An object or section gone from the results, from `indexPath` (or its section index).
    case delete = 2
    /// An object whose place or section changed: from `indexPath` to `newIndexPath`.
    case move = 3
    /// An object that changed but kept its place, given at both `indexPath` and `newIndexPath`.
    case update = 4
}

/// A section of a fetched-results controller's results.
public protocol NSFetchedResultsSectionInfo {
    /// The section key path's value the section's objects share (`""` for nil).
    var name: String { get }
    /// The section's title in an index (by default its name's first letter, capitalised).
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in order.
    var objects: [Any]? { get }
}

/// What a fetched-results controller tells as its results change. Every method has an
/// implementation that does nothing: implement those you need, as with Core Data's optional
/// methods.
///
/// The controller given is an `NSFetchedResultsController<NSFetchRequestResult>` over the
/// same results, as in Core Data; for a controller of another result type it is a view of it,
/// not the same object.
public protocol NSFetchedResultsControllerDelegate: AnyObject {
    /// Called before the controller tells what one change of the context did to the results.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)
    /// Called for each object inserted, deleted, moved or updated, with its old index path (nil for
    /// an insert) and its new one (nil for a delete).
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)
    /// Called for each section inserted or deleted, with its index in the new results (an insert)
    /// or the old (a delete).
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)
    /// Called after the controller told every change: the time to refresh a list at once.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)
    /// The index title of a section with this name; by default its first letter in upper case.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension NSFetchedResultsControllerDelegate {
    /// Does nothing; implement it to prepare a list for the changes that follow.
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}
    /// Does nothing; implement it to insert, delete, move or reload a row.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}
    /// Does nothing; implement it to insert or delete a section.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}
    /// Does nothing; implement it to finish updating a list.
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}
    /// The name's first letter in upper case; `nil` for an empty name.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }
}
