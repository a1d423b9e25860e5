import Foundation
import ObjectGraph
import ObjectModel
import Synchronization

/// The name a value transformer is registered under: the name a transformable attribute
/// gives in the model (Xcode's "Transformer" field).
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The name.
    public var rawValue: String

    /// The name `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Core Data's secure keyed-archive transformer, Xcode's choice for a new transformable
    /// attribute.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
    /// The keyed-archive transformer of models that name none.
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
}

/// Foundation's `ValueTransformer`, which Foundation on Linux lacks: a conversion of values,
/// registered by name, that a transformable attribute names to turn its values into the data a
/// store keeps and back.
///
/// As on Apple's systems, Core Data stores what `transformedValue(_:)` makes of a value and
/// reads back what `reverseTransformedValue(_:)` makes of the data — except for
/// `NSSecureUnarchiveFromDataTransformer` and its subclasses, whose forward direction
/// unarchives. Register an app's transformer before the first object is read or saved:
///
/// ```swift
/// final class SwatchTransformer: NSSecureUnarchiveFromDataTransformer {
///     override class var allowedTopLevelClasses: [AnyClass] { [Swatch.self] }
/// }
/// ValueTransformer.setValueTransformer(SwatchTransformer(), forName: NSValueTransformerName("SwatchTransformer"))
/// ```
///
/// (Foundation's failable `init?(forName:)` cannot be written in Swift: look a transformer up
/// with `valueTransformer(forName:)`.)
open class ValueTransformer: NSObject, @unchecked Sendable {
    // Unchecked Sendable: one registered instance serves every context's queue at once, as on
    // Apple's systems, where Core Data calls a transformer from whichever queue reads or saves.
    // So a transformer is a stateless conversion by contract (Foundation's documentation asks
    // the same of NSValueTransformer subclasses); the registry itself is behind a Mutex. The
    // compiler cannot check a subclass's conversions, which are the app's code.
    private static let registered = Mutex<[String: ValueTransformer]>([:])

    /// The transformer.
    public override init() { super.init() }

    /// The class of the values `transformedValue(_:)` makes.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether `reverseTransformedValue(_:)` undoes `transformedValue(_:)`.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The value converted; the value itself unless a subclass converts it.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The conversion undone; by default `transformedValue(_:)` again where reversing is
    /// allowed, else nil.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        type(of: self).allowsReverseTransformation() ? transformedValue(value) : nil
    }

    /// Registers a transformer under a name (nil removes the name's), for the transformable
    /// attributes that name it.
    public static func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registered.withLock { $0[name.rawValue] = transformer }
    }

    /// The transformer registered under a name; nil when none is.
    public static func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        registered.withLock { $0[name.rawValue] }
    }

    /// The names transformers are registered under.
    public static func valueTransformerNames() -> [NSValueTransformerName] {
        registered.withLock { $0.keys.sorted().map(NSValueTransformerName.init(rawValue:)) }
    }
}

/// Core Data's secure keyed-archive transformer: data unarchived as objects of the
/// `allowedTopLevelClasses` (and objects archived back), through Foundation's
/// `NSKeyedUnarchiver` and `NSKeyedArchiver` — so an app's own `NSSecureCoding` classes read
/// and save as they do on Apple's systems. Subclass it to allow the app's classes.
// Restated, as Swift asks of a subclass: it adds no state; its class property names classes.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    /// The classes an archive may hold at its top: Foundation's plist classes by default.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self, NSNumber.self, NSDate.self,
         NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    /// Objects, as the archive's classes are.
    open override class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Archiving undoes unarchiving.
    open override class func allowsReverseTransformation() -> Bool { true }

    /// The object an archive holds, when its classes are allowed; nil otherwise.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: type(of: self).allowedTopLevelClasses, from: data)
    }

    /// The archive of an object (secure coding required); nil for an object that cannot be archived.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }
}

extension ManagedObject {
    /// The transformer registered through `ValueTransformer.setValueTransformer(_:forName:)`
    /// under the name a transformable attribute gives, if any.
    func registeredTransformer(forKey key: String) -> ValueTransformer? {
        guard modelEntity.hasTransformableAttributes, let attribute = modelEntity.attribute(named: key), attribute.type == .transformable,
              let name = attribute.valueTransformerName, !name.isEmpty else { return nil }
        return ValueTransformer.valueTransformer(forName: NSValueTransformerName(name))
    }

    /// The object a registered transformer makes of the stored data, as Core Data reads it.
    func objectFromStoredData(_ data: Data, by transformer: ValueTransformer) -> Any? {
        transformer is NSSecureUnarchiveFromDataTransformer ? transformer.transformedValue(data) : transformer.reverseTransformedValue(data)
    }

    /// The data a registered transformer makes of an object, as Core Data stores it; a result
    /// that is no data is a programming error, as Core Data raises.
    func storedData(for value: Any, by transformer: ValueTransformer, key: String) -> Data {
        let result = transformer is NSSecureUnarchiveFromDataTransformer ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
        guard let data = result as? Data else {
            preconditionFailure("\(modelEntity.name).\(key): the transformer \(type(of: transformer)) made \(result.map { "a \(type(of: $0))" } ?? "nil") "
                                + "of a \(type(of: value)), not Data")
        }
        return data
    }
}
