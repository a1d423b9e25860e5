import Foundation
import ObjectModel
import Predicates

extension MappingModel {
    /// The mapping Core Data's lightweight migration would infer between two versions.
    ///
    /// Entities and properties match by name, or by the destination's renaming identifier
    /// naming the source. It maps: attributes added (optional, or required with a default),
    /// removed, made optional, made required with a default, renamed; numbers widened;
    /// entities added, removed and renamed; relationships added, removed, renamed, and
    /// to-one changed to to-many; changes of inheritance.
    ///
    /// - Throws: `MigrationError.cannotInfer` naming the entity and property it cannot map.
    public static func inferred(from source: ManagedObjectModel, to destination: ManagedObjectModel,
                                sourceVersion: String? = nil, destinationVersion: String? = nil) throws -> MappingModel {
        var mappings: [EntityMapping] = []
        for d in destination.entities where !d.isAbstract {
            guard let s = matchingEntity(for: d, in: source) else {
                mappings.append(EntityMapping(name: "\(d.name)", kind: .add, source: nil, destination: d.name))
                continue
            }
            var attributes: [PropertyMapping] = []
            for a in d.attributes where !a.isTransient {
                guard let sa = matchingProperty(a.name, a.renamingIdentifier, in: s.attributes.filter { !$0.isTransient }) else {
                    if !a.isOptional && a.defaultValue == .null {
                        throw MigrationError.cannotInfer(entity: d.name, property: a.name,
                                                         reason: "a new required attribute needs a default value")
                    }
                    continue
                }
                guard convertible(sa.type, a.type) else {
                    throw MigrationError.cannotInfer(entity: d.name, property: a.name,
                                                     reason: "the type changed from \(sa.type.xcodeName) to \(a.type.xcodeName)")
                }
                if !a.isOptional && sa.isOptional && a.defaultValue == .null {
                    throw MigrationError.cannotInfer(entity: d.name, property: a.name,
                                                     reason: "made required without a default value")
                }
                attributes.append(PropertyMapping(name: a.name, value: .member(.variable("source"), keyPath: sa.name)))
            }
            var relationships: [PropertyMapping] = []
            for r in d.relationships where !r.isTransient {
                guard let sr = matchingProperty(r.name, r.renamingIdentifier, in: s.relationships.filter { !$0.isTransient }),
                      sr.isToMany == false || r.isToMany else { continue }
                let target = destination.entity(named: r.destinationEntityName)
                let mappingName = (target?.subentityNames.isEmpty ?? false)
                    ? (matchingEntity(for: target!, in: source).map { "\($0.name)To\(target!.name)" } ?? "")
                    : ""
                relationships.append(PropertyMapping(name: r.name, value: .customFunction(
                    receiver: .variable("manager"),
                    selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                    arguments: [.constant(.string(mappingName)), .member(.variable("source"), keyPath: sr.name)])))
            }
            mappings.append(EntityMapping(name: "\(s.name)To\(d.name)", kind: .transform, source: s.name, destination: d.name,
                                          attributeMappings: attributes, relationshipMappings: relationships))
        }
        for s in source.entities where !s.isAbstract && !destination.entities.contains(where: { matchingEntity(for: $0, in: source)?.name == s.name }) {
            mappings.append(EntityMapping(name: "\(s.name)", kind: .remove, source: s.name, destination: nil))
        }
        return MappingModel(entityMappings: mappings, sourceVersion: sourceVersion, destinationVersion: destinationVersion)
    }

    /// This mapping with another's entity mappings taking precedence, destination by
    /// destination; properties the other does not list keep this mapping's values.
    public func overridden(by other: MappingModel) -> MappingModel {
        var result = self
        for mapping in other.entityMappings {
            guard let i = result.entityMappings.firstIndex(where: {
                $0.destinationEntityName == mapping.destinationEntityName && $0.destinationEntityName != nil
                    || ($0.destinationEntityName == nil && $0.sourceEntityName == mapping.sourceEntityName)
            }) else {
                result.entityMappings.append(mapping)
                continue
            }
            var merged = mapping
            let listed = Set(mapping.attributeMappings.map(\.name))
            merged.attributeMappings += result.entityMappings[i].attributeMappings.filter { !listed.contains($0.name) }
            let listedRelationships = Set(mapping.relationshipMappings.map(\.name))
            merged.relationshipMappings += result.entityMappings[i].relationshipMappings.filter { !listedRelationships.contains($0.name) }
            result.entityMappings[i] = merged
        }
        if other.sourceVersion != nil { result.sourceVersion = other.sourceVersion }
        if other.destinationVersion != nil { result.destinationVersion = other.destinationVersion }
        return result
    }

    static func matchingEntity(for destination: Entity, in source: ManagedObjectModel) -> Entity? {
        let name = destination.declaration.renamingIdentifier ?? destination.name
        return source.entity(named: name)
            ?? source.entities.first { $0.declaration.renamingIdentifier != nil && $0.declaration.renamingIdentifier == destination.declaration.renamingIdentifier }
            ?? source.entity(named: destination.name)
    }

    static func matchingProperty<P>(_ name: String, _ renamingIdentifier: String?, in candidates: [P]) -> P? {
        func nameOf(_ p: P) -> (String, String?) {
            if let a = p as? AttributeDescription { return (a.name, a.renamingIdentifier) }
            if let r = p as? RelationshipDescription { return (r.name, r.renamingIdentifier) }
            return ("", nil)
        }
        let wanted = renamingIdentifier ?? name
        return candidates.first { nameOf($0).0 == wanted }
            ?? candidates.first { renamingIdentifier != nil && nameOf($0).1 == renamingIdentifier }
            ?? candidates.first { nameOf($0).0 == name }
    }

    /// Whether a stored value of one type can be read as another without loss.
    static func convertible(_ from: AttributeType, _ to: AttributeType) -> Bool {
        if from == to { return true }
        let widening: [AttributeType: Set<AttributeType>] = [
            .integer16: [.integer32, .integer64, .double, .decimal],
            .integer32: [.integer64, .double, .decimal],
            .integer64: [.decimal],
            .float: [.double, .decimal],
            .boolean: [.integer16, .integer32, .integer64],
        ]
        return widening[from]?.contains(to) ?? false
    }
}
