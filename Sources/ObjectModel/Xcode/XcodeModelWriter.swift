import Foundation
import Predicates

/// Writes a model as the XML of a `contents` file, in Xcode's element and attribute order.
struct XcodeModelWriter {
    private var out = ""

    func write(_ model: ManagedObjectModel) -> String {
        var writer = self
        writer.writeModel(model)
        return writer.out
    }

    private mutating func writeModel(_ model: ManagedObjectModel) {
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        var attributes: [(String, String?)] = []
        if let id = model.versionIdentifier { attributes.append(("userDefinedModelVersionIdentifier", id)) }
        attributes += [("type", model.xcodeAttributes["type"] ?? "com.apple.IDECoreDataModeler.DataModel"),
                       ("documentVersion", model.xcodeAttributes["documentVersion"] ?? "1.0")]
        attributes += extras(model.xcodeAttributes, except: ["type", "documentVersion", ManagedObjectModel.inferredFromStoreKey])
        open("model", attributes, indent: 0)
        for entity in model.entityDescriptions { writeEntity(entity) }
        for t in model.fetchRequestTemplates {
            element("fetchRequest", [
                ("name", t.name), ("entity", t.entityName), ("predicateString", t.predicateFormat),
                ("fetchLimit", t.fetchLimit > 0 ? String(t.fetchLimit) : nil),
                ("fetchBatchSize", t.fetchBatchSize > 0 ? String(t.fetchBatchSize) : nil),
                ("includeSubentities", yes(t.includesSubentities)),
                ("includePropertyValues", yes(t.includesPropertyValues)),
                ("includesPendingChanges", yes(t.includesPendingChanges)),
                ("returnObjectsAsFaults", yes(t.returnsObjectsAsFaults)),
                ("returnDistinctResults", yes(t.returnsDistinctResults)),
            ], indent: 1)
        }
        for c in model.configurations {
            if c.entityNames.isEmpty {
                element("configuration", [("name", c.name)], indent: 1)
            } else {
                open("configuration", [("name", c.name)], indent: 1)
                for name in c.entityNames { element("memberEntity", [("name", name)], indent: 2) }
                close("configuration", indent: 1)
            }
        }
        close("model", indent: 0)
    }

    private mutating func writeEntity(_ e: EntityDescription) {
        var attributes: [(String, String?)] = [
            ("name", e.name), ("representedClassName", e.className), ("parentEntity", e.parentName),
            ("isAbstract", yes(e.isAbstract)), ("elementID", e.renamingIdentifier),
            ("versionHashModifier", e.versionHashModifier),
        ]
        attributes += extras(e.xcodeAttributes)
        let empty = e.attributes.isEmpty && e.relationships.isEmpty && e.fetchedProperties.isEmpty
            && e.fetchIndexes.isEmpty && e.uniquenessConstraints.isEmpty && e.compoundIndexes.isEmpty && e.userInfo.isEmpty
        if empty { element("entity", attributes, indent: 1); return }
        open("entity", attributes, indent: 1)
        for a in e.attributes { writeAttribute(a) }
        for r in e.relationships { writeRelationship(r) }
        for f in e.fetchedProperties {
            open("fetchedProperty", [("name", f.name), ("optional", yes(f.isOptional))] + extras(f.xcodeAttributes), indent: 2)
            element("fetchRequest", [("name", "fetchedPropertyFetchRequest"), ("entity", f.entityName),
                                     ("predicateString", f.predicateFormat)], indent: 3)
            writeUserInfo(f.userInfo, indent: 3)
            close("fetchedProperty", indent: 2)
        }
        for index in e.fetchIndexes {
            open("fetchIndex", [("name", index.name)] + extras(index.xcodeAttributes), indent: 2)
            for part in index.elements {
                element("fetchIndexElement", [("property", part.property), ("expression", part.expression)]
                            + extras(part.xcodeAttributes)
                            + [("type", part.kind.rawValue), ("order", part.ascending ? "ascending" : "descending")], indent: 3)
            }
            close("fetchIndex", indent: 2)
        }
        writeGroups("compoundIndexes", "compoundIndex", "index", e.compoundIndexes)
        writeGroups("uniquenessConstraints", "uniquenessConstraint", "constraint", e.uniquenessConstraints)
        writeUserInfo(e.userInfo, indent: 2)
        close("entity", indent: 1)
    }

    private mutating func writeAttribute(_ a: AttributeDescription) {
        let isDate = a.type == .date
        let lengthType: AttributeType = a.constraintsAreLengths ? .integer64 : a.type
        func text(_ v: ObjectValue?) -> String? {
            guard let v, v != .null else { return nil }
            return lengthType.formatValue(v)
        }
        let attributes: [(String, String?)] = [
            ("name", a.name), ("optional", yes(a.isOptional)), ("transient", yes(a.isTransient)),
            ("attributeType", a.type.xcodeName),
            // Where Xcode writes a derived attribute's expression: after the type.
            ("derived", a.xcodeAttributes["derived"]), ("derivationExpression", a.xcodeAttributes["derivationExpression"]),
            ("minValueString", isDate ? nil : text(a.minimum)),
            ("maxValueString", isDate ? nil : text(a.maximum)),
            ("minDateTimeInterval", isDate ? text(a.minimum) : nil),
            ("maxDateTimeInterval", isDate ? text(a.maximum) : nil),
            ("defaultValueString", isDate ? nil : (a.defaultValue == .null ? nil : a.type.formatValue(a.defaultValue))),
            ("defaultDateTimeInterval", isDate ? text(a.defaultValue) : nil),
            ("regularExpressionString", a.regularExpression),
            ("valueTransformerName", a.valueTransformerName),
            ("customClassName", a.customClassName),
            ("allowsExternalBinaryDataStorage", yes(a.allowsExternalBinaryDataStorage)),
            ("indexed", yes(a.isIndexed)),
            ("versionHashModifier", a.versionHashModifier), ("elementID", a.renamingIdentifier),
        ] + extras(a.xcodeAttributes, except: ["derived", "derivationExpression"])
        if a.userInfo.isEmpty { element("attribute", attributes, indent: 2); return }
        open("attribute", attributes, indent: 2)
        writeUserInfo(a.userInfo, indent: 3)
        close("attribute", indent: 2)
    }

    private mutating func writeRelationship(_ r: RelationshipDescription) {
        let attributes: [(String, String?)] = [
            ("name", r.name), ("optional", yes(r.isOptional)), ("transient", yes(r.isTransient)),
            ("toMany", yes(r.isToMany)),
            ("minCount", r.minCount > 0 ? String(r.minCount) : nil),
            ("maxCount", r.maxCount > 0 ? String(r.maxCount) : nil),
            ("deletionRule", r.deleteRule.xcodeName), ("ordered", yes(r.isOrdered)),
            ("destinationEntity", r.destinationEntityName), ("inverseName", r.inverseName),
            ("inverseEntity", r.inverseName == nil ? nil : r.destinationEntityName),
            ("versionHashModifier", r.versionHashModifier), ("elementID", r.renamingIdentifier),
        ] + extras(r.xcodeAttributes)
        if r.userInfo.isEmpty { element("relationship", attributes, indent: 2); return }
        open("relationship", attributes, indent: 2)
        writeUserInfo(r.userInfo, indent: 3)
        close("relationship", indent: 2)
    }

    private mutating func writeGroups(_ outer: String, _ middle: String, _ inner: String, _ groups: [[String]]) {
        guard !groups.isEmpty else { return }
        open(outer, [], indent: 2)
        for g in groups {
            open(middle, [], indent: 3)
            for name in g { element(inner, [("value", name)], indent: 4) }
            close(middle, indent: 3)
        }
        close(outer, indent: 2)
    }

    private mutating func writeUserInfo(_ info: [String: String], indent: Int) {
        guard !info.isEmpty else { return }
        open("userInfo", [], indent: indent)
        for key in info.keys.sorted() { element("entry", [("key", key), ("value", info[key])], indent: indent + 1) }
        close("userInfo", indent: indent)
    }

    private func yes(_ flag: Bool) -> String? { flag ? "YES" : nil }

    private func extras(_ attributes: [String: String], except: Set<String> = []) -> [(String, String?)] {
        attributes.keys.sorted().filter { !except.contains($0) }.map { ($0, attributes[$0]) }
    }

    private mutating func open(_ name: String, _ attributes: [(String, String?)], indent: Int) {
        out += String(repeating: "    ", count: indent) + "<" + name + render(attributes) + ">\n"
    }

    private mutating func element(_ name: String, _ attributes: [(String, String?)], indent: Int) {
        out += String(repeating: "    ", count: indent) + "<" + name + render(attributes) + "/>\n"
    }

    private mutating func close(_ name: String, indent: Int) {
        out += String(repeating: "    ", count: indent) + "</" + name + ">\n"
    }

    private func render(_ attributes: [(String, String?)]) -> String {
        attributes.compactMap { key, value in value.map { " \(key)=\"\(XMLText.escaped($0))\"" } }.joined()
    }
}
