import Foundation
import ObjectGraph
import ObjectModel

/// An entity of a model, under Core Data's name: its name and class, its properties by
/// name, its place among its super- and sub-entities.
///
/// ```swift
/// let entity = NSEntityDescription.entity(forEntityName: "Item", in: context)!
/// entity.attributesByName["title"]?.attributeType      // .stringAttributeType
/// let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
/// ```
///
/// Read-only: models come from files (`NSManagedObjectModel(contentsOf:)`) or are built in
/// the engine's terms (`EntityDescription`); Core Data's setters are left out (docs/Porting.md).
/// Two descriptions of one entity are equal.
///
/// `@unchecked Sendable`: its one stored property is a `let` of a `Sendable` value.
public final class NSEntityDescription: NSObject, @unchecked Sendable {
    /// The entity in the engine's terms.
    public let engineEntity: Entity
    /// The model the entity belongs to, to find its relatives by name (unknown for the
    /// entity of an object no longer in a context).
    let model: ManagedObjectModel?

    init(_ entity: Entity, in model: ManagedObjectModel?) {
        engineEntity = entity
        self.model = model
        super.init()
    }

    /// The entity of a name in a context's model, or nil.
    public static func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        context.model.entity(named: entityName).map { NSEntityDescription($0, in: context.model) }
    }

    /// Inserts a new object of a named entity, made as the entity's class.
    ///
    /// An entity the model lacks, or an abstract one, is a programming error, as in Core Data.
    public static func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        ManagedClasses.resolveByName(entityName, in: context.coordinator)
        do {
            return try context.insertObject(forEntityName: entityName)
        } catch {
            preconditionFailure("NSEntityDescription.insertNewObject(forEntityName: \"\(entityName)\"): \(error)")
        }
    }

    /// The entity's name (optional in Core Data's signature; always set here).
    public var name: String? { engineEntity.name }

    /// The name of the class its objects are made as: its `representedClassName`, or
    /// "NSManagedObject".
    public var managedObjectClassName: String! { engineEntity.declaration.className ?? "NSManagedObject" }

    /// Whether the entity has no objects of its own, only those of its sub-entities.
    public var isAbstract: Bool { engineEntity.isAbstract }

    /// The entity it inherits from.
    public var superentity: NSEntityDescription? {
        engineEntity.parentName.flatMap { model?.entity(named: $0) }.map { NSEntityDescription($0, in: model) }
    }

    /// The entities that inherit from it directly.
    public var subentities: [NSEntityDescription] {
        (model?.entities ?? []).filter { $0.parentName == engineEntity.name }.map { NSEntityDescription($0, in: model) }
    }

    /// The sub-entities by name.
    public var subentitiesByName: [String: NSEntityDescription] {
        Dictionary(uniqueKeysWithValues: subentities.map { ($0.engineEntity.name, $0) })
    }

    /// Whether the entity is `entity` or inherits from it.
    public func isKindOf(entity: NSEntityDescription) -> Bool { engineEntity.isKind(of: entity.engineEntity.name) }

    /// The attributes and relationships, inherited ones included; fetched properties are not
    /// among them.
    public var properties: [NSPropertyDescription] {
        engineEntity.attributes.map { NSAttributeDescription($0, of: self) as NSPropertyDescription }
            + engineEntity.relationships.map { NSRelationshipDescription($0, of: self) }
    }

    /// The attributes and relationships, inherited ones included, by name.
    public var propertiesByName: [String: NSPropertyDescription] {
        Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The attributes, inherited ones included, by name.
    public var attributesByName: [String: NSAttributeDescription] {
        Dictionary(engineEntity.attributes.map { ($0.name, NSAttributeDescription($0, of: self)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The relationships, inherited ones included, by name.
    public var relationshipsByName: [String: NSRelationshipDescription] {
        Dictionary(engineEntity.relationships.map { ($0.name, NSRelationshipDescription($0, of: self)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The relationships that lead to `entity` (or an entity it inherits from).
    public func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        engineEntity.relationships.filter { entity.engineEntity.isKind(of: $0.destinationEntityName) }
            .map { NSRelationshipDescription($0, of: self) }
    }

    /// Each uniqueness constraint's property names.
    public var uniquenessConstraints: [[Any]] { engineEntity.declaration.uniquenessConstraints.map { $0 as [Any] } }

    /// The model's user info for the entity itself (not inherited); empty when there is none.
    public var userInfo: [AnyHashable: Any]? { engineEntity.declaration.userInfo }

    /// The entity's name in an earlier model version, for migration.
    public var renamingIdentifier: String? { engineEntity.declaration.renamingIdentifier }

    /// Text mixed into the entity's version hash, to force a new model version.
    public var versionHashModifier: String? { engineEntity.declaration.versionHashModifier }

    /// Whether the other describes an equal entity: the same declaration, ancestors and
    /// sub-entities.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSEntityDescription else { return false }
        return other.engineEntity == engineEntity
    }

    /// A hash of the entity, the same for equal descriptions.
    public override var hash: Int { engineEntity.hashValue }

    /// `NSEntityDescription(NAME)`.
    public override var description: String { "NSEntityDescription(\(engineEntity.name))" }
}
