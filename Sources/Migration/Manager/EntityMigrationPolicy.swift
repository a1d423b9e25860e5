import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// What happens to the instances of one entity mapping, stage by stage. Subclass and
/// register under the name an entity mapping gives as its `policyName` to customise.
///
/// The manager calls, for every entity mapping: `beginEntityMapping`; then, stage by
/// stage over all mappings, `createDestinationInstances` for each source instance and
/// `endInstanceCreation`; `createRelationships` for each destination instance and
/// `endRelationshipCreation`; `performCustomValidation`; finally `endEntityMapping`.
///
/// ```swift
/// final class DoNotAlertPolicy: EntityMigrationPolicy {
///     override func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping,
///                                              manager: MigrationManager) throws {
///         try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
///         // adjust manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source])
///     }
/// }
/// MigrationPolicies.register(DoNotAlertPolicy.self, as: "DoNotAlert")
/// ```
open class EntityMigrationPolicy {
    /// Makes a policy; the manager makes one for each entity mapping, before the migration begins.
    public required init() {}

    /// Called for every entity mapping before any instance is created; does nothing by default.
    ///
    /// An error it throws ends the migration, nothing saved, as from any stage.
    open func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Inserts the destination instance for one source instance, sets its attributes from
    /// the mapping's expressions, and associates the two.
    open func createDestinationInstances(forSource source: ManagedObject, mapping: EntityMapping,
                                         manager: MigrationManager) throws {
        guard let entityName = mapping.destinationEntityName else { return }
        let destination = try manager.destinationContext.insertObject(forEntityName: entityName)
        for property in mapping.attributeMappings {
            guard let expression = property.valueExpression,
                  let attribute = destination.entity.attribute(named: property.name) else { continue }
            let value = try manager.evaluate(expression, source: source, mapping: mapping, property: property)
            // A required attribute keeps its default rather than take a nil.
            if value.isNull && !attribute.isOptional && attribute.defaultValue != .null { continue }
            do { try destination.setValue(value, forKey: property.name) } catch {
                throw MigrationError.expressionFailed(mapping: mapping.name, property: property.name,
                                                      object: source.objectID.description, reason: "\(error)")
            }
        }
        manager.associate(source: source, destination: destination, mapping: mapping)
    }

    /// Called once every source instance of this mapping has its destination instances, before
    /// any relationship is set; does nothing by default.
    open func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Sets the destination instance's relationships from the mapping's expressions,
    /// evaluated against its source instance.
    open func createRelationships(forDestination destination: ManagedObject, mapping: EntityMapping,
                                  manager: MigrationManager) throws {
        guard let source = manager.sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: [destination]).first else { return }
        for property in mapping.relationshipMappings {
            guard let expression = property.valueExpression,
                  let relationship = destination.entity.relationship(named: property.name) else { continue }
            var value = try manager.evaluate(expression, source: source, mapping: mapping, property: property)
            if relationship.isToMany, case .object = value { value = .set([value]) }
            if !relationship.isToMany, let elements = value.collectionElements {
                guard elements.count <= 1 else {
                    throw MigrationError.expressionFailed(mapping: mapping.name, property: property.name,
                                                          object: source.objectID.description,
                                                          reason: "\(elements.count) objects for a to-one relationship")
                }
                value = elements.first ?? .null
            }
            do { try destination.setValue(value, forKey: property.name) } catch {
                throw MigrationError.expressionFailed(mapping: mapping.name, property: property.name,
                                                      object: source.objectID.description, reason: "\(error)")
            }
        }
    }

    /// Called once every destination instance of this mapping has its relationships set; does
    /// nothing by default.
    open func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Called after every mapping's relationships are set, before the destination objects are
    /// validated and saved: a place to check the result and throw; does nothing by default.
    open func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Called last for every entity mapping, after the destination objects pass validation and
    /// before they are saved; does nothing by default.
    open func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}
}

/// The policies entity mappings can name.
public enum MigrationPolicies {
    nonisolated(unsafe) private static var registered: [String: EntityMigrationPolicy.Type] = [:]
    private static let lock = NSLock()

    /// Makes a policy available under a name.
    public static func register(_ type: EntityMigrationPolicy.Type, as name: String) {
        lock.lock()
        defer { lock.unlock() }
        registered[name] = type
    }

    /// The policy for a mapping: its registered custom policy, or the default one.
    static func policy(for mapping: EntityMapping) throws -> EntityMigrationPolicy {
        guard let name = mapping.policyName else { return EntityMigrationPolicy() }
        lock.lock()
        let type = registered[name]
        lock.unlock()
        guard let type else { throw MigrationError.unknownPolicy(name) }
        return type.init()
    }
}
