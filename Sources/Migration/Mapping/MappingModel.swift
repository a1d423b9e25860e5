import Foundation
import ObjectModel
import Predicates

/// How to turn a store written with one model version into one for another: an entity
/// mapping for each destination entity that takes data from the source.
///
/// Values are expressions in the predicate expression language, evaluated with
/// `$source` (the source object), `$manager` (the migration manager), `$entityMapping`
/// and `$propertyMapping`:
///
/// ```swift
/// PropertyMapping(name: "category", value: try ObjectExpression(format:
///     #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CategoryToCategory", $source.category)"#))
/// ```
public struct MappingModel: Sendable, Equatable {
    /// The entity mappings, in the order the migration runs them at each stage.
    public var entityMappings: [EntityMapping]
    /// The source and destination model version names, when known (for messages).
    public var sourceVersion: String?
    /// The name of the model version the mapping leads to, when known: it names the version in
    /// messages, and with `sourceVersion` says which step of a migration the mapping is for.
    public var destinationVersion: String?
    /// The model the mapping goes with (its file name without extension, `ToDo` for
    /// `ToDo.xcdatamodeld`): a mapping file beside a model that names it is found with it
    /// (`bundled(with:)`).
    public var modelName: String?
    /// Apple's version hash of each source entity, by name, as a compiled mapping model
    /// (`.cdm`) carries them in place of version names; empty for other mappings.
    public var sourceEntityVersionHashes: [String: Data] = [:]
    /// Apple's version hash of each destination entity, by name, as a compiled mapping model
    /// carries them; empty for other mappings.
    public var destinationEntityVersionHashes: [String: Data] = [:]

    /// A mapping of these entity mappings, between the named versions of the named model.
    public init(entityMappings: [EntityMapping], sourceVersion: String? = nil, destinationVersion: String? = nil,
                modelName: String? = nil) {
        self.entityMappings = entityMappings
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.modelName = modelName
    }

    /// The entity mapping of this name.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }
}

/// How the instances of one source entity become instances of one destination entity.
public struct EntityMapping: Sendable, Equatable {
    /// What an entity mapping does.
    public enum Kind: String, Sendable, CaseIterable {
        /// The destination entity is new: nothing to migrate.
        case add
        /// The source entity is gone: its instances are dropped.
        case remove
        /// Instances are copied property by property.
        case copy
        /// Instances are transformed by the property mappings' expressions.
        case transform
        /// A custom policy does the work.
        case custom
    }

    /// The name the mapping is known by to `$entityMapping` and the manager's look-ups, such as
    /// `ToDoToToDo`.
    public var name: String
    /// What the mapping does; an `add` or `remove` mapping migrates no instances.
    public var kind: Kind
    /// The source entity whose instances are migrated; nil for an `add` mapping.
    public var sourceEntityName: String?
    /// The destination entity the instances become; nil for a `remove` mapping.
    public var destinationEntityName: String?
    /// Which source instances to migrate; all when `nil`.
    public var sourcePredicate: ObjectPredicate?
    /// How each destination attribute gets its value; an attribute not listed keeps its default.
    public var attributeMappings: [PropertyMapping]
    /// How each destination relationship gets its destinations, set once every instance exists.
    public var relationshipMappings: [PropertyMapping]
    /// The name a custom `EntityMigrationPolicy` was registered under.
    public var policyName: String?
    /// Strings the mapping file carries, read and written with it; the migration does not use them.
    public var userInfo: [String: String]

    /// An entity mapping from the `source` entity to the `destination` entity (`source` nil for an
    /// `add` mapping, `destination` nil for a `remove` one).
    public init(name: String, kind: Kind, source: String?, destination: String?, sourcePredicate: ObjectPredicate? = nil,
                attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = [],
                policyName: String? = nil, userInfo: [String: String] = [:]) {
        self.name = name
        self.kind = kind
        self.sourceEntityName = source
        self.destinationEntityName = destination
        self.sourcePredicate = sourcePredicate
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.policyName = policyName
        self.userInfo = userInfo
    }
}

/// How one destination property gets its value.
public struct PropertyMapping: Sendable, Equatable {
    /// The destination property.
    public var name: String
    /// The value; `nil` leaves the destination's default.
    public var valueExpression: ObjectExpression?

    /// A mapping that sets the destination property `name` to `value`; nil leaves its default.
    public init(name: String, value: ObjectExpression?) {
        self.name = name
        self.valueExpression = value
    }
}

extension MappingModel {
    /// What in this mapping does not fit the two model versions: entities they lack, a
    /// destination key its entity lacks, a `$source.key` the source entity lacks, a policy
    /// nobody registered. One line each; empty when the mapping fits.
    public func problems(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> [String] {
        var problems: [String] = []
        let from = sourceVersion.map { " (\($0))" } ?? "", to = destinationVersion.map { " (\($0))" } ?? ""
        for mapping in entityMappings {
            let label = "entity mapping \(mapping.name)"
            let sourceEntity = mapping.sourceEntityName.flatMap { source.entity(named: $0) }
            if let name = mapping.sourceEntityName, sourceEntity == nil {
                problems.append("\(label): the source model\(from) has no entity '\(name)'")
            }
            let destinationEntity = mapping.destinationEntityName.flatMap { destination.entity(named: $0) }
            if let name = mapping.destinationEntityName, destinationEntity == nil {
                problems.append("\(label): the destination model\(to) has no entity '\(name)'")
            }
            if mapping.policyName != nil, (try? MigrationPolicies.policy(for: mapping)) == nil {
                problems.append("\(label): no migration policy is registered as '\(mapping.policyName!)' "
                                + "(a program registers an EntityMigrationPolicy under that name with MigrationPolicies.register)")
            }
            let properties = [("attributes", mapping.attributeMappings), ("relationships", mapping.relationshipMappings)]
            for (group, mappings) in properties {
                for property in mappings {
                    if let entity = destinationEntity {
                        let fits = group == "attributes" ? entity.attribute(named: property.name) != nil
                                                         : entity.relationship(named: property.name) != nil
                        if !fits {
                            problems.append("\(label), \(group).\(property.name): \(entity.name) in the destination model has no \(group == "attributes" ? "attribute" : "relationship") '\(property.name)'")
                        }
                    }
                    guard let entity = sourceEntity, let value = property.valueExpression else { continue }
                    for key in Self.sourceKeys(in: value) where entity.attribute(named: key) == nil && entity.relationship(named: key) == nil {
                        problems.append("\(label), \(group).\(property.name): \(entity.name) in the source model has no key '\(key)' ($source.\(key))")
                    }
                }
            }
        }
        return problems
    }

    /// The first key of each `$source.key…` in an expression.
    static func sourceKeys(in expression: ObjectExpression) -> [String] {
        switch expression {
        case .member(.variable("source"), let keyPath):
            return [String(keyPath.split(separator: ".").first ?? "")]
        case .member(let base, _), .cast(let base, _), .index(let base, _):
            return sourceKeys(in: base)
        case .aggregate(let parts), .function(_, let parts):
            return parts.flatMap(sourceKeys(in:))
        case .customFunction(let receiver, _, let arguments):
            return sourceKeys(in: receiver) + arguments.flatMap(sourceKeys(in:))
        case .ternary(_, let a, let b):
            return sourceKeys(in: a) + sourceKeys(in: b)
        default:
            return []
        }
    }
}
