import Foundation
import ObjectModel
import Predicates

extension MappingModel {
    /// Reads a compiled mapping model: the `.cdm` file Xcode makes from an `.xcmappingmodel`
    /// and puts in an app beside its `.momd`.
    ///
    /// The file is an archived `NSMappingModel`: its entity mappings with their names, kinds,
    /// policy class names and property mappings, each value an archived `NSExpression`, and
    /// each source fetch's predicate. It names no model versions: it carries the entity
    /// version hashes of the models it was compiled for (`sourceEntityVersionHashes`,
    /// `destinationEntityVersionHashes`), which `StoreMigrator` matches against the hashes a
    /// compiled model lists to find the step the mapping is for.
    ///
    /// - Throws: `MigrationError.badMappingFile` naming the file and what is wrong.
    public static func readCompiledMapping(_ url: URL) throws -> MappingModel {
        func fail(_ reason: String) -> MigrationError { .badMappingFile(file: url.path, reason: reason) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw fail("cannot be read: \(error.localizedDescription)") }
        do {
            let archive = try ArchivedExpressions.archive(in: data)
            let root = try archive.rootObject()
            guard root.isKind(of: "NSMappingModel") else {
                throw fail("not a compiled mapping model (its archive holds a \(root.className), not an NSMappingModel)")
            }
            var result = MappingModel(entityMappings: [])
            for value in try archive.elements(root["NSEntityMappings"]) {
                guard let object = try archive.object(value), object.isKind(of: "NSEntityMapping") else {
                    throw fail("NSEntityMappings holds something other than an NSEntityMapping")
                }
                let mapping = try compiledEntityMapping(object, archive: archive, fail: fail)
                if let source = mapping.sourceEntityName, case .data(let hash)? = archive.resolve(object["NSSourceEntityVersionHash"]) {
                    result.sourceEntityVersionHashes[source] = hash
                }
                if let destination = mapping.destinationEntityName,
                   case .data(let hash)? = archive.resolve(object["NSDestinationEntityVersionHash"]) {
                    result.destinationEntityVersionHashes[destination] = hash
                }
                result.entityMappings.append(mapping)
            }
            guard !result.sourceEntityVersionHashes.isEmpty, !result.destinationEntityVersionHashes.isEmpty else {
                throw fail("a compiled mapping model without its entities' version hashes (it could not be placed between two versions)")
            }
            return result
        } catch let problem as ArchivedExpressions.Problem {
            throw fail("not a compiled mapping model: \(problem.message)")
        } catch let problem as KeyedArchive.Problem {
            throw fail("not a compiled mapping model: \(problem.message)")
        }
    }

    /// A compiled mapping with the versions its entity hashes name: the versions whose hashes
    /// (Apple's, as a compiled model lists them) hold every hash of the mapping's source
    /// entities, and of its destination entities. Any other mapping as it is.
    ///
    /// - Throws: `MigrationError.compiledMappingUnplaced` when the versions list no Apple
    ///   hashes (a model read from its `.xcdatamodeld`) or none holds the mapping's.
    public func placed(among versions: ModelVersions) throws -> MappingModel {
        let mapping = self
        guard mapping.sourceVersion == nil, mapping.destinationVersion == nil,
              !mapping.sourceEntityVersionHashes.isEmpty || !mapping.destinationEntityVersionHashes.isEmpty else { return mapping }
        guard !versions.appleVersionHashes.isEmpty else {
            throw MigrationError.compiledMappingUnplaced(reason: "it names its versions by Apple's entity version hashes, "
                + "which only a compiled model (.momd, its VersionInfo.plist) lists; open the model from its .momd, or give the .xcmappingmodel")
        }
        let names = versions.versions.map(\.name)
        /// The versions whose Apple hashes hold these, by index.
        func candidates(_ hashes: [String: Data], _ side: String) throws -> [Int] {
            guard !hashes.isEmpty else {
                throw MigrationError.compiledMappingUnplaced(reason: "it names no \(side) entity's hash")
            }
            let matching = names.indices.filter { i in
                guard let apple = versions.appleVersionHashes[names[i]] else { return false }
                return hashes.allSatisfy { apple[$0.key] == $0.value }
            }
            guard !matching.isEmpty else {
                throw MigrationError.compiledMappingUnplaced(reason: "no version's hashes hold its \(side) entities' "
                    + "(\(hashes.keys.sorted().joined(separator: ", ")))")
            }
            return matching
        }
        let sources = try candidates(mapping.sourceEntityVersionHashes, "source")
        let destinations = try candidates(mapping.destinationEntityVersionHashes, "destination")
        // Versions can agree on these entities (they differ in what hashes leave out): a source
        // before its destination, then one with exactly the mapping's entities on both sides,
        // then neighbours; anything still tied is refused rather than guessed.
        func exact(_ i: Int, _ hashes: [String: Data]) -> Int {
            Set((versions.appleVersionHashes[names[i]] ?? [:]).keys) == Set(hashes.keys) ? 1 : 0
        }
        let pairs = sources.flatMap { s in destinations.filter { $0 > s }.map { (s, $0) } }
        func score(_ pair: (Int, Int)) -> [Int] {
            [exact(pair.0, mapping.sourceEntityVersionHashes) + exact(pair.1, mapping.destinationEntityVersionHashes), pair.1 == pair.0 + 1 ? 1 : 0]
        }
        guard let best = pairs.map(score).max(by: { $0.lexicographicallyPrecedes($1) }) else {
            throw MigrationError.compiledMappingUnplaced(reason: "no version its source entities' hashes fit comes before one its destination's fit")
        }
        let chosen = pairs.filter { score($0) == best }
        guard chosen.count == 1 else {
            throw MigrationError.compiledMappingUnplaced(reason: "its hashes fit several steps ("
                + chosen.map { "\(names[$0.0]) → \(names[$0.1])" }.joined(separator: ", ") + ")")
        }
        var placed = mapping
        placed.sourceVersion = names[chosen[0].0]
        placed.destinationVersion = names[chosen[0].1]
        return placed
    }

    /// `NSEntityMappingType` as Core Data numbers it: 0 undefined, 1 custom, 2 add, 3 remove,
    /// 4 copy, 5 transform.
    private static let compiledKinds: [Int: EntityMapping.Kind] = [0: .transform, 1: .custom, 2: .add, 3: .remove, 4: .copy, 5: .transform]

    private static func compiledEntityMapping(_ object: KeyedArchive.Object, archive: KeyedArchive,
                                              fail: (String) -> MigrationError) throws -> EntityMapping {
        let source = try archive.string(object["NSSourceEntityName"])
        let destination = try archive.string(object["NSDestinationEntityName"])
        guard let name = try archive.string(object["NSMappingName"]) ?? destination ?? source else {
            throw fail("an entity mapping has no name and names no entity")
        }
        let code = object["NSMappingType"]?.int ?? 0
        guard var kind = compiledKinds[code] else { throw fail("\(name): mapping type \(code) is not one of Core Data's (0 to 5)") }
        let policy = try archive.string(object["NSEntityMigrationPolicyClassName"])
        if kind == .custom, policy == nil { kind = .transform }
        func properties(_ key: String) throws -> [PropertyMapping] {
            try archive.elements(object[key]).map { value in
                guard let property = try archive.object(value), let propertyName = try archive.string(property["NSDestinationPropertyName"]) else {
                    throw fail("\(name).\(key) holds a property mapping with no destination property")
                }
                // No expression: the destination keeps its default, as Core Data leaves it.
                guard archive.resolve(property["NSValueExpression"]) != nil else { return PropertyMapping(name: propertyName, value: nil) }
                do {
                    return PropertyMapping(name: propertyName, value: try ArchivedExpressions.expression(property["NSValueExpression"], in: archive))
                } catch let problem as ArchivedExpressions.Problem {
                    throw fail("\(name).\(propertyName): the value expression cannot be read: \(problem.message)")
                }
            }
        }
        var userInfo: [String: String] = [:]
        for (key, value) in try archive.entries(object["NSUserInfo"]) {
            if let text = try? archive.string(value) { userInfo[key] = text }
        }
        return EntityMapping(name: name, kind: kind, source: source, destination: destination,
                             sourcePredicate: try sourcePredicate(object["NSSourceExpression"], archive: archive, mapping: name, fail: fail),
                             attributeMappings: try properties("NSAttributeMappings"),
                             relationshipMappings: try properties("NSRelationshipMappings"),
                             policyName: policy, userInfo: userInfo)
    }

    /// The predicate of an entity mapping's source fetch, `FETCH(FUNCTION($manager,
    /// "fetchRequestForSourceEntityNamed:predicateString:", "Car", "TRUEPREDICATE"), …)` as
    /// Xcode compiles it; `nil` when it takes every instance.
    private static func sourcePredicate(_ value: PropertyListValue?, archive: KeyedArchive, mapping: String,
                                        fail: (String) -> MigrationError) throws -> ObjectPredicate? {
        guard let fetch = try archive.object(value) else { return nil }
        guard fetch.isKind(of: "NSFetchRequestExpression"), let function = try archive.object(fetch["NSFRExpression"]),
              try archive.string(function["NSSelectorName"]) == "fetchRequestForSourceEntityNamed:predicateString:" else {
            throw fail("\(mapping): a source expression other than Xcode's fetch of the source entity (\(fetch.className))")
        }
        let arguments = try archive.elements(function["NSArguments"])
        guard arguments.count == 2, let argument = try archive.object(arguments[1]),
              let text = try archive.string(argument["NSConstantValue"]) else {
            throw fail("\(mapping): the source fetch has no predicate string")
        }
        let predicate: ObjectPredicate
        do { predicate = try ObjectPredicate(format: text) } catch {
            throw fail("\(mapping): the source fetch's predicate does not parse:\n\(error)")
        }
        return predicate == .true ? nil : predicate
    }
}
