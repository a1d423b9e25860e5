import Foundation
import Predicates

/// An attribute of an entity: a named value of one type with its constraints.
///
/// ```swift
/// var due = AttributeDescription(name: "dueDate", type: .date)
/// due.isIndexed = true
/// ```
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name: the key its value is read and set by.
    public var name: String
    /// The type of the attribute's values.
    public var type: AttributeType
    /// Whether the value may be nil when the object is saved.
    public var isOptional: Bool
    /// Transient values are tracked and undoable but never stored.
    public var isTransient: Bool
    /// Whether the store keeps an index on the attribute.
    public var isIndexed: Bool
    /// The value a new object starts with; `.null` for none.
    public var defaultValue: ObjectValue
    /// The smallest value allowed (a length for strings and binary data).
    public var minimum: ObjectValue?
    /// The largest value allowed (a length for strings and binary data).
    public var maximum: ObjectValue?
    /// A regular expression the whole string value must match.
    public var regularExpression: String?
    /// The name of the value transformer of a transformable attribute.
    public var valueTransformerName: String?
    /// The class a transformable value decodes to.
    public var customClassName: String?
    /// Whether a large binary or transformable value may be kept in a file beside a SQLite store
    /// rather than in its row (Xcode's "Allows External Storage").
    public var allowsExternalBinaryDataStorage: Bool
    /// The attribute's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// Text mixed into the version hash to force a new version.
    public var versionHashModifier: String?
    /// The entries the model file gives the attribute (Xcode's User Info), kept as text and written back.
    public var userInfo: [String: String]
    /// Model-file attributes with no meaning for the object graph (code generation,
    /// Spotlight, sync flags), kept so that writing a model back preserves them.
    public var xcodeAttributes: [String: String]

    /// An attribute of this name and type: optional, stored, not indexed, with no default value
    /// and no constraints unless given.
    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        defaultValue: ObjectValue = .null,
        minimum: ObjectValue? = nil,
        maximum: ObjectValue? = nil,
        regularExpression: String? = nil,
        valueTransformerName: String? = nil,
        customClassName: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:],
        xcodeAttributes: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.regularExpression = regularExpression
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.xcodeAttributes = xcodeAttributes
    }

    /// Whether minimum and maximum bound the length of the value rather than the value.
    public var constraintsAreLengths: Bool {
        type == .string || type == .binary
    }
}

extension AttributeDescription {
    /// The expression a derived attribute's value is computed from each time its object is
    /// saved (Xcode's Derived option, `derived="YES" derivationExpression="…"`): a key path
    /// (`name`, `owner.name`), a to-many's `@count` (`items.@count`) or aggregate
    /// (`items.@sum.price`), or a function Core Data allows (`now()`, `lowercase:(name)`,
    /// `uppercase:(name)`, `canonical:(name)`). Nil for an attribute the program sets.
    ///
    /// ```swift
    /// var count = AttributeDescription(name: "itemCount", type: .integer64)
    /// count.derivationExpression = "items.@count"
    /// ```
    public var derivationExpression: String? {
        get { xcodeAttributes["derived"] == "YES" ? xcodeAttributes["derivationExpression"] : nil }
        set {
            xcodeAttributes["derived"] = newValue == nil ? nil : "YES"
            xcodeAttributes["derivationExpression"] = newValue
        }
    }

    /// Whether a deleted object's history keeps this attribute's value (its tombstone), as
    /// Xcode's "Preserve After Deletion" sets it (`preserveAfterDeletion="YES"`).
    public var preservesValueInHistoryOnDeletion: Bool {
        get { xcodeAttributes["preserveAfterDeletion"] == "YES" }
        set { xcodeAttributes["preserveAfterDeletion"] = newValue ? "YES" : nil }
    }
}
