import Foundation

extension ManagedObjectModel {
    /// Each entity's version hash: 32 bytes that change exactly when a store written with
    /// the entity can no longer be read as it is.
    ///
    /// A store records these hashes; opening it finds the model version whose hashes match.
    /// `docs/StoreFormats.md` gives the inputs. They differ from Apple's, whose algorithm
    /// is not published.
    ///
    /// ```swift
    /// model.entityVersionHashes["ToDo"]   // 32 bytes
    /// ```
    public var entityVersionHashes: [String: Data] {
        var hashes: [String: Data] = [:]
        for entity in entities { hashes[entity.name] = versionHash(of: entity) }
        return hashes
    }

    /// One entity's version hash.
    public func versionHash(of entity: Entity) -> Data {
        var input = VersionHashInput()
        input.add("entity", entity.name)
        input.add("parent", entity.parentName ?? "")
        input.add("abstract", entity.isAbstract ? "1" : "0")
        input.add("modifier", entity.declaration.versionHashModifier ?? "")
        for a in entity.attributes.sorted(by: { $0.name < $1.name }) {
            input.add("attribute", VersionHashInput.hex(Self.versionHash(of: a)))
        }
        for r in entity.relationships.sorted(by: { $0.name < $1.name }) {
            input.add("relationship", VersionHashInput.hex(Self.versionHash(of: r)))
        }
        for group in entity.declaration.uniquenessConstraints {
            input.add("unique", group.joined(separator: ","))
        }
        return SHA256.hash(input.bytes)
    }

    /// An attribute's version hash: name, type, optional, transient and modifier.
    public static func versionHash(of a: AttributeDescription) -> Data {
        var input = VersionHashInput()
        input.add("name", a.name)
        input.add("type", a.type.xcodeName)
        input.add("optional", a.isOptional ? "1" : "0")
        input.add("transient", a.isTransient ? "1" : "0")
        input.add("modifier", a.versionHashModifier ?? "")
        return SHA256.hash(input.bytes)
    }

    /// A relationship's version hash: name, destination, inverse, cardinality, order,
    /// optional, transient and modifier.
    public static func versionHash(of r: RelationshipDescription) -> Data {
        var input = VersionHashInput()
        input.add("name", r.name)
        input.add("destination", r.destinationEntityName)
        input.add("inverse", r.inverseName ?? "")
        input.add("toMany", r.isToMany ? "1" : "0")
        input.add("ordered", r.isOrdered ? "1" : "0")
        input.add("minCount", String(r.minCount))
        input.add("maxCount", String(r.maxCount))
        input.add("optional", r.isOptional ? "1" : "0")
        input.add("transient", r.isTransient ? "1" : "0")
        input.add("modifier", r.versionHashModifier ?? "")
        return SHA256.hash(input.bytes)
    }

    /// Whether a store recorded with these hashes can be read with this model as it is:
    /// the same entities with the same hashes.
    public func isCompatible(withVersionHashes hashes: [String: Data]) -> Bool {
        entityVersionHashes == hashes
    }

    /// The entities whose hashes differ from a store's, or that only one side has.
    public func entitiesDiffering(fromVersionHashes hashes: [String: Data]) -> [String] {
        let mine = entityVersionHashes
        return Set(mine.keys).union(hashes.keys).filter { mine[$0] != hashes[$0] }.sorted()
    }
}

/// Length-prefixed fields, so that no two different inputs encode alike.
private struct VersionHashInput {
    var bytes: [UInt8] = Array("termdata-version-hash-1;".utf8)

    mutating func add(_ key: String, _ value: String) {
        for field in [key, value] {
            let utf8 = Array(field.utf8)
            bytes += Array(String(utf8.count).utf8) + [0x3A] + utf8
        }
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
