import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// Brings a store up to the current version of a model: finds the version the store was
/// written with, plans the steps (one per version, each with a given mapping or an
/// inferred one), migrates step by step into temporary files, then keeps a backup of the
/// original and puts the result in its place. A migration that fails leaves the original
/// as it was.
///
/// ```swift
/// let migrator = StoreMigrator(versions: try XcodeModelFile.read(modelURL))
/// let plan = try migrator.plan(forStoreAt: url, type: .xml)     // what would happen
/// let report = try migrator.migrateStore(at: url, type: .xml)
/// ```
public struct StoreMigrator {
    /// One step of a plan: from one version to the next.
    public struct Step: Equatable {
        /// The name of the version the step starts from.
        public var from: String
        /// The name of the version the step migrates to: the next one, or the current one for a
        /// mapping given for the whole way.
        public var to: String
        /// The mapping the step follows: the given one completed by inference, or an inferred one.
        public var mapping: MappingModel
        /// Whether the mapping was inferred rather than given.
        public var inferred: Bool
        /// Lines saying what the step changes ("ToDo: adds doNotAlert", ...).
        public var changes: [String]
    }

    /// The model's versions, and the current one that stores are brought up to.
    public let versions: ModelVersions
    /// Mappings to use instead of inference, each for the versions it names (or, without
    /// names, for the step into the current version).
    public var mappings: [MappingModel]
    /// Where the original goes before it is replaced; by default beside it, `.backup` added.
    public var backupURL: ((URL) -> URL)?
    /// Called as the migration goes, with the fraction done (0...1) and a line saying what.
    /// An error it throws (the user gave up) ends the migration with that error, the store
    /// left as it was.
    public var progress: ((Double, String) throws -> Void)?
    /// Whether a step no mapping is given for infers one (Core Data's
    /// `shouldInferMappingModelAutomatically`); off, such a step is refused. A given
    /// mapping is completed by inference either way: it need only say what differs.
    public var infersMappings = true

    /// A migrator to the current version of `versions`, with mappings to use instead of inference.
    public init(versions: ModelVersions, mappings: [MappingModel] = []) {
        self.versions = versions
        self.mappings = mappings
    }

    /// The version whose hashes a store's metadata records.
    public func sourceVersion(for metadata: StoreMetadata, storeName: String) throws -> String {
        if let match = versions.versions.first(where: { $0.model.entityVersionHashes == metadata.versionHashes }) {
            return match.name
        }
        throw MigrationError.noMatchingVersion(store: storeName,
                                               differingEntities: versions.current.entitiesDiffering(fromVersionHashes: metadata.versionHashes))
    }

    /// The version a store was written with: the one whose hashes its metadata records or,
    /// for a store written by Apple's Core Data (whose hashes cannot be computed here), the
    /// one a compiled `.momd` lists those hashes for, else the newest version whose schema
    /// the store fits.
    public func sourceVersion(forStoreAt url: URL, type: StoreType) throws -> String {
        let metadata = try PersistentStoreCoordinator.metadataForStore(ofType: type, at: url)
        guard metadata.versionHashes.isEmpty else { return try sourceVersion(for: metadata, storeName: url.path) }
        // Apple's hashes match a compiled model's own list of them exactly.
        if let name = versions.versionName(forAppleHashes: metadata.appleVersionHashes) { return name }
        var options = StoreOptions()
        options.readOnly = true
        for version in versions.versions.reversed() {
            let coordinator = PersistentStoreCoordinator(model: version.model)
            if let store = try? coordinator.addStore(type: type, at: url, options: options) {
                coordinator.removeStore(store)
                return version.name
            }
        }
        throw MigrationError.noMatchingVersion(store: url.path, differingEntities: [])
    }

    /// The steps that bring the store to the current version; empty when it is current.
    public func plan(forStoreAt url: URL, type: StoreType) throws -> [Step] {
        try plan(from: sourceVersion(forStoreAt: url, type: type))
    }

    /// The steps from a version to the current one.
    public func plan(from version: String) throws -> [Step] {
        let names = versions.versions.map(\.name)
        let mappings = try self.mappings.map { try $0.placed(among: versions) }
        for mapping in mappings {
            for named in [mapping.sourceVersion, mapping.destinationVersion].compactMap({ $0 }) where !names.contains(named) {
                throw MigrationError.unknownMappingVersion(named, versions: names)
            }
        }
        guard let start = names.firstIndex(of: version), let end = names.firstIndex(of: versions.currentVersionName) else {
            throw MigrationError.noPath(from: version, to: versions.currentVersionName)
        }
        if start == end { return [] }
        guard start < end else { throw MigrationError.noPath(from: version, to: versions.currentVersionName) }
        // A mapping given for the whole way goes in one step.
        if let direct = mappings.first(where: { $0.sourceVersion == version && $0.destinationVersion == versions.currentVersionName }) {
            return [try step(from: version, to: versions.currentVersionName, given: direct)]
        }
        var steps: [Step] = []
        for i in start..<end {
            let given = mappings.first { $0.sourceVersion == names[i] && $0.destinationVersion == names[i + 1] }
                ?? (i + 1 == end ? mappings.first { $0.sourceVersion == nil && $0.destinationVersion == nil } : nil)
            steps.append(try step(from: names[i], to: names[i + 1], given: given))
        }
        return steps
    }

    private func step(from: String, to: String, given: MappingModel?) throws -> Step {
        guard given != nil || infersMappings else { throw MigrationError.noMapping(from: from, to: to) }
        let source = versions.version(named: from)!, destination = versions.version(named: to)!
        // Checked before anything is read, so that a dry run reports it too.
        if let problems = given?.problems(from: source, to: destination), !problems.isEmpty {
            throw MigrationError.mappingDoesNotFit(from: from, to: to, problems: problems)
        }
        let inferred: MappingModel
        do {
            inferred = try MappingModel.inferred(from: source, to: destination, sourceVersion: from, destinationVersion: to)
        } catch {
            guard let given else { throw error }
            return Step(from: from, to: to, mapping: given, inferred: false, changes: Self.describe(source, destination, given))
        }
        let mapping = given.map { inferred.overridden(by: $0) } ?? inferred
        return Step(from: from, to: to, mapping: mapping, inferred: given == nil, changes: Self.describe(source, destination, mapping))
    }

    /// Migrates the store in place (see the type's description).
    ///
    /// - Returns: one report per step; empty when the store was current.
    @discardableResult
    public func migrateStore(at url: URL, type: StoreType) throws -> [MigrationReport] {
        let steps = try plan(forStoreAt: url, type: type)
        guard !steps.isEmpty else { return [] }
        guard url.isFileURL else { return try migrateOnServer(at: url, type: type, steps: steps) }
        if let reports = try migrateInPlace(at: url, type: type, steps: steps) { return reports }
        let folder = url.deletingLastPathComponent()
        var temporaries: [URL] = []
        defer { for t in temporaries { StoreFiles.remove(forStoreAt: t, type: type, sharedWith: url) } }
        var current = url
        var reports: [MigrationReport] = []
        for (n, step) in steps.enumerated() {
            // The name ends in an extension so that each step's store has its own support folder.
            let next = folder.appendingPathComponent(".\(url.lastPathComponent).migrating-\(n)-\(UUID().uuidString).tmp")
            temporaries.append(next)
            let manager = MigrationManager(source: versions.version(named: step.from)!,
                                           destination: versions.version(named: step.to)!, mapping: step.mapping)
            let share = 1.0 / Double(steps.count)
            manager.progress = { fraction, what in try self.progress?((Double(n) + fraction) * share, "\(step.from) → \(step.to): \(what)") }
            reports.append(try manager.migrateStore(at: current, type: type, to: next, type: type))
            current = next
        }
        let backup = backupURL?(url) ?? url.appendingPathExtension("backup")
        StoreFiles.remove(forStoreAt: backup, type: type, sharedWith: url)
        try StoreFiles.transfer(from: url, to: backup, type: type, moving: true)
        do {
            try StoreFiles.transfer(from: current, to: url, type: type, moving: true)
        } catch {
            try? StoreFiles.transfer(from: backup, to: url, type: type, moving: true)
            throw error
        }
        return reports
    }

    /// The fast path: every step inferred, and the store type able to change its file where
    /// it lies (SQLite: `ALTER TABLE` in a transaction). The original is copied to the backup
    /// first and copied back if a step fails. `nil` when the path does not apply.
    private func migrateInPlace(at url: URL, type: StoreType, steps: [Step]) throws -> [MigrationReport]? {
        guard let migrator = PersistentStoreCoordinator.inPlaceMigrator(for: type), steps.allSatisfy(\.inferred) else { return nil }
        let backup = backupURL?(url) ?? url.appendingPathExtension("backup")
        StoreFiles.remove(forStoreAt: backup, type: type, sharedWith: url)
        try StoreFiles.transfer(from: url, to: backup, type: type, moving: false)
        var reports: [MigrationReport] = []
        do {
            for (n, step) in steps.enumerated() {
                try progress?(Double(n) / Double(steps.count), "\(step.from) → \(step.to): changing the store in place")
                let source = versions.version(named: step.from)!, destination = versions.version(named: step.to)!
                guard try migrator(url, source, destination, Self.renames(in: step.mapping)) else {
                    try Self.restore(url, from: backup, type: type)
                    return nil
                }
                reports.append(try Self.count(url, type: type, model: destination, mapping: step.mapping))
            }
        } catch {
            try? Self.restore(url, from: backup, type: type)
            throw error
        }
        // Done: a stop asked for now comes too late to keep the store as it was.
        try? progress?(1, "done")
        return reports
    }

    /// A store on a server changes where it lies, every step in one transaction (the
    /// server's DDL is transactional: a migration that fails changes nothing, and no client
    /// sees a version between). There is no file to copy the objects into, so every step
    /// needs a change in place; one that does not is refused before anything changes.
    private func migrateOnServer(at url: URL, type: StoreType, steps: [Step]) throws -> [MigrationReport] {
        var shown = URLComponents(url: url, resolvingAgainstBaseURL: false)
        shown?.password = nil
        let query = shown?.queryItems?.filter { $0.name.lowercased() != "password" }
        shown?.queryItems = query?.isEmpty == true ? nil : query
        let place = shown?.string ?? url.absoluteString
        func refused(_ step: Step, _ reason: String) -> MigrationError {
            .notInPlace(store: place, from: step.from, to: step.to, reason: reason,
                        storeVersion: steps[0].from, currentVersion: versions.currentVersionName)
        }
        if let step = steps.first(where: { !$0.inferred }) { throw refused(step, "it needs a mapping model") }
        guard let migrator = PersistentStoreCoordinator.transactionalMigrator(for: type) else {
            throw ObjectGraphError.storeFormat(file: place, reason: "it was written with model version \(steps[0].from), and this store type is not migrated here")
        }
        try progress?(0, "\(steps[0].from) → \(versions.currentVersionName): changing the store in place")
        let inPlace = steps.map { step in
            InPlaceMigrationStep(source: versions.version(named: step.from)!, destination: versions.version(named: step.to)!,
                                 renames: Self.renames(in: step.mapping))
        }
        if let failed = try migrator(url, inPlace) {
            throw refused(steps[failed], "it renames an entity, adds or removes one within an inheritance tree, or changes inheritance or a stored type")
        }
        // Counted in the store as it now is, with the current version.
        let reports = try steps.map { try Self.count(url, type: type, model: versions.current, mapping: $0.mapping) }
        // Done: a stop asked for now comes too late to keep the store as it was.
        try? progress?(1, "done")
        return reports
    }

    /// New name → old name, per destination entity, for what a mapping renames.
    static func renames(in mapping: MappingModel) -> [String: [String: String]] {
        var renames: [String: [String: String]] = [:]
        for m in mapping.entityMappings {
            guard let entity = m.destinationEntityName else { continue }
            for pm in m.attributeMappings {
                if case .member(.variable("source"), let old)? = pm.valueExpression, old != pm.name { renames[entity, default: [:]][pm.name] = old }
            }
            for pm in m.relationshipMappings {
                if case .customFunction(_, _, let arguments)? = pm.valueExpression, arguments.count == 2,
                   case .member(.variable("source"), let old) = arguments[1], old != pm.name {
                    renames[entity, default: [:]][pm.name] = old
                }
            }
        }
        return renames
    }

    /// A report of an in-place step: the objects of each mapped entity, counted in the store.
    static func count(_ url: URL, type: StoreType, model: ManagedObjectModel, mapping: MappingModel) throws -> MigrationReport {
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = try coordinator.addStore(type: type, at: url)
        defer { store.close() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var report = MigrationReport(inPlace: true)
        for m in mapping.entityMappings where m.kind == .transform || m.kind == .copy {
            guard let destination = m.destinationEntityName, model.entity(named: destination) != nil else { continue }
            var request = FetchRequest(entityName: destination)
            request.includesSubentities = false
            report.entities.append(.init(mapping: m.name, source: m.sourceEntityName ?? "", destination: destination,
                                         objects: try context.count(for: request)))
        }
        return report
    }

    static func restore(_ url: URL, from backup: URL, type: StoreType) throws {
        StoreFiles.remove(forStoreAt: url, type: type, sharedWith: backup)
        try StoreFiles.transfer(from: backup, to: url, type: type, moving: false)
    }

    /// What a mapping changes, entity by entity, in words.
    static func describe(_ source: ManagedObjectModel, _ destination: ManagedObjectModel, _ mapping: MappingModel) -> [String] {
        var lines: [String] = []
        for m in mapping.entityMappings {
            switch m.kind {
            case .add: lines.append("\(m.destinationEntityName ?? m.name): new entity")
            case .remove: lines.append("\(m.sourceEntityName ?? m.name): removed, its objects dropped")
            default:
                guard let s = m.sourceEntityName.flatMap({ source.entity(named: $0) }),
                      let d = m.destinationEntityName.flatMap({ destination.entity(named: $0) }) else { continue }
                var parts: [String] = []
                if s.name != d.name { parts.append("renamed from \(s.name)") }
                let mapped = Set(m.attributeMappings.map(\.name))
                let added = d.attributes.filter { !$0.isTransient && !mapped.contains($0.name) }.map(\.name)
                if !added.isEmpty { parts.append("adds " + added.joined(separator: ", ")) }
                for pm in m.attributeMappings {
                    if case .member(.variable("source"), let key)? = pm.valueExpression, key != pm.name {
                        parts.append("\(pm.name) from \(key)")
                    }
                }
                let kept = Set(m.attributeMappings.compactMap { pm -> String? in
                    if case .member(.variable("source"), let key)? = pm.valueExpression { return key }
                    return nil
                })
                let dropped = s.attributes.filter { !$0.isTransient && !kept.contains($0.name) && d.attribute(named: $0.name) == nil }.map(\.name)
                if !dropped.isEmpty { parts.append("drops " + dropped.joined(separator: ", ")) }
                if let policy = m.policyName { parts.append("policy \(policy)") }
                lines.append("\(d.name): " + (parts.isEmpty ? "copied" : parts.joined(separator: "; ")))
            }
        }
        return lines
    }
}
