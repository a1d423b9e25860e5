import Foundation
import ObjectModel
import Predicates

/// A store in one binary property-list file, read whole on open and written whole, atomically,
/// at each save. The format is in `docs/StoreFormats.md`.
public final class BinaryStore: AtomicStore {
    static let formatName = "termdata-binary-store"
    static let formatVersion = 1

    public init(model: ManagedObjectModel, url: URL, configurationName: String? = nil,
                options: StoreOptions = StoreOptions()) throws {
        try super.init(type: .binary, model: model, url: url, configurationName: configurationName, options: options)
    }

    public override func readContents(at url: URL) throws -> AtomicStoreContents {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ObjectGraphError.storeFormat(file: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        return try Self.decode(data, model: model, file: url.path)
    }

    static func decode(_ data: Data, model: ManagedObjectModel, file: String) throws -> AtomicStoreContents {
        func fail(_ reason: String) -> ObjectGraphError { .storeFormat(file: file, reason: reason) }
        guard let root = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw fail("not a property list")
        }
        guard root["format"] as? String == Self.formatName else { throw fail("not a TermData binary store") }
        guard let version = (root["version"] as? NSNumber)?.intValue, version <= Self.formatVersion else {
            throw fail("written by a newer TermData (format version \(root["version"] ?? "?"))")
        }
        guard let uuid = root["uuid"] as? String else { throw fail("no store UUID") }
        var metadata = StoreMetadata(storeType: .binary, uuid: uuid)
        metadata.versionHashes = root["versionHashes"] as? [String: Data] ?? [:]
        metadata.versionIdentifiers = root["versionIdentifiers"] as? [String] ?? []
        metadata.userInfo = root["userInfo"] as? [String: String] ?? [:]
        var rows: [StoredRow] = []
        for (n, item) in (root["objects"] as? [[String: Any]] ?? []).enumerated() {
            guard let entityName = item["e"] as? String, let entity = model.entity(named: entityName),
                  let key = (item["k"] as? NSNumber)?.int64Value else {
                throw fail("object \(n) has no known entity or key")
            }
            var row = StoredRow(objectID: ManagedObjectID(entityName: entityName, storeIdentifier: uuid, reference: .permanent(key)),
                                version: (item["v"] as? NSNumber)?.int64Value ?? 1)
            for (name, value) in item["a"] as? [String: Any] ?? [:] {
                guard let attribute = entity.attribute(named: name),
                      let decoded = StoredValueCoding.value(fromPlist: value, type: attribute.type) else {
                    throw fail("\(entityName) \(key): attribute '\(name)' is unknown or holds a value of the wrong type")
                }
                row.attributes[name] = decoded
            }
            for (name, reference) in item["o"] as? [String: String] ?? [:] {
                row.toOne[name] = StoredValueCoding.objectID(fromReference: Substring(reference), store: uuid)
            }
            for (name, references) in item["m"] as? [String: [String]] ?? [:] {
                row.toMany[name] = references.compactMap { StoredValueCoding.objectID(fromReference: Substring($0), store: uuid) }
            }
            rows.append(row)
        }
        return AtomicStoreContents(metadata: metadata, rows: rows,
                                   nextPrimaryKey: (root["nextPrimaryKey"] as? NSNumber)?.int64Value ?? 1)
    }

    public override func encode(_ contents: AtomicStoreContents) throws -> Data {
        let objects: [[String: Any]] = contents.rows.map { row in
            var item: [String: Any] = ["e": row.objectID.entityName, "k": row.objectID.primaryKey ?? 0, "v": row.version]
            item["a"] = row.attributes.compactMapValues(StoredValueCoding.plist(of:))
            item["o"] = row.toOne.mapValues(StoredValueCoding.reference)
            item["m"] = row.toMany.mapValues { $0.map(StoredValueCoding.reference) }
            return item
        }
        let root: [String: Any] = [
            "format": Self.formatName,
            "version": Self.formatVersion,
            "uuid": contents.metadata.uuid,
            "storeType": contents.metadata.storeType.rawValue,
            "nextPrimaryKey": contents.nextPrimaryKey,
            "versionHashes": contents.metadata.versionHashes,
            "versionIdentifiers": contents.metadata.versionIdentifiers,
            "userInfo": contents.metadata.userInfo,
            "objects": objects,
        ]
        return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    }
}
