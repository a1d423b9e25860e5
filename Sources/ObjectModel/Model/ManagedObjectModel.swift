import Foundation
import Predicates

/// A managed object model: the entities of an object graph, its fetch request
/// templates and its configurations.
///
/// A model is a value. Building one checks it whole — parents, inverses, destinations,
/// default values — and resolves inheritance, so every later lookup is a dictionary read.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [category, todo])
/// model.entity(named: "ToDo")?.relationship(named: "category")?.inverseName  // "todos"
/// ```
public struct ManagedObjectModel: Sendable, Hashable {
    /// The entities as declared, in model order.
    public let entityDescriptions: [EntityDescription]
    /// The named fetch requests stored in the model, in model order; each names one of its entities.
    public let fetchRequestTemplates: [FetchRequestTemplate]
    /// Named subsets of the entities, each stored in the stores added for it.
    public let configurations: [ModelConfiguration]
    /// The version identifier the model's author gave it (`userDefinedModelVersionIdentifier`).
    public let versionIdentifier: String?
    /// Model-file attributes of the `<model>` element, kept for writing back.
    public let xcodeAttributes: [String: String]

    /// The attribute that marks a model inferred from a store's layout (its value the
    /// store's path). It lives only in memory: model files neither write nor read it, so a
    /// model recovered from a store and written out is a model like any other.
    public static let inferredFromStoreKey = "termdataInferredFromStore"

    private let resolved: ResolvedEntities

    /// Builds and checks a model.
    ///
    /// - Throws: `ModelError` naming the entity and property at fault.
    public init(
        entities: [EntityDescription],
        fetchRequestTemplates: [FetchRequestTemplate] = [],
        configurations: [ModelConfiguration] = [],
        versionIdentifier: String? = nil,
        xcodeAttributes: [String: String] = [:]
    ) throws {
        self.entityDescriptions = entities
        self.fetchRequestTemplates = fetchRequestTemplates
        self.configurations = configurations
        self.versionIdentifier = versionIdentifier
        self.xcodeAttributes = xcodeAttributes
        try Self.checkNames(entities)
        self.resolved = try ResolvedEntities(entities)
        try checkReferences()
    }

    /// Whether a name can name an entity or a property: a letter, then letters, digits and
    /// `_`, as Xcode requires. Stores derive table and column names from it (`Z` and the name
    /// in capitals), so nothing else in a model file can reach a store's SQL.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter else { return false }
        return name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
            && name.unicodeScalars.allSatisfy { !$0.isASCII || $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Refuses names that are not identifiers and entity names that differ only in case.
    private static func checkNames(_ entities: [EntityDescription]) throws {
        var byCapitals: [String: String] = [:]
        for entity in entities {
            guard isValidName(entity.name) else { throw ModelError(.invalidName(entity.name), entity: entity.name) }
            if let other = byCapitals[entity.name.uppercased()], other != entity.name {
                throw ModelError(.entityNamesDifferOnlyInCase(other, entity.name), entity: entity.name)
            }
            byCapitals[entity.name.uppercased()] = entity.name
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
            for name in names where !isValidName(name) {
                throw ModelError(.invalidName(name), entity: entity.name, property: name)
            }
        }
    }

    /// All entities, resolved, in model order.
    public var entities: [Entity] { resolved.ordered }

    /// The entity of this name, with its inherited properties.
    public func entity(named name: String) -> Entity? { resolved.byName[name] }

    /// The attribute a key path ends in, from `entity` through to-one relationships
    /// (`category.name`); nil when a step is missing, to-many, or the end is no attribute.
    public func attribute(atKeyPath keyPath: String, from entity: Entity) -> AttributeDescription? {
        var current = entity
        let keys = keyPath.split(separator: ".").map(String.init)
        for key in keys.dropLast() {
            guard let relationship = current.relationship(named: key), !relationship.isToMany,
                  let next = self.entity(named: relationship.destinationEntityName) else { return nil }
            current = next
        }
        return keys.last.flatMap { current.attribute(named: $0) }
    }

    /// The entity whose `number` this is.
    public func entity(numbered number: Int) -> Entity? {
        number >= 1 && number <= resolved.byNumber.count ? resolved.byNumber[number - 1] : nil
    }

    /// Entity names in model order.
    public var entityNames: [String] { entityDescriptions.map(\.name) }

    /// The template of this name.
    public func fetchRequestTemplate(named name: String) -> FetchRequestTemplate? {
        fetchRequestTemplates.first { $0.name == name }
    }

    /// The configuration of this name.
    public func configuration(named name: String) -> ModelConfiguration? {
        configurations.first { $0.name == name }
    }

    /// The entities a configuration holds; every entity for `nil` or the default configuration.
    public func entities(inConfiguration name: String?) -> [Entity] {
        guard let name, name != ModelConfiguration.defaultName,
              let configuration = configuration(named: name) else { return entities }
        return configuration.entityNames.compactMap { entity(named: $0) }
    }

    /// The inverse of a relationship, looked up on its destination.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName else { return nil }
        return entity(named: relationship.destinationEntityName)?.relationship(named: inverseName)
    }

    /// Whether two models have the same entities, fetch request templates, configurations and
    /// version identifier; model-file attributes are not compared.
    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool {
        lhs.entityDescriptions == rhs.entityDescriptions
            && lhs.fetchRequestTemplates == rhs.fetchRequestTemplates
            && lhs.configurations == rhs.configurations
            && lhs.versionIdentifier == rhs.versionIdentifier
    }

    /// Hashes the entity descriptions and fetch request templates.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityDescriptions)
        hasher.combine(fetchRequestTemplates)
    }

    private func checkReferences() throws {
        for entity in entities {
            let e = entity.name
            for r in entity.declaration.relationships {
                guard let destination = self.entity(named: r.destinationEntityName) else {
                    throw ModelError(.missingDestinationEntity(r.destinationEntityName), entity: e, property: r.name)
                }
                if let inverseName = r.inverseName {
                    guard let inverse = destination.relationship(named: inverseName) else {
                        throw ModelError(.missingInverse(name: inverseName, destination: destination.name),
                                         entity: e, property: r.name)
                    }
                    let back = inverse.destinationEntityName
                    guard entity.isKind(of: back) || (self.entity(named: back)?.isKind(of: e) ?? false) else {
                        throw ModelError(.inverseMismatch(name: inverseName, destination: destination.name),
                                         entity: e, property: r.name)
                    }
                }
            }
            for a in entity.declaration.attributes {
                if let text = a.derivationExpression {
                    do { _ = try ObjectExpression(format: text) } catch {
                        throw ModelError(.invalidPredicate(text, reason: "\(error)"), entity: e, property: a.name)
                    }
                }
                if a.defaultValue != .null, !a.type.accepts(a.defaultValue) {
                    throw ModelError(.invalidValue(attribute: "default value", value: "\(a.defaultValue)", type: a.type),
                                     entity: e, property: a.name)
                }
            }
            let fetchIndexed = entity.declaration.fetchIndexes.map { $0.elements.compactMap(\.property) }
            for group in entity.declaration.uniquenessConstraints + entity.declaration.compoundIndexes + fetchIndexed {
                for name in group where !entity.hasProperty(name) {
                    throw ModelError(.unknownAttribute(name), entity: e)
                }
            }
            for f in entity.declaration.fetchedProperties where self.entity(named: f.entityName) == nil {
                throw ModelError(.unknownEntity(f.entityName), entity: e, property: f.name)
            }
        }
        for t in fetchRequestTemplates where entity(named: t.entityName) == nil {
            throw ModelError(.unknownEntity(t.entityName), property: t.name)
        }
        for c in configurations {
            for name in c.entityNames where entity(named: name) == nil {
                throw ModelError(.unknownEntity(name), property: "configuration \(c.name)")
            }
        }
    }
}

/// A named subset of a model's entities.
public struct ModelConfiguration: Sendable, Hashable {
    /// The configuration every model has, holding all its entities.
    public static let defaultName = "Default"

    /// The configuration's name, which a store is added for.
    public var name: String
    /// The names of the entities the configuration holds; building a model checks it has each one.
    public var entityNames: [String]

    /// A configuration of this name holding the named entities.
    public init(name: String, entityNames: [String]) {
        self.name = name
        self.entityNames = entityNames
    }
}

/// Inheritance resolved once per model.
private final class ResolvedEntities: Sendable {
    let ordered: [Entity]
    let byName: [String: Entity]
    let byNumber: [Entity]

    init(_ declarations: [EntityDescription]) throws {
        var declared: [String: EntityDescription] = [:]
        for d in declarations {
            guard declared[d.name] == nil else { throw ModelError(.duplicateEntity, entity: d.name) }
            declared[d.name] = d
        }
        // Ancestors, checking parents exist and that no chain loops.
        var ancestors: [String: [String]] = [:]
        for d in declarations {
            var chain: [String] = []
            var seen: Set<String> = [d.name]
            var current = d
            while let p = current.parentName {
                guard let parent = declared[p] else {
                    throw ModelError(.missingParentEntity(p), entity: current.name)
                }
                guard seen.insert(p).inserted else {
                    throw ModelError(.inheritanceCycle([d.name] + chain + [p]), entity: d.name)
                }
                chain.append(p)
                current = parent
            }
            ancestors[d.name] = chain
        }
        var children: [String: [String]] = [:]
        for d in declarations {
            if let p = d.parentName { children[p, default: []].append(d.name) }
        }
        // Numbers: roots in name order, each followed by its descendants depth first in name order,
        // so an inheritance tree's entities are numbered contiguously.
        var numbering: [String] = []
        func visit(_ name: String) {
            numbering.append(name)
            for c in (children[name] ?? []).sorted() { visit(c) }
        }
        for d in declarations.filter({ $0.parentName == nil }).map(\.name).sorted() { visit(d) }

        func kinds(_ name: String) -> [String] {
            [name] + (children[name] ?? []).flatMap(kinds)
        }

        var byName: [String: Entity] = [:]
        for d in declarations {
            let lineage = (ancestors[d.name] ?? []).reversed().compactMap { declared[$0] } + [d]
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var fetched: [FetchedPropertyDescription] = []
            var names: Set<String> = []
            for level in lineage {
                for p in level.declaredPropertyNames where !names.insert(p).inserted {
                    throw ModelError(.duplicateProperty, entity: d.name, property: p)
                }
                attributes += level.attributes
                relationships += level.relationships
                fetched += level.fetchedProperties
            }
            byName[d.name] = Entity(
                declaration: d,
                attributes: attributes,
                relationships: relationships,
                fetchedProperties: fetched,
                ancestorNames: ancestors[d.name] ?? [],
                subentityNames: children[d.name] ?? [],
                kindNames: kinds(d.name),
                number: numbering.firstIndex(of: d.name)! + 1
            )
        }
        self.byName = byName
        self.ordered = declarations.map { byName[$0.name]! }
        self.byNumber = numbering.map { byName[$0]! }
    }
}
