import Foundation
import ObjectModel
import Predicates

extension SwiftClassGenerator {
    // MARK: Sources

    /// - Parameter by: what generates the file again.
    func header(_ what: String, by: String? = nil) -> String {
        let file = Self.commentText(modelFileName)
        return """
        \(Self.marker)
        // \(what) of \(file): written again, with any edit lost, whenever the
        // classes are generated (\(by ?? "`termdata model \(file) --swift DIR`")).


        """
    }

    func source(for entity: Entity, className name: String, generation: Generation) throws -> String {
        let declared = entity.declaration
        var lines: [String] = []
        if generation == .classDefinition {
            // A sub-entity's class, generated or written by hand, subclasses this one.
            let hasSubclasses = !entity.subentityNames.isEmpty
            let parentClass = try entity.parentName.flatMap { model.entity(named: $0) }.map { try referenceName(of: $0) }
                .flatMap { $0 == "ManagedObject" ? nil : $0 }
            let kind = hasSubclasses ? "open class" : "public final class"
            lines.append("/// The objects of entity \(entity.name)\(entity.isAbstract ? " (abstract: its objects are of its sub-entities)" : "").")
            let access = hasSubclasses ? "open" : "public", override = parentClass == nil ? "" : "override "
            lines.append("\(kind) \(name): \(parentClass ?? "ManagedObject, TypedObject") {")
            lines.append("    \(access) \(override)class var entityName: String { \(Self.literal(entity.name)) }")
            lines.append(keyPathTable(for: entity, className: name, declaration: "\(access) \(override)class var"))
            lines.append("}")
            lines.append("")
            lines.append("extension \(name) {")
        } else {
            lines.append("extension \(name): TypedObject {")
            lines.append("    public static var entityName: String { \(Self.literal(entity.name)) }")
            lines.append(keyPathTable(for: entity, className: name, declaration: "public static var"))
            lines.append("")
        }
        try checkMemberNames(of: entity)
        var members: [String] = []
        for attribute in declared.attributes {
            try checkPropertyName(attribute.name, entity: entity)
            members.append(try attributeProperty(attribute, entity: entity))
        }
        for relationship in declared.relationships {
            try checkPropertyName(relationship.name, entity: entity)
            members.append(try relationshipProperty(relationship))
        }
        for fetched in declared.fetchedProperties {
            try checkPropertyName(fetched.name, entity: entity)
            let destination = try referenceName(ofEntityNamed: fetched.entityName)
            members.append("""
                    /// Fetched property \(fetched.name): the \(Self.commentText(fetched.entityName)) objects its predicate matches, fetched when read.
                    public var \(Self.identifier(fetched.name)): [\(destination)] { orderedDestinations(\(Self.literal(fetched.name))) }
                """)
        }
        if members.isEmpty {
            // No property of its own: the class alone (or an empty extension for a category).
            if generation == .classDefinition { lines.removeLast(2) } else { lines.append("}") }
        } else {
            lines.append(members.joined(separator: "\n\n"))
            lines.append("}")
        }
        let methods = try declared.relationships.filter(\.isToMany).map(relationshipMethods)
        if !methods.isEmpty {
            lines.append("")
            lines.append("extension \(name) {")
            lines.append(methods.joined(separator: "\n\n"))
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every property's key path, inherited ones too (rooted at this class, as a predicate
    /// on it writes them), with the model key it stands for. Key paths are not `Sendable`,
    /// so the table is made when asked (once per key path a predicate names).
    private func keyPathTable(for entity: Entity, className name: String, declaration: String) -> String {
        let names = entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
        let entries = names.map { "        \\\(name).\(Self.identifier($0)): \(Self.literal($0))," }
        let head = "    \(declaration) modelKeyPaths: [AnyKeyPath: String] {"
        return entries.isEmpty ? head + " [:] }" : ([head + " ["] + entries + ["    ] }"]).joined(separator: "\n")
    }

    private func attributeProperty(_ attribute: AttributeDescription, entity: Entity) throws -> String {
        let key = Self.literal(attribute.name), name = Self.identifier(attribute.name)
        let summary = "/// \(attribute.name): \(attribute.type.xcodeName)\(attribute.isOptional ? ", optional" : "")\(attribute.isTransient ? ", transient" : "")"
        if Self.usesObjectValue(attribute.type) {
            return """
                    \(summary), as its stored value.
                    public var \(name): ObjectValue {
                        get { self[\(key)] }
                        set { self[\(key)] = newValue }
                    }
                """
        }
        let swiftType = Self.swiftType(attribute.type)
        // A required attribute with a default reads as that default when unset; a scalar (a
        // number or Boolean that asks for it) as 0 or NO, as in Core Data; any other value may
        // be nil (a new object's required attribute too, until it is set).
        let fallback: String?
        if !attribute.isOptional, let literal = Self.literal(attribute.defaultValue, type: attribute.type) {
            fallback = literal
        } else if !attribute.isOptional, Self.isOutOfReach(attribute.defaultValue, type: attribute.type) {
            throw CodegenError(entity: entity.name, property: attribute.name,
                               reason: "its default value \(attribute.defaultValue) is no \(attribute.type.xcodeName) a Swift literal can hold; change the default, or make the attribute optional")
        } else if Self.isScalar(attribute) {
            fallback = attribute.type == .boolean ? "false" : "0"
        } else {
            fallback = nil
        }
        let typeText = fallback == nil ? "\(swiftType)?" : swiftType
        let getter = fallback.map { "attributeValue(\(key), as: \(swiftType).self) ?? \($0)" } ?? "attributeValue(\(key))"
        return """
                \(summary).
                public var \(name): \(typeText) {
                    get { \(getter) }
                    set { setAttributeValue(newValue, forKey: \(key)) }
                }
            """
    }

    private func relationshipProperty(_ relationship: RelationshipDescription) throws -> String {
        let key = Self.literal(relationship.name), name = Self.identifier(relationship.name)
        let destination = try referenceName(ofEntityNamed: relationship.destinationEntityName)
        let inverse = relationship.inverseName.map { ", inverse \(Self.commentText($0))" } ?? ""
        if !relationship.isToMany {
            return """
                    /// \(relationship.name): to-one \(Self.commentText(relationship.destinationEntityName))\(inverse).
                    public var \(name): \(destination)? {
                        get { destination(\(key)) }
                        set { setDestination(newValue, forKey: \(key)) }
                    }
                """
        }
        let (type, read) = relationship.isOrdered ? ("[\(destination)]", "orderedDestinations") : ("Set<\(destination)>", "destinations")
        return """
                /// \(relationship.name): to-many \(Self.commentText(relationship.destinationEntityName))\(relationship.isOrdered ? ", ordered" : "")\(inverse).
                public var \(name): \(type) {
                    get { \(read)(\(key)) }
                    set { setDestinations(newValue, forKey: \(key)) }
                }
            """
    }

    private func relationshipMethods(_ relationship: RelationshipDescription) throws -> String {
        let key = Self.literal(relationship.name)
        let destination = try referenceName(ofEntityNamed: relationship.destinationEntityName)
        let capitalized = Self.capitalized(relationship.name)
        return """
                /// Adds to \(relationship.name); the inverse follows.
                public func addTo\(capitalized)(_ value: \(destination)) { addDestinations(CollectionOfOne(value), forKey: \(key)) }
                /// Adds each to \(relationship.name).
                public func addTo\(capitalized)(_ values: some Sequence<\(destination)>) { addDestinations(values, forKey: \(key)) }
                /// Removes from \(relationship.name); the inverse follows.
                public func removeFrom\(capitalized)(_ value: \(destination)) { removeDestinations(CollectionOfOne(value), forKey: \(key)) }
                /// Removes each from \(relationship.name).
                public func removeFrom\(capitalized)(_ values: some Sequence<\(destination)>) { removeDestinations(values, forKey: \(key)) }
            """
    }

    func registry(_ classNames: [String]) -> String {
        """
        /// The classes generated from \(modelName), for registration before the first fetch or insert:
        /// `\(registryName).register(in: coordinator)`.
        public enum \(registryName) {
            public static let all: [any TypedObject.Type] = [\(classNames.map { "\($0).self" }.joined(separator: ", "))]

            /// Makes each entity's objects instances of its class.
            public static func register(in coordinator: PersistentStoreCoordinator) {
                coordinator.register(all)
            }
        }

        """
    }
}
