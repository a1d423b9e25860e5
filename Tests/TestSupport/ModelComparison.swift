import Foundation
import ObjectModel
import Predicates

/// Compares models read from different files: Xcode's XML, a compiled `.mom`, a store's
/// cached model.
public enum ModelComparison {
    /// The model as both file formats carry it: without what only Xcode's XML keeps (diagram
    /// positions, code generation flags) and without indexes, which the compiler derives from
    /// fetch indexes.
    public static func semantic(_ model: ManagedObjectModel) throws -> ManagedObjectModel {
        let entities = model.entityDescriptions.sorted { $0.name < $1.name }.map { entity -> EntityDescription in
            var e = entity
            e.xcodeAttributes = [:]
            e.compoundIndexes = []
            e.attributes = e.attributes.sorted { $0.name < $1.name }.map { a in
                var a = a
                a.xcodeAttributes = a.xcodeAttributes.filter { $0.key == "preserveAfterDeletion" }
                a.isIndexed = false
                return a
            }
            e.relationships = e.relationships.sorted { $0.name < $1.name }.map { r in
                var r = r
                r.xcodeAttributes = [:]
                return r
            }
            e.fetchedProperties = e.fetchedProperties.map { f in
                var f = f
                f.xcodeAttributes = [:]
                f.predicateFormat = f.predicateFormat.map(canonical)
                return f
            }
            return e
        }
        let templates = model.fetchRequestTemplates.map { t in
            var t = t
            t.predicateFormat = t.predicateFormat.map(canonical)
            return t
        }
        return try ManagedObjectModel(entities: entities, fetchRequestTemplates: templates,
                                      configurations: model.configurations,
                                      versionIdentifier: model.versionIdentifier == "" ? nil : model.versionIdentifier)
    }

    /// Where two models differ, as `entity.property.field: a ≠ b` lines; empty when they agree.
    public static func differences(_ a: ManagedObjectModel, _ b: ManagedObjectModel) -> [String] {
        var found: [String] = []
        func walk(_ x: Any, _ y: Any, _ path: String) {
            let mx = Mirror(reflecting: x), my = Mirror(reflecting: y)
            if mx.children.isEmpty || my.children.isEmpty || mx.displayStyle == .enum {
                let sx = String(describing: x), sy = String(describing: y)
                if sx != sy { found.append("\(path): \(sx.prefix(120)) ≠ \(sy.prefix(120))") }
                return
            }
            let cx = Array(mx.children), cy = Array(my.children)
            if cx.count != cy.count { found.append("\(path): \(cx.count) ≠ \(cy.count) elements"); return }
            for (i, (l, r)) in zip(cx, cy).enumerated() {
                let label = l.label ?? (Mirror(reflecting: l.value).descendant("name").map { "\($0)" } ?? "[\(i)]")
                walk(l.value, r.value, path.isEmpty ? label : path + "." + label)
            }
        }
        walk(a.entityDescriptions, b.entityDescriptions, "")
        walk(a.fetchRequestTemplates, b.fetchRequestTemplates, "templates")
        walk(a.configurations, b.configurations, "configurations")
        if a.versionIdentifier != b.versionIdentifier { found.append("versionIdentifier: \(String(describing: a.versionIdentifier)) ≠ \(String(describing: b.versionIdentifier))") }
        return found
    }

    /// A predicate as the format language prints it (`test = ""` is `test == ""`).
    static func canonical(_ format: String) -> String {
        (try? ObjectPredicate(format: format).predicateFormat) ?? format
    }

}
