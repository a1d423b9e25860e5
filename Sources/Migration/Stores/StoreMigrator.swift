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
        public var from: String
        public var to: String
        public var mapping: MappingModel
        /// Whether the mapping was inferred rather than given.
        public var inferred: Bool
        /// Lines saying what the step changes ("ToDo: adds doNotAlert", ...).
        public var changes: [String]
    }

    public let versions: ModelVersions
    /// Mappings to use instead of inference, each for the versions it names (or, without
    /// names, for the step into the current version).
    public var mappings: [MappingModel]
    /// Where the original goes before it is replaced; by default beside it, `.backup` added.
    public var backupURL: ((URL) -> URL)?
    public var progress: ((Double, String) -> Void)?

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

    /// The steps that bring the store to the current version; empty when it is current.
    public func plan(forStoreAt url: URL, type: StoreType) throws -> [Step] {
        let metadata = try PersistentStoreCoordinator.metadataForStore(ofType: type, at: url)
        return try plan(from: sourceVersion(for: metadata, storeName: url.path))
    }

    /// The steps from a version to the current one.
    public func plan(from version: String) throws -> [Step] {
        let names = versions.versions.map(\.name)
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
        let source = versions.version(named: from)!, destination = versions.version(named: to)!
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
        let folder = url.deletingLastPathComponent()
        var temporaries: [URL] = []
        defer { for t in temporaries { Self.removeStoreFiles(t) } }
        var current = url
        var reports: [MigrationReport] = []
        for (n, step) in steps.enumerated() {
            let next = folder.appendingPathComponent(".\(url.lastPathComponent).migrating-\(n)-\(UUID().uuidString)")
            temporaries.append(next)
            let manager = MigrationManager(source: versions.version(named: step.from)!,
                                           destination: versions.version(named: step.to)!, mapping: step.mapping)
            let share = 1.0 / Double(steps.count)
            manager.progress = { fraction, what in self.progress?((Double(n) + fraction) * share, "\(step.from) → \(step.to): \(what)") }
            reports.append(try manager.migrateStore(at: current, type: type, to: next, type: type))
            current = next
        }
        let backup = backupURL?(url) ?? url.appendingPathExtension("backup")
        Self.removeStoreFiles(backup)
        try Self.moveStoreFiles(from: url, to: backup)
        do {
            try Self.moveStoreFiles(from: current, to: url)
        } catch {
            try? Self.moveStoreFiles(from: backup, to: url)
            throw error
        }
        return reports
    }

    /// A store's file and its SQLite sidecars.
    static func storeFiles(_ url: URL) -> [URL] {
        [url, URL(fileURLWithPath: url.path + "-wal"), URL(fileURLWithPath: url.path + "-shm")]
    }

    static func removeStoreFiles(_ url: URL) {
        for f in storeFiles(url) { try? FileManager.default.removeItem(at: f) }
    }

    static func moveStoreFiles(from: URL, to: URL) throws {
        for (a, b) in zip(storeFiles(from), storeFiles(to)) where FileManager.default.fileExists(atPath: a.path) {
            try FileManager.default.moveItem(at: a, to: b)
        }
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
