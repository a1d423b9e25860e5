import Foundation
import ObjectModel
import Predicates
import Synchronization

/// Turns a transformable attribute's stored bytes into the value they hold, and a value into
/// bytes to store: what a `ValueTransformer` named by the model does in Core Data.
///
/// ```swift
/// struct CommaList: AttributeValueTransformer {
///     func value(from data: Data) throws -> ObjectValue {
///         .array(String(decoding: data, as: UTF8.self).split(separator: ",").map { .string(String($0)) })
///     }
///     func data(from value: ObjectValue) throws -> Data {
///         Data((value.collectionElements ?? []).compactMap(\.stringValue).joined(separator: ",").utf8)
///     }
/// }
/// ValueTransformers.register(CommaList(), as: "CommaListTransformer")
/// ```
public protocol AttributeValueTransformer: Sendable {
    /// The value stored bytes hold; throws when they hold none this transformer reads.
    func value(from data: Data) throws -> ObjectValue
    /// The bytes that store a value; throws for a value this transformer cannot store.
    func data(from value: ObjectValue) throws -> Data
}

/// Core Data's keyed-archive transformers — `NSSecureUnarchiveFromData`, which Xcode names
/// for a new transformable attribute, and `NSKeyedUnarchiveFromData`, the default of a model
/// that names none: the value as `NSKeyedArchiver` archives it (see `ArchivedValue`).
public struct KeyedArchiveTransformer: AttributeValueTransformer {
    /// The transformer.
    public init() {}

    /// The value the archive holds.
    public func value(from data: Data) throws -> ObjectValue { try ArchivedValue.unarchive(data) }

    /// The archive of the value.
    public func data(from value: ObjectValue) throws -> Data { try ArchivedValue.archive(value) }
}

/// The transformers transformable attributes name, by name: Core Data's keyed-archive ones
/// from the start, and those a program registers for its own classes (as it calls
/// `ValueTransformer.setValueTransformer(_:forName:)` on Apple's systems).
public enum ValueTransformers {
    /// The names under which Core Data's keyed-archive transformers are known, the way
    /// models write them; an attribute that names no transformer uses the same.
    public static let keyedArchiveNames: Set<String> = [
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer",
        "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName",
    ]

    private static let registered = Mutex<[String: any AttributeValueTransformer]>([:])

    /// Makes a transformer available under a name; a later one under the same name replaces it.
    public static func register(_ transformer: any AttributeValueTransformer, as name: String) {
        registered.withLock { $0[name] = transformer }
    }

    /// The transformer of this name: a registered one, else Core Data's keyed-archive one for
    /// its names and for none (`nil` or empty); `nil` for a name nobody registered.
    public static func transformer(named name: String?) -> (any AttributeValueTransformer)? {
        if let name, !name.isEmpty, let found = registered.withLock({ $0[name] }) { return found }
        if name == nil || name!.isEmpty || keyedArchiveNames.contains(name!) { return KeyedArchiveTransformer() }
        return nil
    }
}

extension ManagedObject {
    /// The value a transformable attribute holds, as its transformer reads its stored bytes:
    /// an array, a dictionary, a string, a date… for Core Data's keyed-archive transformers.
    /// For any other attribute, or a transformable one holding no bytes (nil, or a value set
    /// as itself), the value as `value(forKey:)` gives it.
    ///
    /// ```swift
    /// let tags = try item.transformedValue(forKey: "tags")   // .array([.string("home"), .string("urgent")])
    /// ```
    ///
    /// - Throws: `ObjectGraphError.transformFailed` when no transformer is registered under
    ///   the attribute's transformer name, or the bytes hold no value it reads (an app's own
    ///   class, named); the object keeps its bytes, unchanged. `unknownKey` for a key the
    ///   entity lacks.
    public func transformedValue(forKey key: String) throws -> ObjectValue {
        let stored = try value(forKey: key)
        guard let attribute = entity.attribute(named: key), attribute.type == .transformable, case .data(let bytes) = stored else {
            return stored
        }
        let transformer = try transformer(for: attribute)
        do { return try transformer.value(from: bytes) } catch {
            throw transformFailure(attribute, "\(error); the value stays as its \(bytes.count) bytes")
        }
    }

    /// Sets a transformable attribute to the bytes its transformer makes of `value` (nil sets
    /// no value); any other attribute to `value` itself, as `setValue(_:forKey:)` does.
    ///
    /// - Throws: `ObjectGraphError.transformFailed` when no transformer is registered under
    ///   the attribute's transformer name or it cannot store the value; nothing is changed then.
    public func setTransformedValue(_ value: ObjectValue, forKey key: String) throws {
        guard let attribute = entity.attribute(named: key), attribute.type == .transformable, !value.isNull else {
            return try setObjectValue(value, forKey: key)
        }
        let transformer = try transformer(for: attribute)
        let bytes: Data
        do { bytes = try transformer.data(from: value) } catch {
            throw transformFailure(attribute, "\(error)")
        }
        try setObjectValue(.data(bytes), forKey: key)
    }

    private func transformer(for attribute: AttributeDescription) throws -> any AttributeValueTransformer {
        guard let transformer = ValueTransformers.transformer(named: attribute.valueTransformerName) else {
            throw transformFailure(attribute, "no transformer is registered under this name (ValueTransformers.register(_:as:))")
        }
        return transformer
    }

    private func transformFailure(_ attribute: AttributeDescription, _ reason: String) -> ObjectGraphError {
        let name = attribute.valueTransformerName.flatMap { $0.isEmpty ? nil : $0 } ?? "NSKeyedUnarchiveFromData, the default"
        return .transformFailed(entity: entity.name, key: attribute.name, transformer: name, reason: reason)
    }
}
