import Foundation
import ObjectModel
import Predicates

extension MappingModel {
    /// Reads a mapping model made in Xcode's mapping editor: an `.xcmappingmodel` folder, or
    /// the `xcmapping.xml` inside it.
    ///
    /// The file is a Core Data XML store of Xcode's own objects: one mapping model (with the
    /// paths of its source and destination model versions), its entity mappings in the order
    /// the editor lists them, and their attribute and relationship mappings. A value
    /// expression written in the editor is an archived `NSExpression`, read here into the
    /// expression language (`$source.color`, a constant, `FUNCTION($manager, …)`). A property
    /// mapping with no expression of its own keeps Xcode's default — the source's property
    /// of the same name — which is what the migration infers, so it is left to inference. An
    /// entity mapping's policy class name (`App.PostPolicy`) is kept as the policy's name:
    /// register an `EntityMigrationPolicy` under it to run it, or the plan names it as missing.
    ///
    /// The file starts with a document type declaration naming Core Data's DTD by a path on
    /// Apple's systems; it is read as a name, and nothing is fetched or expanded.
    ///
    /// - Throws: `MigrationError.badMappingFile` naming the file, the line where it can, and
    ///   what is wrong.
    public static func readXcodeMapping(_ url: URL) throws -> MappingModel {
        let file = url.lastPathComponent == xcodeMappingFile ? url : url.appendingPathComponent(xcodeMappingFile)
        func fail(_ reason: String, line: Int? = nil) -> MigrationError {
            .badMappingFile(file: file.path + (line.map { ":\($0)" } ?? ""), reason: reason)
        }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw fail("cannot be read: \(error.localizedDescription)")
        }
        let tree: XMLTree
        do { tree = try XMLTree.parse(data, file: file.path, coreDataDocumentType: true) } catch let error as ModelError {
            guard case .malformedXML(let why) = error.kind else { throw fail("\(error)") }
            throw fail("not an Xcode mapping model: malformed XML: \(why)", line: error.line)
        }
        guard tree.name == "database" else { throw fail("not an Xcode mapping model (its root is <\(tree.name)>, not <database>)", line: tree.line) }
        let objects = try XcodeObjects(tree, file: file.path)
        let models = objects.all(ofType: "XDDEVMAPPINGMODEL")
        guard models.count == 1, let model = models.first else {
            throw fail("an Xcode mapping model holds one XDDEVMAPPINGMODEL object; this file has \(models.count)")
        }
        let sourcePath = model.attributes["sourcemodelpath"]?.text
        let destinationPath = model.attributes["destinationmodelpath"]?.text
        let entityMappings = try objects.related(model, "entitymappings", type: "XDDEVENTITYMAPPING")
            .sorted { ($0.attributes["mappingnumber"]?.text).flatMap(Int.init) ?? 0 < ($1.attributes["mappingnumber"]?.text).flatMap(Int.init) ?? 0 }
            .map { try entityMapping($0, objects: objects) }
        return MappingModel(entityMappings: entityMappings,
                            sourceVersion: sourcePath.map(versionName(inModelPath:)),
                            destinationVersion: destinationPath.map(versionName(inModelPath:)),
                            modelName: (destinationPath ?? sourcePath).flatMap(modelName(inModelPath:)))
    }

    /// The file inside an `.xcmappingmodel` folder.
    static let xcodeMappingFile = "xcmapping.xml"

    /// `…/Post.xcdatamodeld/Post 2.xcdatamodel` → `Post 2`.
    private static func versionName(inModelPath path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : last
    }

    /// `…/Post.xcdatamodeld/Post 2.xcdatamodel` → `Post`: the model the versions belong to.
    private static func modelName(inModelPath path: String) -> String? {
        path.split(separator: "/").last { $0.hasSuffix(".xcdatamodeld") }.map { String($0.dropLast(".xcdatamodeld".count)) }
    }

    /// The attributes an entity mapping may carry; another one (a custom source fetch this
    /// reader does not know, say) is refused rather than dropped.
    private static let entityMappingAttributes: Set<String> = [
        "sourcename", "destinationname", "mappingtypename", "mappingnumber", "migrationpolicyclassname",
        "autogenerateexpression",
    ]

    private static func entityMapping(_ object: XcodeObjects.Object, objects: XcodeObjects) throws -> EntityMapping {
        let fail = objects.fail
        if let unknown = object.attributes.keys.sorted().first(where: { !entityMappingAttributes.contains($0) }) {
            throw fail("entity mapping \(object.id): the attribute '\(unknown)' is not one this reader knows, and is not passed over", object.line)
        }
        let source = object.attributes["sourcename"]?.text.nilIfEmpty
        let destination = object.attributes["destinationname"]?.text.nilIfEmpty
        let policy = object.attributes["migrationpolicyclassname"]?.text.nilIfEmpty
        let name: String
        switch (source, destination) {
        case let (s?, d?): name = "\(s)To\(d)"
        case let (s?, nil): name = s
        case let (nil, d?): name = d
        case (nil, nil): throw fail("entity mapping \(object.id) names neither a source nor a destination entity", object.line)
        }
        let kind: EntityMapping.Kind
        if source == nil { kind = .add } else if destination == nil { kind = .remove } else if policy != nil { kind = .custom } else { kind = .transform }
        func properties(_ relationship: String, _ type: String) throws -> [PropertyMapping] {
            try objects.related(object, relationship, type: type).compactMap { property in
                guard let propertyName = property.attributes["name"]?.text.nilIfEmpty else {
                    throw fail("\(name): a property mapping (\(property.id)) has no name", property.line)
                }
                // No expression of its own: Xcode's default, the source property of the same name.
                guard let archived = property.attributes["valueexpressiondata"] else { return nil }
                guard let bytes = Data(base64Encoded: archived.text, options: .ignoreUnknownCharacters) else {
                    throw fail("\(name).\(propertyName): the value expression is not base64", archived.line)
                }
                do {
                    return PropertyMapping(name: propertyName, value: try ArchivedExpressions.expression(in: bytes))
                } catch let problem as ArchivedExpressions.Problem {
                    throw fail("\(name).\(propertyName): the value expression cannot be read: \(problem.message)", archived.line)
                }
            }
        }
        return EntityMapping(name: name, kind: kind, source: source, destination: destination,
                             attributeMappings: try properties("attributemappings", "XDDEVATTRIBUTEMAPPING"),
                             relationshipMappings: try properties("relationshipmappings", "XDDEVRELATIONSHIPMAPPING"),
                             policyName: policy)
    }
}

/// The objects of a Core Data XML store, as Xcode's mapping files hold them: each with its
/// type, its attributes (text and line) and its relationships (the ids they refer to).
struct XcodeObjects {
    struct Object {
        var id: String
        var type: String
        var line: Int
        var attributes: [String: (text: String, line: Int)] = [:]
        var relationships: [String: [String]] = [:]
    }

    private var byID: [String: Object] = [:]
    private var order: [String] = []

    /// The file's path, for messages.
    let file: String

    init(_ database: XMLTree, file: String) throws {
        self.file = file
        for element in database.children(named: "object") {
            guard let id = element.attributes["id"], let type = element.attributes["type"] else {
                throw fail("an <object> without an id or a type", element.line)
            }
            guard byID[id] == nil else { throw fail("two objects have the id \(id)", element.line) }
            var object = Object(id: id, type: type, line: element.line)
            for attribute in element.children(named: "attribute") {
                guard let name = attribute.attributes["name"] else { throw fail("an <attribute> without a name", attribute.line) }
                object.attributes[name] = (attribute.text.trimmingCharacters(in: .whitespacesAndNewlines), attribute.line)
            }
            for relationship in element.children(named: "relationship") {
                guard let name = relationship.attributes["name"] else { throw fail("a <relationship> without a name", relationship.line) }
                object.relationships[name] = (relationship.attributes["idrefs"] ?? "").split(separator: " ").map(String.init)
            }
            byID[id] = object
            order.append(id)
        }
    }

    /// The error for a problem at a line of the file.
    func fail(_ reason: String, _ line: Int?) -> MigrationError {
        .badMappingFile(file: file + (line.map { ":\($0)" } ?? ""), reason: reason)
    }

    func all(ofType type: String) -> [Object] {
        order.compactMap { byID[$0] }.filter { $0.type == type }
    }

    /// The objects a relationship of `object` refers to, each checked to be of `type`.
    func related(_ object: Object, _ relationship: String, type: String) throws -> [Object] {
        try (object.relationships[relationship] ?? []).map { id in
            guard let target = byID[id] else { throw fail("\(object.id).\(relationship) refers to \(id), which the file does not hold", object.line) }
            guard target.type == type else {
                throw fail("\(object.id).\(relationship) refers to \(id), a \(target.type) where a \(type) belongs", object.line)
            }
            return target
        }
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
