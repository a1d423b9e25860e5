import Foundation
import Predicates

/// A logical condition on objects, under Core Data's name and with its API: built from the
/// whole predicate format language, used by fetch requests and evaluated in memory.
///
/// ```swift
/// let due = NSPredicate(format: "completed == NO AND dueDate < %@", Date() as NSDate)
/// due.evaluate(with: ["completed": false, "dueDate": Date.distantPast])   // true
/// ```
///
/// This class stands in for Foundation's, whose `init(format:)` is not implemented on
/// Linux: a file that imports `CoreData` gets this one. A format that cannot be read is a
/// programming error, as in Core Data (which raises an exception): the message names the
/// position.
///
/// Immutable: every stored property is a `let` of a `Sendable` value, so instances may
/// cross threads as Foundation's do (`@unchecked` because the class is open, and because a
/// block predicate holds the caller's closure, which it only calls, as Foundation's does).
open class NSPredicate: NSObject, @unchecked Sendable {
    /// The predicate in the engine's terms, as fetch requests hand it to a store.
    public let objectPredicate: ObjectPredicate
    /// For a block predicate (or a compound holding one): what evaluates it, in memory only.
    let evaluator: ((Any?, [String: Any]?) -> Bool)?

    /// A predicate for a condition built in the engine's terms.
    public init(_ predicate: ObjectPredicate) {
        objectPredicate = predicate
        evaluator = nil
        super.init()
    }

    /// A predicate evaluated by a closure; `predicate` stands for it where a format is shown.
    init(_ predicate: ObjectPredicate, evaluator: @escaping (Any?, [String: Any]?) -> Bool) {
        objectPredicate = predicate
        self.evaluator = evaluator
        super.init()
    }

    /// A predicate that calls a closure with the object and the substitution variables, as
    /// Foundation's does. It is evaluated in memory (`evaluate(with:)`, filtering arrays); a
    /// fetch request that carries one throws, since a store cannot run Swift code (Core Data
    /// raises there).
    ///
    /// ```swift
    /// let long = NSPredicate { book, _ in ((book as? Book)?.title.count ?? 0) > 20 }
    /// ```
    public convenience init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        self.init(.false, evaluator: block)
    }

    /// Whether the predicate is evaluated by a closure (a block predicate, or a compound
    /// holding one): then only in memory.
    var isEvaluatedInMemoryOnly: Bool { evaluator != nil }

    /// A predicate read from a format string, `%@`, `%K`, `%d`, … taking the arguments in
    /// order (strings, numbers, dates, managed objects, collections, `NSNumber`s, …).
    ///
    /// ```swift
    /// NSPredicate(format: "%K BEGINSWITH[c] %@", "name", "wat")
    /// ```
    public convenience init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// A predicate read from a format string, with its arguments in an array.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let values = (arguments ?? []).map(CocoaValue.objectValue)
        do {
            self.init(try ObjectPredicate(format: predicateFormat, argumentArray: values))
        } catch {
            preconditionFailure("NSPredicate(format: \(predicateFormat.debugDescription)): \(error)")
        }
    }

    /// A predicate that always holds (`TRUEPREDICATE`) or never does (`FALSEPREDICATE`).
    public convenience init(value: Bool) {
        self.init(value ? .true : .false)
    }

    /// The predicate as a format string that reads back as the same predicate.
    open var predicateFormat: String {
        if evaluator != nil, !(self is NSCompoundPredicate) { return "BLOCKPREDICATE(\(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)))" }
        return objectPredicate.predicateFormat
    }

    open override var description: String { predicateFormat }

    /// Whether the condition holds for an object: a managed object, a dictionary, any value
    /// that adopts `KeyValueCoding`.
    ///
    /// A key the object lacks is a programming error, as in Core Data.
    open func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    /// Whether the condition holds, with `$variables` bound.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        if let evaluator { return evaluator(object, bindings) }
        let variables = (bindings ?? [:]).mapValues(CocoaValue.objectValue)
        do {
            return try objectPredicate.evaluate(with: CocoaValue.objectValue(object), variables: variables)
        } catch {
            preconditionFailure("\(predicateFormat): \(error)")
        }
    }

    /// The predicate with its `$variables` replaced by the values given.
    ///
    /// ```swift
    /// NSPredicate(format: "age > $minimum").withSubstitutionVariables(["minimum": 18])
    /// ```
    open func withSubstitutionVariables(_ bindings: [String: Any]) -> Self {
        // A block predicate is given its variables when it is evaluated.
        if evaluator != nil { return self }
        do {
            // Substitution keeps the predicate's shape, so its class for its kind is this one's.
            return NSPredicate.wrapping(try objectPredicate.substitutingVariables(bindings.mapValues(CocoaValue.objectValue))) as! Self
        } catch {
            preconditionFailure("\(predicateFormat): \(error)")
        }
    }

    /// The predicate of Core Data's class for its kind: compound, comparison, or constant.
    /// `NONE` is Core Data's `NOT ANY`, which is how its classes show it.
    static func wrapping(_ predicate: ObjectPredicate) -> NSPredicate {
        switch predicate {
        case .and, .or, .not: return NSCompoundPredicate(predicate)
        case .comparison(var comparison) where comparison.modifier == ComparisonModifier.none:
            comparison.modifier = .any
            return NSCompoundPredicate(.not(.comparison(comparison)))
        case .comparison: return NSComparisonPredicate(predicate)
        default: return NSPredicate(predicate)
        }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPredicate)?.objectPredicate == objectPredicate
    }

    open override var hash: Int { objectPredicate.hashValue }
}
