import Foundation

/// Why a migration could not be done. The original store is always left as it was.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    /// The store's version hashes match none of the model's versions.
    case noMatchingVersion(store: String, differingEntities: [String])
    /// Inference cannot map a change (a new required attribute without a default, a type change...).
    case cannotInfer(entity: String, property: String?, reason: String)
    /// A mapping file that cannot be used.
    case badMappingFile(file: String, reason: String)
    /// An entity mapping names a policy nobody registered.
    case unknownPolicy(String)
    /// A mapping's expression failed for a source object.
    case expressionFailed(mapping: String, property: String, object: String, reason: String)
    /// The migrated objects do not validate against the destination model.
    case invalidResult(String)
    /// A policy stopped the migration.
    case policyFailed(mapping: String, reason: String)
    /// Nothing to migrate from this store's version to the destination.
    case noPath(from: String, to: String)
    /// A step no mapping was given for, with inference turned off.
    case noMapping(from: String, to: String)
    /// A mapping names a version the model does not have (a typo would otherwise leave the
    /// mapping unused and the migration inferred).
    case unknownMappingVersion(String, versions: [String])
    /// A compiled mapping model (`.cdm`) whose entity version hashes name no two versions
    /// of the model, for the reason given.
    case compiledMappingUnplaced(reason: String)
    /// A mapping that names entities, keys or policies the model versions do not have.
    case mappingDoesNotFit(from: String, to: String, problems: [String])
    /// A store on a server changes only where it lies, and this step is beyond that.
    case notInPlace(store: String, from: String, to: String, reason: String, storeVersion: String, currentVersion: String)

    public var description: String {
        switch self {
        case .mappingDoesNotFit(let from, let to, let problems):
            return "the mapping from \(from) to \(to) does not fit the model:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
        case .unknownMappingVersion(let name, let versions):
            return "a mapping names version '\(name)', which the model does not have (its versions: \(versions.joined(separator: ", ")))"
        case .noMatchingVersion(let store, let entities) where entities.isEmpty:
            return "\(store): the store's tables fit no version of the model"
        case .noMatchingVersion(let store, let entities):
            return "\(store): the store matches no version of the model (entities differing from the current version: \(entities.joined(separator: ", ")))"
        case .cannotInfer(let entity, let property, let reason):
            return "cannot infer a mapping for \(entity)\(property.map { ".\($0)" } ?? ""): \(reason)"
        case .badMappingFile(let file, let reason): return "\(file): \(reason)"
        case .compiledMappingUnplaced(let reason): return "a compiled mapping model (.cdm) cannot be placed among the model's versions: \(reason)"
        case .unknownPolicy(let name): return "no migration policy is registered as '\(name)'"
        case .expressionFailed(let mapping, let property, let object, let reason):
            return "mapping \(mapping), property \(property), source \(object): \(reason)"
        case .invalidResult(let reason): return "the migrated store would be invalid: \(reason)"
        case .policyFailed(let mapping, let reason): return "mapping \(mapping): \(reason)"
        case .noPath(let from, let to): return "no way to migrate from version \(from) to \(to)"
        case .noMapping(let from, let to):
            return "no mapping is given for the step from version \(from) to \(to), and inferring one is turned off (infersMappingModel)"
        case .notInPlace(let store, let from, let to, let reason, let storeVersion, let currentVersion):
            return "\(store): the step from version \(from) to \(to) cannot change a store on a server where it lies: \(reason). "
                + "The store is unchanged; export it with version \(storeVersion) and import the file with version \(currentVersion)"
        }
    }
}
