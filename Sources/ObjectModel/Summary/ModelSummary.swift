import Foundation
import Predicates

/// A readable account of a model: entities with inheritance, attributes with types and
/// constraints, relationships with cardinality, inverse and delete rule.
///
/// ```swift
/// print(ModelSummary(versions).text)
/// let json = try ModelSummary(versions).json()
/// ```
public struct ModelSummary {
    /// The versions summarised: the text lists them all, and describes the current one's entities.
    public let versions: ModelVersions

    /// A summary of these versions.
    public init(_ versions: ModelVersions) { self.versions = versions }

    private var model: ManagedObjectModel { versions.current }

    /// The summary as aligned plain text.
    public var text: String {
        var lines: [String] = []
        let names = versions.versions.map(\.name)
        if names.count > 1 {
            lines.append("Versions: \(names.joined(separator: ", ")) (current: \(versions.currentVersionName))")
        } else {
            lines.append("Model: \(versions.currentVersionName)")
        }
        lines.append("\(model.entities.count) entities")
        for entity in model.entities {
            lines.append("")
            lines.append(contentsOf: Self.lines(for: entity))
        }
        if !model.fetchRequestTemplates.isEmpty {
            lines.append("")
            lines.append("Fetch request templates")
            lines.append(contentsOf: model.fetchRequestTemplates.map { "  " + Self.line(for: $0) })
        }
        if !model.configurations.isEmpty {
            lines.append("")
            lines.append("Configurations")
            for c in model.configurations {
                lines.append("  \(c.name): " + (c.entityNames.isEmpty ? "(no entities)" : c.entityNames.joined(separator: ", ")))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An entity's heading (its parent, abstract, sub-entities), then a line for each
    /// attribute, relationship and fetched property (name, type, options; inherited ones
    /// say so), its uniqueness constraints and its compound indexes.
    public static func lines(for entity: Entity) -> [String] {
        var lines: [String] = []
        var head = entity.name
        if let parent = entity.parentName { head += " : \(parent)" }
        var notes: [String] = []
        if entity.isAbstract { notes.append("abstract") }
        if !entity.subentityNames.isEmpty { notes.append("sub-entities: \(entity.subentityNames.joined(separator: ", "))") }
        if !notes.isEmpty { head += "  (\(notes.joined(separator: "; ")))" }
        lines.append(head)
        let own = Set(entity.declaration.declaredPropertyNames)
        let width = max(12, (entity.attributes.map(\.name) + entity.relationships.map(\.name)).map(\.count).max() ?? 0)
        for a in entity.attributes {
            let inherited = own.contains(a.name) ? "" : "  (inherited)"
            lines.append("  " + pad(a.name, width) + "  " + pad(a.type.xcodeName, 14) + attributeNotes(a).joined(separator: ", ") + inherited)
        }
        for r in entity.relationships {
            let inherited = own.contains(r.name) ? "" : "  (inherited)"
            lines.append("  " + pad(r.name, width) + "  " + relationshipText(r) + inherited)
        }
        for f in entity.fetchedProperties {
            lines.append("  " + pad(f.name, width) + "  fetched \(f.entityName)" + (f.predicateFormat.map { " where \($0)" } ?? ""))
        }
        for u in entity.declaration.uniquenessConstraints {
            lines.append("  unique (\(u.joined(separator: ", ")))")
        }
        for i in entity.declaration.compoundIndexes {
            lines.append("  index (\(i.joined(separator: ", ")))")
        }
        for i in entity.declaration.fetchIndexes {
            lines.append("  fetch index \(i.name) (\(i.elements.map(Self.text).joined(separator: ", ")))")
        }
        return lines
    }

    /// A fetch index's element as text: `maker`, `date descending`, `location (R-tree)`.
    static func text(_ element: FetchIndexDescription.Element) -> String {
        (element.property ?? element.expression ?? "?") + (element.ascending ? "" : " descending")
            + (element.kind == .rTree ? " (R-tree)" : "")
    }

    /// A fetch request template: its name, entity and predicate.
    public static func line(for template: FetchRequestTemplate) -> String {
        "\(template.name): \(template.entityName)" + (template.predicateFormat.map { " where \($0)" } ?? "")
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    private static func attributeNotes(_ a: AttributeDescription) -> [String] {
        var notes: [String] = [a.isOptional ? "optional" : "required"]
        if a.isTransient { notes.append("transient") }
        if a.isIndexed { notes.append("indexed") }
        if a.defaultValue != .null { notes.append("default \(render(a.defaultValue, a.type))") }
        let unit = a.constraintsAreLengths ? " length" : ""
        if let m = a.minimum { notes.append("min\(unit) \(render(m, a.type))") }
        if let m = a.maximum { notes.append("max\(unit) \(render(m, a.type))") }
        if let r = a.regularExpression { notes.append("matches /\(r)/") }
        if let expression = a.derivationExpression { notes.append("derived \(expression)") }
        if a.type == .transformable {
            if let name = a.valueTransformerName, !name.isEmpty { notes.append("transformer \(name)") }
            if let className = a.customClassName { notes.append("class \(className)") }
        }
        return notes
    }

    private static func relationshipText(_ r: RelationshipDescription) -> String {
        var parts = [(r.isToMany ? (r.isOrdered ? "to-many ordered " : "to-many ") : "to-one ") + r.destinationEntityName]
        parts.append(r.inverseName.map { "inverse \($0)" } ?? "no inverse")
        parts.append(r.deleteRule.xcodeName)
        parts.append(r.isOptional ? "optional" : "required")
        if r.isTransient { parts.append("transient") }
        if r.isToMany && (r.minCount > 0 || r.maxCount > 0) {
            parts.append("count \(r.minCount)...\(r.maxCount == 0 ? "" : String(r.maxCount))")
        }
        return parts.joined(separator: ", ")
    }

    private static func render(_ v: ObjectValue, _ type: AttributeType) -> String {
        switch v {
        case .date(let d): return ISO8601DateFormatter().string(from: d)
        case .string(let s): return "\"\(s)\""
        default: return (type == .string || type == .binary ? AttributeType.integer64 : type).formatValue(v) ?? "\(v)"
        }
    }

    /// The summary as JSON, each entity under its name.
    public func json() throws -> String {
        var entities: [String: Any] = [:]
        for entity in model.entities {
            var attributes: [String: Any] = [:]
            for a in entity.attributes {
                var d: [String: Any] = ["type": a.type.xcodeName, "optional": a.isOptional, "transient": a.isTransient,
                                        "indexed": a.isIndexed]
                if a.defaultValue != .null { d["default"] = jsonValue(a.defaultValue, a.type) }
                if let m = a.minimum { d[a.constraintsAreLengths ? "minLength" : "min"] = jsonValue(m, a.type) }
                if let m = a.maximum { d[a.constraintsAreLengths ? "maxLength" : "max"] = jsonValue(m, a.type) }
                if let r = a.regularExpression { d["regularExpression"] = r }
                if let n = a.renamingIdentifier { d["renamingIdentifier"] = n }
                if let expression = a.derivationExpression { d["derivationExpression"] = expression }
                if let name = a.valueTransformerName, !name.isEmpty { d["valueTransformerName"] = name }
                if let className = a.customClassName { d["customClassName"] = className }
                attributes[a.name] = d
            }
            var relationships: [String: Any] = [:]
            for r in entity.relationships {
                var d: [String: Any] = ["destination": r.destinationEntityName, "toMany": r.isToMany,
                                        "ordered": r.isOrdered, "optional": r.isOptional, "transient": r.isTransient,
                                        "deleteRule": r.deleteRule.xcodeName, "minCount": r.minCount, "maxCount": r.maxCount]
                d["inverse"] = r.inverseName ?? NSNull()
                relationships[r.name] = d
            }
            var e: [String: Any] = ["abstract": entity.isAbstract, "attributes": attributes,
                                    "relationships": relationships, "subentities": entity.subentityNames,
                                    "versionHash": model.versionHash(of: entity).base64EncodedString()]
            e["parent"] = entity.parentName ?? NSNull()
            if let c = entity.declaration.className { e["className"] = c }
            if !entity.fetchedProperties.isEmpty {
                e["fetchedProperties"] = Dictionary(uniqueKeysWithValues: entity.fetchedProperties.map {
                    ($0.name, ["entity": $0.entityName, "predicate": $0.predicateFormat ?? ""] as [String: Any])
                })
            }
            if !entity.declaration.uniquenessConstraints.isEmpty { e["uniquenessConstraints"] = entity.declaration.uniquenessConstraints }
            if !entity.declaration.compoundIndexes.isEmpty { e["compoundIndexes"] = entity.declaration.compoundIndexes }
            if !entity.declaration.fetchIndexes.isEmpty {
                e["fetchIndexes"] = Dictionary(entity.declaration.fetchIndexes.map { ($0.name, $0.elements.map(Self.text)) }, uniquingKeysWith: { first, _ in first })
            }
            entities[entity.name] = e
        }
        let root: [String: Any] = [
            "versions": versions.versions.map(\.name),
            "currentVersion": versions.currentVersionName,
            "entities": entities,
            "fetchRequestTemplates": Dictionary(uniqueKeysWithValues: model.fetchRequestTemplates.map {
                ($0.name, ["entity": $0.entityName, "predicate": $0.predicateFormat ?? ""])
            }),
            "configurations": Dictionary(uniqueKeysWithValues: model.configurations.map { ($0.name, $0.entityNames) }),
        ]
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private func jsonValue(_ v: ObjectValue, _ type: AttributeType) -> Any {
        switch v {
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        case .string(let s): return s
        case .date(let d): return ISO8601DateFormatter().string(from: d)
        default: return type.formatValue(v) ?? "\(v)"
        }
    }
}
