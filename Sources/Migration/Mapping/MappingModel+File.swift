import Foundation
import ObjectModel
import Predicates

extension MappingModel {
    static let formatName = "termdata-mapping"
    static let formatVersion = 1
    /// The extension of mapping files found beside their model.
    public static let fileExtension = "termdata-mapping"

    /// The mappings that go with a model, as Core Data finds a model's mapping models in
    /// its bundle: each `*.termdata-mapping` file in the folder that holds the model whose
    /// `"model"` names it (`ToDo` for `ToDo.xcdatamodeld` or `ToDo.momd`), each Xcode
    /// mapping model (`*.xcmappingmodel`) there whose versions are the model's, and — beside a
    /// compiled `.momd`, as Xcode puts them in an app — each compiled mapping (`*.cdm`) whose
    /// entity hashes are two of the model's versions', in file-name order. Every program that
    /// migrates the model's stores with these uses the same mappings, and so the same policies.
    ///
    /// - Throws: `MigrationError.badMappingFile` for such a file that cannot be read: a
    ///   mapping the model ships with is never passed over in silence.
    public static func bundled(with modelURL: URL) throws -> [MappingModel] {
        let modelName = modelURL.deletingPathExtension().lastPathComponent
        let folder = modelURL.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        // A .cdm names no model: it goes with a compiled model whose versions its hashes place.
        let compiled = modelURL.pathExtension == "momd" && names.contains { $0.hasSuffix(".cdm") }
            ? try? CompiledModelFile.read(modelURL) : nil
        return try names.filter { $0.hasSuffix(".\(fileExtension)") || $0.hasSuffix(".xcmappingmodel") || $0.hasSuffix(".cdm") }
            .sorted().compactMap { name in
                guard name.hasSuffix(".cdm") else {
                    let mapping = try read(folder.appendingPathComponent(name))
                    return mapping.modelName == modelName ? mapping : nil
                }
                guard let compiled else { return nil }
                // A broken one is refused by name; one whose hashes are another model's is not this model's.
                let mapping = try read(folder.appendingPathComponent(name))
                return try? mapping.placed(among: compiled)
            }
    }

    /// Reads a mapping file of any kind: TermData's own (format `termdata-mapping`, described
    /// in `docs/StoreFormats.md`), an Xcode mapping model (an `.xcmappingmodel` folder or its
    /// `xcmapping.xml`, see `readXcodeMapping(_:)`) or a compiled one (`.cdm`, see
    /// `readCompiledMapping(_:)`).
    ///
    /// - Throws: `MigrationError.badMappingFile` naming the file and what is wrong,
    ///   including the caret message of an expression that does not parse.
    public static func read(_ url: URL) throws -> MappingModel {
        func fail(_ reason: String) -> MigrationError { .badMappingFile(file: url.path, reason: reason) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(xcodeMappingFile).path) else {
                throw fail("a folder that is not an Xcode mapping model (it holds no \(xcodeMappingFile))")
            }
            return try readXcodeMapping(url)
        }
        if url.lastPathComponent == xcodeMappingFile { return try readXcodeMapping(url) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw fail("cannot be read: \(error.localizedDescription)") }
        if data.starts(with: Data("bplist".utf8)) { return try readCompiledMapping(url) }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch { throw fail("not JSON: \(error.localizedDescription)") }
        guard let root = json as? [String: Any], root["format"] as? String == formatName else {
            throw fail("not a mapping file (\"format\" must be \"\(formatName)\")")
        }
        guard let version = root["version"] as? Int, version <= formatVersion else {
            throw fail("format version \(root["version"] ?? "?") is newer than this TermData reads (\(formatVersion))")
        }
        guard let list = root["entityMappings"] as? [[String: Any]] else { throw fail("no \"entityMappings\" array") }
        var mappings: [EntityMapping] = []
        for (n, item) in list.enumerated() {
            guard let name = item["name"] as? String else { throw fail("entity mapping \(n) has no name") }
            let kindName = item["kind"] as? String ?? (item["policy"] != nil ? "custom" : "transform")
            guard let kind = EntityMapping.Kind(rawValue: kindName) else {
                throw fail("entity mapping \(name): unknown kind '\(kindName)' (\(EntityMapping.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            func expressions(_ key: String) throws -> [PropertyMapping] {
                guard let table = item[key] as? [String: Any] else { return [] }
                return try table.keys.sorted().map { property in
                    // null: no expression, the destination keeps its default.
                    if table[property] is NSNull { return PropertyMapping(name: property, value: nil) }
                    guard let text = table[property] as? String else {
                        throw fail("entity mapping \(name), \(key).\(property): the value must be an expression string or null")
                    }
                    do {
                        return PropertyMapping(name: property, value: try ObjectExpression(format: text))
                    } catch {
                        throw fail("entity mapping \(name), \(key).\(property):\n\(error)")
                    }
                }
            }
            var predicate: ObjectPredicate?
            if let text = item["sourcePredicate"] as? String {
                do { predicate = try ObjectPredicate(format: text) } catch {
                    throw fail("entity mapping \(name), sourcePredicate:\n\(error)")
                }
            }
            mappings.append(EntityMapping(
                name: name, kind: kind, source: item["source"] as? String, destination: item["destination"] as? String,
                sourcePredicate: predicate, attributeMappings: try expressions("attributes"),
                relationshipMappings: try expressions("relationships"), policyName: item["policy"] as? String,
                userInfo: item["userInfo"] as? [String: String] ?? [:]))
        }
        return MappingModel(entityMappings: mappings, sourceVersion: root["source"] as? String,
                            destinationVersion: root["destination"] as? String, modelName: root["model"] as? String)
    }

    /// Writes the mapping in the file format `read` takes.
    public func write(to url: URL) throws {
        var root: [String: Any] = ["format": Self.formatName, "version": Self.formatVersion]
        if let sourceVersion { root["source"] = sourceVersion }
        if let destinationVersion { root["destination"] = destinationVersion }
        if let modelName { root["model"] = modelName }
        root["entityMappings"] = entityMappings.map { m -> [String: Any] in
            var item: [String: Any] = ["name": m.name, "kind": m.kind.rawValue]
            if let s = m.sourceEntityName { item["source"] = s }
            if let d = m.destinationEntityName { item["destination"] = d }
            if let p = m.policyName { item["policy"] = p }
            if let p = m.sourcePredicate { item["sourcePredicate"] = p.predicateFormat }
            if !m.attributeMappings.isEmpty {
                item["attributes"] = Dictionary(uniqueKeysWithValues: m.attributeMappings.map { ($0.name, Self.expressionText($0.valueExpression)) })
            }
            if !m.relationshipMappings.isEmpty {
                item["relationships"] = Dictionary(uniqueKeysWithValues: m.relationshipMappings.map { ($0.name, Self.expressionText($0.valueExpression)) })
            }
            if !m.userInfo.isEmpty { item["userInfo"] = m.userInfo }
            return item
        }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: url, options: .atomic)
    }

    /// A property mapping's expression as the file holds it: its text, or null for none (the
    /// destination keeps its default), which is not the expression `nil` (the value nil).
    private static func expressionText(_ expression: ObjectExpression?) -> Any {
        expression.map { $0.description as Any } ?? NSNull()
    }
}
