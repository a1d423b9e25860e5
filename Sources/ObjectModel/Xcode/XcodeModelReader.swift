import Foundation
import Predicates

/// Turns the XML of a `contents` file into a checked model.
struct XcodeModelReader {
    let file: String
    /// Lines of entities ("Entity") and properties ("Entity.property"), to place errors
    /// found when the whole model is checked.
    private var lines: [String: Int] = [:]

    init(file: String) { self.file = file }

    func read(_ data: Data) throws -> ManagedObjectModel {
        var reader = self
        return try reader.readModel(data)
    }

    private mutating func readModel(_ data: Data) throws -> ManagedObjectModel {
        let root = try XMLTree.parse(data, file: file)
        guard root.name == "model" else {
            throw ModelError(.notAModel("the root element is <\(root.name)>, not <model>"), file: file, line: root.line)
        }
        var entities: [EntityDescription] = []
        for element in root.children(named: "entity") {
            entities.append(try readEntity(element))
        }
        var templates: [FetchRequestTemplate] = []
        for element in root.children(named: "fetchRequest") {
            templates.append(try readTemplate(element))
        }
        var configurations: [ModelConfiguration] = []
        for element in root.children(named: "configuration") {
            let name = try required(element, "name")
            configurations.append(ModelConfiguration(
                name: name,
                entityNames: element.children(named: "memberEntity").compactMap { $0.attributes["name"] }))
        }
        var modelAttributes = root.attributes
        let identifier = modelAttributes.removeValue(forKey: "userDefinedModelVersionIdentifier")
        modelAttributes.removeValue(forKey: ManagedObjectModel.inferredFromStoreKey)
        do {
            return try ManagedObjectModel(
                entities: entities,
                fetchRequestTemplates: templates,
                configurations: configurations,
                versionIdentifier: identifier,
                xcodeAttributes: modelAttributes)
        } catch let error as ModelError {
            let key = [error.entity, error.property].compactMap { $0 }.joined(separator: ".")
            throw error.located(file: file, line: lines[key] ?? error.entity.flatMap { lines[$0] })
        }
    }

    private mutating func readEntity(_ element: XMLTree) throws -> EntityDescription {
        let name = try required(element, "name")
        lines[name] = element.line
        var extras = element.attributes
        for known in ["name", "representedClassName", "parentEntity", "isAbstract", "elementID", "versionHashModifier"] {
            extras.removeValue(forKey: known)
        }
        var entity = EntityDescription(
            name: name,
            className: element.attributes["representedClassName"],
            isAbstract: element.attributes["isAbstract"] == "YES",
            parent: element.attributes["parentEntity"],
            renamingIdentifier: element.attributes["elementID"],
            versionHashModifier: element.attributes["versionHashModifier"],
            userInfo: userInfo(element),
            xcodeAttributes: extras)
        for child in element.children {
            switch child.name {
            case "attribute":
                let a = try readAttribute(child, entity: name)
                lines["\(name).\(a.name)"] = child.line
                entity.attributes.append(a)
            case "relationship":
                let r = try readRelationship(child, entity: name)
                lines["\(name).\(r.name)"] = child.line
                entity.relationships.append(r)
            case "fetchedProperty":
                let f = try readFetchedProperty(child, entity: name)
                lines["\(name).\(f.name)"] = child.line
                entity.fetchedProperties.append(f)
            case "uniquenessConstraints":
                entity.uniquenessConstraints = child.children(named: "uniquenessConstraint").map {
                    $0.children(named: "constraint").compactMap { $0.attributes["value"] }
                }
            case "fetchIndex":
                entity.fetchIndexes.append(try readFetchIndex(child, entity: name))
            case "compoundIndexes":
                entity.compoundIndexes = child.children(named: "compoundIndex").map {
                    $0.children(named: "index").compactMap { $0.attributes["value"] }
                }
            default:
                break
            }
        }
        return entity
    }

    /// `<fetchIndex name="…">` with its `<fetchIndexElement property="…" type="Binary" order="ascending"/>`
    /// (or `expression="…"` for an expression element).
    private func readFetchIndex(_ element: XMLTree, entity: String) throws -> FetchIndexDescription {
        let name = try required(element, "name", entity: entity)
        let elements = try element.children(named: "fetchIndexElement").map { child -> FetchIndexDescription.Element in
            var attributes = child.attributes
            let typeName = attributes.removeValue(forKey: "type") ?? "Binary"
            guard let kind = FetchIndexDescription.Element.Kind(rawValue: typeName) else {
                throw ModelError(.invalidXMLValue(attribute: "type", value: typeName), file: file, line: child.line, entity: entity)
            }
            let ascending = (attributes.removeValue(forKey: "order") ?? "ascending") != "descending"
            if let property = attributes.removeValue(forKey: "property") {
                return .init(property: property, kind: kind, ascending: ascending, xcodeAttributes: attributes)
            }
            guard let expression = attributes.removeValue(forKey: "expression") else {
                throw ModelError(.missingXMLAttribute(element: "fetchIndexElement", attribute: "property"),
                                 file: file, line: child.line, entity: entity)
            }
            return .init(expression: expression, kind: kind, ascending: ascending, xcodeAttributes: attributes)
        }
        var extras = element.attributes
        extras["name"] = nil
        return FetchIndexDescription(name: name, elements: elements, xcodeAttributes: extras)
    }

    private func readAttribute(_ element: XMLTree, entity: String) throws -> AttributeDescription {
        let name = try required(element, "name", entity: entity)
        func fail(_ kind: ModelError.Kind) -> ModelError {
            ModelError(kind, file: file, line: element.line, entity: entity, property: name)
        }
        let typeName = element.attributes["attributeType"] ?? "Undefined"
        guard let type = AttributeType(xcodeName: typeName) else { throw fail(.unknownAttributeType(typeName)) }
        let a = element.attributes

        func value(_ key: String, lengths: Bool = false) throws -> ObjectValue? {
            guard let text = a[key] else { return nil }
            if type == .date && key.hasSuffix("DateTimeInterval") {
                guard let seconds = Double(text) else { throw fail(.invalidValue(attribute: key, value: text, type: type)) }
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            }
            let valueType: AttributeType = lengths ? .integer64 : type
            guard let v = valueType.parseValue(text) else { throw fail(.invalidValue(attribute: key, value: text, type: valueType)) }
            return v
        }
        let lengths = type == .string || type == .binary
        var extras = a
        let known = ["name", "attributeType", "optional", "transient", "indexed", "defaultValueString",
                     "defaultDateTimeInterval", "minValueString", "maxValueString", "minDateTimeInterval",
                     "maxDateTimeInterval", "regularExpressionString", "valueTransformerName", "customClassName",
                     "allowsExternalBinaryDataStorage", "elementID", "versionHashModifier"]
        for k in known { extras.removeValue(forKey: k) }
        let defaultValue = try (type == .date ? value("defaultDateTimeInterval") : value("defaultValueString")) ?? .null
        if let pattern = a["regularExpressionString"], (try? NSRegularExpression(pattern: pattern)) == nil {
            throw fail(.invalidXMLValue(attribute: "regularExpressionString", value: pattern))
        }
        // A derived attribute's expression must parse: a mistake is reported at its line.
        if a["derived"] == "YES", let expression = a["derivationExpression"] {
            do { _ = try ObjectExpression(format: expression) } catch let error as PredicateSyntaxError {
                throw fail(.invalidPredicate(expression, reason: error.message))
            }
        }
        return AttributeDescription(
            name: name,
            type: type,
            isOptional: a["optional"] == "YES",
            isTransient: a["transient"] == "YES",
            isIndexed: a["indexed"] == "YES",
            defaultValue: defaultValue,
            minimum: try type == .date ? value("minDateTimeInterval") : value("minValueString", lengths: lengths),
            maximum: try type == .date ? value("maxDateTimeInterval") : value("maxValueString", lengths: lengths),
            regularExpression: a["regularExpressionString"],
            valueTransformerName: a["valueTransformerName"],
            customClassName: a["customClassName"],
            allowsExternalBinaryDataStorage: a["allowsExternalBinaryDataStorage"] == "YES",
            renamingIdentifier: a["elementID"],
            versionHashModifier: a["versionHashModifier"],
            userInfo: userInfo(element),
            xcodeAttributes: extras)
    }

    private func readRelationship(_ element: XMLTree, entity: String) throws -> RelationshipDescription {
        let name = try required(element, "name", entity: entity)
        let a = element.attributes
        guard let destination = a["destinationEntity"] else {
            throw ModelError(.missingXMLAttribute(element: "relationship", attribute: "destinationEntity"),
                             file: file, line: element.line, entity: entity, property: name)
        }
        let ruleName = a["deletionRule"] ?? "Nullify"
        guard let rule = DeleteRule(xcodeName: ruleName) else {
            throw ModelError(.unknownDeleteRule(ruleName), file: file, line: element.line, entity: entity, property: name)
        }
        func count(_ key: String) throws -> Int? {
            guard let text = a[key] else { return nil }
            guard let n = Int(text), n >= 0 else {
                throw ModelError(.invalidXMLValue(attribute: key, value: text), file: file, line: element.line,
                                 entity: entity, property: name)
            }
            return n
        }
        let toMany = a["toMany"] == "YES"
        var extras = a
        for k in ["name", "destinationEntity", "inverseName", "inverseEntity", "toMany", "ordered", "optional",
                  "transient", "minCount", "maxCount", "deletionRule", "elementID", "versionHashModifier"] {
            extras.removeValue(forKey: k)
        }
        return RelationshipDescription(
            name: name,
            destination: destination,
            inverse: a["inverseName"],
            isToMany: toMany,
            isOrdered: a["ordered"] == "YES",
            isOptional: a["optional"] == "YES",
            isTransient: a["transient"] == "YES",
            minCount: try count("minCount") ?? 0,
            maxCount: try count("maxCount") ?? (toMany ? 0 : 1),
            deleteRule: rule,
            renamingIdentifier: a["elementID"],
            versionHashModifier: a["versionHashModifier"],
            userInfo: userInfo(element),
            xcodeAttributes: extras)
    }

    private func readFetchedProperty(_ element: XMLTree, entity: String) throws -> FetchedPropertyDescription {
        let name = try required(element, "name", entity: entity)
        guard let request = element.child(named: "fetchRequest") else {
            throw ModelError(.missingXMLAttribute(element: "fetchedProperty", attribute: "fetchRequest"),
                             file: file, line: element.line, entity: entity, property: name)
        }
        let target = try required(request, "entity", entity: entity)
        try checkPredicate(request.attributes["predicateString"], at: request, entity: entity, property: name)
        var extras = element.attributes
        extras.removeValue(forKey: "name")
        extras.removeValue(forKey: "optional")
        return FetchedPropertyDescription(
            name: name,
            entityName: target,
            predicateFormat: request.attributes["predicateString"],
            isOptional: element.attributes["optional"] == "YES",
            userInfo: userInfo(element),
            xcodeAttributes: extras)
    }

    /// A predicate kept as text must still parse: a mistake is reported at its line, not
    /// when something first fetches with it.
    private func checkPredicate(_ format: String?, at element: XMLTree, entity: String? = nil, property: String) throws {
        guard let format, !format.isEmpty else { return }
        do {
            _ = try ObjectPredicate(format: format)
        } catch let error as PredicateSyntaxError {
            throw ModelError(.invalidPredicate(format, reason: error.message), file: file, line: element.line,
                             entity: entity, property: property)
        }
    }

    private func readTemplate(_ element: XMLTree) throws -> FetchRequestTemplate {
        let a = element.attributes
        let name = try required(element, "name")
        try checkPredicate(a["predicateString"], at: element, property: name)
        func int(_ key: String) throws -> Int {
            guard let text = a[key] else { return 0 }
            guard let n = Int(text), n >= 0 else {
                throw ModelError(.invalidXMLValue(attribute: key, value: text), file: file, line: element.line, property: name)
            }
            return n
        }
        func flag(_ key: String, _ otherSpelling: String? = nil, default value: Bool) -> Bool {
            guard let text = a[key] ?? otherSpelling.flatMap({ a[$0] }) else { return value }
            return text == "YES"
        }
        return FetchRequestTemplate(
            name: name,
            entityName: try required(element, "entity"),
            predicateFormat: a["predicateString"],
            fetchLimit: try int("fetchLimit"),
            fetchBatchSize: try int("fetchBatchSize"),
            includesSubentities: flag("includeSubentities", "includesSubentities", default: true),
            includesPropertyValues: flag("includePropertyValues", "includesPropertyValues", default: true),
            includesPendingChanges: flag("includesPendingChanges", "includePendingChanges", default: true),
            returnsObjectsAsFaults: flag("returnObjectsAsFaults", "returnsObjectsAsFaults", default: true),
            returnsDistinctResults: flag("returnDistinctResults", "returnsDistinctResults", default: false))
    }

    private func userInfo(_ element: XMLTree) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.child(named: "userInfo")?.children(named: "entry") ?? [] {
            if let key = entry.attributes["key"] { info[key] = entry.attributes["value"] ?? "" }
        }
        return info
    }

    private func required(_ element: XMLTree, _ attribute: String, entity: String? = nil) throws -> String {
        guard let value = element.attributes[attribute], !value.isEmpty else {
            throw ModelError(.missingXMLAttribute(element: element.name, attribute: attribute),
                             file: file, line: element.line, entity: entity)
        }
        return value
    }
}
