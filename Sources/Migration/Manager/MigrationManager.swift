import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Migrates the objects of a store written with one model version into a new store for
/// another, following a mapping model, in Core Data's three stages: create destination
/// instances, create relationships, validate.
///
/// Expressions in the mapping see the manager as `$manager`; it answers
/// `destinationInstancesForEntityMappingNamed:sourceInstances:`,
/// `destinationInstancesForSourceRelationshipNamed:sourceInstances:` and
/// `sourceInstancesForEntityMappingNamed:destinationInstances:`.
///
/// ```swift
/// let manager = MigrationManager(source: v1, destination: v2, mapping: try .inferred(from: v1, to: v2))
/// let report = try manager.migrateStore(at: old, type: .xml, to: new, type: .xml)
/// ```
public final class MigrationManager: KeyValueObject, ExpressionFunctionTarget {
    /// The model version the source store was written with.
    public let sourceModel: ManagedObjectModel
    /// The model version the new store is written with.
    public let destinationModel: ManagedObjectModel
    /// The mapping that says how source instances become destination instances.
    public let mapping: MappingModel
    /// Called as the migration goes, with the fraction done (0...1) and a line saying what.
    /// An error it throws (the user gave up) ends the migration with that error, the
    /// destination unsaved.
    public var progress: ((Double, String) throws -> Void)?

    /// The context holding the source store's objects, during a migration.
    public private(set) var sourceContext: ManagedObjectContext!
    /// The context the destination objects are inserted into, during a migration.
    public private(set) var destinationContext: ManagedObjectContext!
    /// The entity mapping being processed.
    public private(set) var currentEntityMapping: EntityMapping?

    private var forward: [String: [ObjectIdentifier: [ManagedObject]]] = [:]
    private var backward: [String: [ObjectIdentifier: [ManagedObject]]] = [:]
    private var anyForward: [ObjectIdentifier: [ManagedObject]] = [:]
    private var destinationsByMapping: [String: [ManagedObject]] = [:]

    /// A manager from the `source` model to the `destination` model by `mapping`; nothing is read
    /// until `migrateStore`.
    public init(source: ManagedObjectModel, destination: ManagedObjectModel, mapping: MappingModel) {
        self.sourceModel = source
        self.destinationModel = destination
        self.mapping = mapping
    }

    /// Reads the store at `sourceURL` with the source model and writes a new store at
    /// `destinationURL` with the destination model. The source is not changed.
    ///
    /// - Throws: `MigrationError`, or the stores' errors; nothing is written on failure.
    @discardableResult
    public func migrateStore(at sourceURL: URL, type sourceType: StoreType, options: StoreOptions = StoreOptions(),
                             to destinationURL: URL, type destinationType: StoreType) throws -> MigrationReport {
        let sourceCoordinator = PersistentStoreCoordinator(model: sourceModel)
        var readOptions = options
        readOptions.migratesAutomatically = false
        try sourceCoordinator.addStore(type: sourceType, at: sourceURL, options: readOptions)
        let destinationCoordinator = PersistentStoreCoordinator(model: destinationModel)
        try destinationCoordinator.addStore(type: destinationType, at: destinationURL)
        sourceContext = ManagedObjectContext(coordinator: sourceCoordinator)
        destinationContext = ManagedObjectContext(coordinator: destinationCoordinator)
        defer {
            sourceContext = nil
            destinationContext = nil
            for store in sourceCoordinator.stores + destinationCoordinator.stores { store.close() }
        }
        return try migrate()
    }

    /// Runs the three stages between `sourceContext` and `destinationContext` and saves.
    private func migrate() throws -> MigrationReport {
        var report = MigrationReport()
        let active = mapping.entityMappings.filter { $0.kind != .add && $0.kind != .remove && $0.destinationEntityName != nil }
        var sources: [String: [ManagedObject]] = [:]
        var total = 0
        for m in active {
            guard let name = m.sourceEntityName else { continue }
            var request = FetchRequest(entityName: name, predicate: m.sourcePredicate)
            request.includesSubentities = false
            request.returnsObjectsAsFaults = false
            let objects = try sourceContext.fetch(request)
            sources[m.name] = Array(objects)
            total += objects.count
        }
        let steps = Double(max(1, total * 2))
        var done = 0
        let policies = try Dictionary(uniqueKeysWithValues: active.map { ($0.name, try MigrationPolicies.policy(for: $0)) })

        for m in active {
            currentEntityMapping = m
            try policies[m.name]!.beginEntityMapping(m, manager: self)
        }
        for m in active {
            currentEntityMapping = m
            try progress?(Double(done) / steps, "creating \(m.destinationEntityName ?? "") from \(m.sourceEntityName ?? "")")
            for source in sources[m.name] ?? [] {
                try policies[m.name]!.createDestinationInstances(forSource: source, mapping: m, manager: self)
                done += 1
                if done % 10_000 == 0 { try progress?(Double(done) / steps, "creating \(m.destinationEntityName ?? "")") }
            }
            try policies[m.name]!.endInstanceCreation(forMapping: m, manager: self)
            report.entities.append(.init(mapping: m.name, source: m.sourceEntityName ?? "", destination: m.destinationEntityName ?? "",
                                         objects: sources[m.name]?.count ?? 0))
        }
        for m in active {
            currentEntityMapping = m
            try progress?(Double(done) / steps, "relating \(m.destinationEntityName ?? "")")
            for destination in destinationsByMapping[m.name] ?? [] {
                try policies[m.name]!.createRelationships(forDestination: destination, mapping: m, manager: self)
                done += 1
                if done % 10_000 == 0 { try progress?(Double(done) / steps, "relating \(m.destinationEntityName ?? "")") }
            }
            try policies[m.name]!.endRelationshipCreation(forMapping: m, manager: self)
        }
        for m in active {
            currentEntityMapping = m
            try policies[m.name]!.performCustomValidation(forMapping: m, manager: self)
        }
        destinationContext.processPendingChanges()
        do {
            try destinationContext.validateForSave()
        } catch let error as ValidationError {
            throw MigrationError.invalidResult(error.description)
        }
        for m in active {
            currentEntityMapping = m
            try policies[m.name]!.endEntityMapping(m, manager: self)
        }
        currentEntityMapping = nil
        try progress?(0.99, "saving")
        try destinationContext.save()
        try progress?(1, "done")
        return report
    }

    // MARK: Associations

    /// Records that `destination` was made from `source` under `mapping`.
    public func associate(source: ManagedObject, destination: ManagedObject, mapping: EntityMapping) {
        let s = ObjectIdentifier(source), d = ObjectIdentifier(destination)
        forward[mapping.name, default: [:]][s, default: []].append(destination)
        backward[mapping.name, default: [:]][d, default: []].append(source)
        anyForward[s, default: []].append(destination)
        destinationsByMapping[mapping.name, default: []].append(destination)
    }

    /// The destination instances made from source instances under a mapping (under any
    /// mapping when the name is `nil` or empty).
    public func destinationInstances(forEntityMappingNamed name: String?, sourceInstances: [ManagedObject]) -> [ManagedObject] {
        let table = (name?.isEmpty ?? true) ? anyForward : (forward[name!] ?? [:])
        return sourceInstances.flatMap { table[ObjectIdentifier($0)] ?? [] }
    }

    /// The source instances a mapping made destination instances from.
    public func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ManagedObject]) -> [ManagedObject] {
        destinationInstances.flatMap { backward[name]?[ObjectIdentifier($0)] ?? [] }
    }

    /// Evaluates a mapping expression with `$source`, `$manager`, `$entityMapping` and
    /// `$propertyMapping` bound.
    public func evaluate(_ expression: ObjectExpression, source: ManagedObject, mapping: EntityMapping,
                         property: PropertyMapping) throws -> ObjectValue {
        do {
            return try expression.evaluate(with: .object(source), variables: [
                "source": .object(source), "manager": .object(self),
                "entityMapping": .string(mapping.name), "propertyMapping": .string(property.name),
            ])
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError.expressionFailed(mapping: mapping.name, property: property.name,
                                                  object: source.objectID.description, reason: "\(error)")
        }
    }

    // MARK: KeyValueObject, ExpressionFunctionTarget

    /// The manager itself: two managers are equal only when they are the same one.
    public var identity: AnyHashable { AnyHashable(ObjectIdentifier(self)) }
    /// `MigrationManager`, as key-value errors name the type.
    public var keyValueTypeName: String { "MigrationManager" }

    /// What an expression reads from `$manager`: `currentEntityMapping` gives the name of the
    /// entity mapping being processed; any other key throws `KeyValueError.unknownKey`.
    public func value(forKey key: String) throws -> ObjectValue {
        switch key {
        case "currentEntityMapping": return currentEntityMapping.map { .string($0.name) } ?? .null
        default: throw KeyValueError.unknownKey(key, typeName: keyValueTypeName)
        }
    }

    /// Answers `FUNCTION($manager, …)` in a mapping expression for
    /// `destinationInstancesForEntityMappingNamed:sourceInstances:`,
    /// `destinationInstancesForSourceRelationshipNamed:sourceInstances:` (what Xcode compiles
    /// for a relationship whose destination several entity mappings make) and
    /// `sourceInstancesForEntityMappingNamed:destinationInstances:`: one object for one object,
    /// a set for a collection.
    ///
    /// - Throws: `MigrationError.policyFailed` for any other selector or number of arguments.
    public func performFunction(_ selector: String, arguments: [ObjectValue]) throws -> ObjectValue {
        func objects(_ value: ObjectValue) -> [ManagedObject] {
            (value.collectionElements ?? [value]).compactMap { $0.objectReference as? ManagedObject }
        }
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            guard arguments.count == 2 else { break }
            let found = destinationInstances(forEntityMappingNamed: arguments[0].stringValue, sourceInstances: objects(arguments[1]))
            if arguments[1].collectionElements == nil { return found.first.map { .object($0) } ?? .null }
            return .set(found.map { .object($0) })
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            // Xcode's default for a relationship whose destination several mappings make (an
            // entity and its sub-entities): the instances made from these under any mapping,
            // of the relationship's destination entity or its sub-entities.
            guard arguments.count == 2, let name = arguments[0].stringValue else { break }
            let target = currentEntityMapping?.destinationEntityName.flatMap { destinationModel.entity(named: $0) }?
                .relationship(named: name)?.destinationEntityName
            let found = destinationInstances(forEntityMappingNamed: nil, sourceInstances: objects(arguments[1]))
                .filter { object in target.map { object.entity.isKind(of: $0) } ?? true }
            if arguments[1].collectionElements == nil { return found.first.map { .object($0) } ?? .null }
            return .set(found.map { .object($0) })
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            guard arguments.count == 2, let name = arguments[0].stringValue else { break }
            let found = sourceInstances(forEntityMappingNamed: name, destinationInstances: objects(arguments[1]))
            if arguments[1].collectionElements == nil { return found.first.map { .object($0) } ?? .null }
            return .set(found.map { .object($0) })
        default:
            break
        }
        throw MigrationError.policyFailed(mapping: currentEntityMapping?.name ?? "?",
                                          reason: "the manager does not answer \(selector) with \(arguments.count) arguments")
    }
}

/// What a migration did.
public struct MigrationReport: Sendable, Equatable {
    /// How many objects one entity mapping migrated.
    public struct EntityCount: Sendable, Equatable {
        /// The entity mapping's name.
        public var mapping: String
        /// The source entity's name; empty when the mapping names none.
        public var source: String
        /// The destination entity's name.
        public var destination: String
        /// How many objects were migrated: the source instances the mapping read or, in place, the
        /// destination entity's objects counted in the store afterwards.
        public var objects: Int
    }

    /// The objects of each entity mapping that migrates instances, in the mapping's order.
    public var entities: [EntityCount] = []
    /// Whether the store was changed where it lies rather than copied.
    public var inPlace = false

    /// A report of these counts, made in place or by copying.
    public init(entities: [EntityCount] = [], inPlace: Bool = false) {
        self.entities = entities
        self.inPlace = inPlace
    }

    /// How many objects were migrated.
    public var objectCount: Int { entities.reduce(0) { $0 + $1.objects } }
}
