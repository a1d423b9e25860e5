import Foundation
import Predicates

/// An order by one key, under Core Data's name: ascending or descending, by `compare:` or
/// one of the string comparisons stores sort by (`caseInsensitiveCompare:`,
/// `localizedCompare:`, `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`).
///
/// ```swift
/// request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true),
///                            NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))]
/// ```
///
/// Immutable, as Foundation's is: its stored properties are `let`s of `Sendable` values
/// (`@unchecked` only because the class is open).
open class NSSortDescriptor: NSObject, @unchecked Sendable {
    /// The order in the engine's terms.
    public let objectSortDescriptor: ObjectSortDescriptor

    /// The key path the order reads (`nil` for the objects themselves).
    public let key: String?

    /// An order built in the engine's terms.
    public init(_ descriptor: ObjectSortDescriptor) {
        objectSortDescriptor = descriptor
        key = descriptor.key
        super.init()
    }

    private init(_ descriptor: ObjectSortDescriptor, key: String?) {
        objectSortDescriptor = descriptor
        self.key = key
        super.init()
    }

    /// An order by the value at a key path (`nil`: the objects themselves), by `compare:`.
    public convenience init(key: String?, ascending: Bool) {
        self.init(ObjectSortDescriptor(key: key ?? "self", ascending: ascending), key: key)
    }

    /// An order by a key path with a comparison named by its selector.
    ///
    /// A selector stores cannot sort by is a programming error, as it is for Core Data's
    /// SQLite store.
    public convenience init(key: String?, ascending: Bool, selector: Selector?) {
        guard let selector else {
            self.init(key: key, ascending: ascending)
            return
        }
        guard let descriptor = ObjectSortDescriptor(key: key ?? "self", ascending: ascending, selector: selector.name) else {
            preconditionFailure("NSSortDescriptor(key: \(key ?? "nil"), selector: \(selector.name)): a store sorts by "
                + SortComparison.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.init(descriptor, key: key)
    }

    /// Whether smaller values come first.
    open var ascending: Bool { objectSortDescriptor.ascending }

    /// The comparison's selector.
    open var selector: Selector? { Selector(objectSortDescriptor.comparison.rawValue) }

    /// The same order, the other way round.
    open var reversedSortDescriptor: Any { NSSortDescriptor(objectSortDescriptor.reversed, key: key) }

    /// How two objects (managed objects, dictionaries) compare in this order.
    ///
    /// A key the objects lack is a programming error, as in Core Data.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        do {
            return try objectSortDescriptor.compare(CocoaValue.objectValue(object1), CocoaValue.objectValue(object2))
        } catch {
            preconditionFailure("\(objectSortDescriptor): \(error)")
        }
    }

    open override var description: String { objectSortDescriptor.description }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSSortDescriptor)?.objectSortDescriptor == objectSortDescriptor
    }

    open override var hash: Int { objectSortDescriptor.hashValue }
}
