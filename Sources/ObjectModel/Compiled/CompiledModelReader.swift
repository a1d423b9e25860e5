import Foundation
import Predicates

/// Turns the keyed archive of a compiled model (a `.mom`, or the model a store caches) into
/// a checked model.
///
/// docs/StoreFormats.md ("Compiled models") lists the archive keys read here.
struct CompiledModelReader {
    let file: String
    let archive: KeyedArchive

    /// The attribute types as the archive numbers them (`NSAttributeType`).
    static let attributeTypes: [Int: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal,
        500: .double, 600: .float, 700: .string, 800: .boolean, 900: .date, 1000: .binary,
        1100: .uuid, 1200: .uri, 1800: .transformable, 2000: .objectID,
    ]
    /// The delete rules as the archive numbers them (`NSDeleteRule`).
    static let deleteRules: [Int: DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
    /// `NSFlagsKey` bits of an attribute.
    enum AttributeFlag {
        static let hasMaximum = 0x1, hasMinimum = 0x2, allowsExternalStorage = 0x4, preservesAfterDeletion = 0x10
    }
    /// `_P` bits of a property; when `_P` is absent or 0, the boolean keys say the same.
    enum PropertyFlag {
        static let optional = 0x2, transient = 0x8, ordered = 0x400
    }
    /// `NSFetchRequestFlags` bits.
    enum RequestFlag {
        static let distinct = 0x1, includesSubentities = 0x2, includesPropertyValues = 0x4,
                   returnsObjectsAsFaults = 0x8, includesPendingChanges = 0x10
    }

    init(file: String, archive: KeyedArchive) {
        self.file = file
        self.archive = archive
    }

    func read() throws -> ManagedObjectModel {
        let root: KeyedArchive.Object
        do { root = try archive.rootObject() } catch let problem as KeyedArchive.Problem {
            throw ModelError(.malformedArchive(problem.message), file: file)
        }
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw ModelError(.notAModel("the archive holds an \(root.className), not an NSManagedObjectModel"), file: file)
        }
        var entities: [EntityDescription] = []
        var archived: [(object: KeyedArchive.Object, propertyNames: Set<String>)] = []
        var byIndex: [Int: String] = [:]
        try located("the model's entities") {
            for (name, value) in try archive.entries(root["NSEntities"]) {
                guard let object = try archive.object(value), object.isKind(of: "NSEntityDescription") else {
                    throw KeyedArchive.Problem(message: "entity '\(name)' is not an NSEntityDescription")
                }
                let names = Set(try archive.entries(object["NSProperties"]).map(\.key))
                archived.append((object, names))
                byIndex[object.index] = try archive.string(object["NSEntityName"]) ?? name
            }
        }
        archived.sort { Self.xcodeOrder(byIndex[$0.object.index]!, byIndex[$1.object.index]!) }
        // An archive may list one entity (or one name) twice, as no model does.
        var propertiesByEntity: [String: Set<String>] = [:]
        for (object, names) in archived {
            let name = byIndex[object.index]!
            guard propertiesByEntity.updateValue(names, forKey: name) == nil else {
                throw ModelError(.duplicateEntity, file: file, entity: name)
            }
        }
        for (object, _) in archived {
            entities.append(try readEntity(object, names: byIndex, properties: propertiesByEntity))
        }
        var templates: [FetchRequestTemplate] = []
        try located("the model's fetch request templates") {
            for (name, value) in try archive.entries(root["NSFetchRequestTemplates"]) {
                guard let request = try archive.object(value) else { continue }
                templates.append(try readTemplate(name: name, request, names: byIndex))
            }
        }
        templates.sort { $0.name < $1.name }
        var configurations: [ModelConfiguration] = []
        try located("the model's configurations") {
            for (name, value) in try archive.entries(root["NSConfigurations"]) where name != "PF_DEFAULT_CONFIGURATION_NAME" {
                var members: [String] = []
                for element in try archive.elements(value) {
                    if let entity = try archive.object(element) {
                        members.append(try archive.string(entity["NSEntityName"]) ?? "")
                    } else if let name = try archive.string(element) {
                        members.append(name)
                    }
                }
                configurations.append(ModelConfiguration(name: name, entityNames: members.sorted()))
            }
        }
        configurations.sort { $0.name < $1.name }
        let identifiers = try located("the model's version identifiers") {
            try archive.elements(root["NSVersionIdentifiers"]).compactMap { try archive.string($0) }.filter { !$0.isEmpty }.sorted()
        }
        do {
            return try ManagedObjectModel(
                entities: entities,
                fetchRequestTemplates: templates,
                configurations: configurations,
                versionIdentifier: identifiers.first)
        } catch let error as ModelError {
            throw error.located(file: file, line: nil)
        }
    }

    /// Xcode's order of names: without regard to case, then with it.
    static func xcodeOrder(_ a: String, _ b: String) -> Bool {
        switch a.caseInsensitiveCompare(b) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a < b
        }
    }

    /// Runs a step, reporting an archive problem with what was being read.
    private func located<T>(_ what: String, entity: String? = nil, property: String? = nil,
                            _ body: () throws -> T) throws -> T {
        do { return try body() } catch let problem as KeyedArchive.Problem {
            throw ModelError(.malformedArchive("\(what): \(problem.message)"), file: file, entity: entity, property: property)
        }
    }

    private func readEntity(_ object: KeyedArchive.Object, names: [Int: String],
                            properties: [String: Set<String>]) throws -> EntityDescription {
        let name = names[object.index]!
        return try located("the entity", entity: name) {
            let parent = try archive.object(object["NSSuperentity"]).flatMap { names[$0.index] }
            // A renaming identifier equal to the name is what Xcode writes for none.
            let renaming = try archive.string(object["NSRenamingIdentifier"]).flatMap { $0 == name ? nil : $0 }
            let className = try archive.string(object["NSClassNameForEntity"]).flatMap { $0 == "NSManagedObject" ? nil : $0 }
            var entity = EntityDescription(
                name: name,
                className: className,
                isAbstract: object["NSIsAbstract"]?.bool ?? false,
                parent: parent,
                renamingIdentifier: renaming,
                versionHashModifier: try archive.string(object["NSVersionHashModifier"]),
                userInfo: try userInfo(object["NSUserInfo"]))
            entity.uniquenessConstraints = try archive.elements(object["NSUniqueTuples"]).map { try propertyNames($0) }
            entity.fetchIndexes = try archive.elements(object["NSFetchIndexDescriptions"]).compactMap { try fetchIndex($0) }
            // Xcode compiles each fetch index into a compound index as well, for older systems:
            // the fetch index stands for it.
            let fetchIndexed = Set(entity.fetchIndexes.compactMap(\.binaryPropertyNames))
            entity.compoundIndexes = try archive.elements(object["NSCompoundIndexes"]).map { try propertyNames($0) }
                .filter { !fetchIndexed.contains($0) }
            // A model cache repeats inherited properties on each sub-entity; an entity
            // declares only those its parent does not have.
            let inherited = parent.flatMap { properties[$0] } ?? []
            for (propertyName, value) in try archive.entries(object["NSProperties"]) where !inherited.contains(propertyName) {
                guard let property = try archive.object(value) else { continue }
                try located("the property", entity: name, property: propertyName) {
                    if property.isKind(of: "NSRelationshipDescription") {
                        entity.relationships.append(try readRelationship(property, name: propertyName, names: names))
                    } else if property.isKind(of: "NSFetchedPropertyDescription") {
                        entity.fetchedProperties.append(try readFetchedProperty(property, name: propertyName, names: names))
                    } else if property.isKind(of: "NSAttributeDescription") {
                        entity.attributes.append(try readAttribute(property, name: propertyName))
                    } else {
                        throw KeyedArchive.Problem(message: "a property of class \(property.className)")
                    }
                }
            }
            // The archive keeps properties in a dictionary; Xcode lists them by name.
            entity.attributes.sort { Self.xcodeOrder($0.name, $1.name) }
            entity.relationships.sort { Self.xcodeOrder($0.name, $1.name) }
            entity.fetchedProperties.sort { Self.xcodeOrder($0.name, $1.name) }
            return entity
        }
    }

    /// An `NSFetchIndexDescription`: its name and elements (`NSFetchIndexElementDescription`:
    /// a property, a type — 0 binary, 1 R-tree — and a direction). An element of an expression
    /// rather than a property is kept as the expression's archived class name, so that the
    /// index is not lost without trace.
    private func fetchIndex(_ value: PropertyListValue) throws -> FetchIndexDescription? {
        guard let index = try archive.object(value), let name = try archive.string(index["NSIndexName"]) else { return nil }
        let elements = try archive.elements(index["NSIndexElements"]).compactMap { value -> FetchIndexDescription.Element? in
            guard let element = try archive.object(value) else { return nil }
            let kind: FetchIndexDescription.Element.Kind = element["NSFetchIndexElementType"]?.int == 1 ? .rTree : .binary
            let ascending = element["NSAscending"]?.bool ?? true
            if let property = try archive.string(element["NSPropertyName"]) {
                return .init(property: property, kind: kind, ascending: ascending)
            }
            let expression = try archive.object(element["NSExpression"])
            return .init(expression: expression.map { "(\($0.className))" } ?? "?", kind: kind, ascending: ascending)
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    /// A uniqueness constraint or compound index: property names, or the properties themselves.
    private func propertyNames(_ value: PropertyListValue) throws -> [String] {
        try archive.elements(value).compactMap { element in
            if let property = try archive.object(element), !property.isKind(of: "NSString") {
                return try archive.string(property["NSPropertyName"])
            }
            return try archive.string(element)
        }
    }

    private func userInfo(_ value: PropertyListValue?) throws -> [String: String] {
        var info: [String: String] = [:]
        for (key, value) in try archive.entries(value) {
            info[key] = try archive.value(value).map { $0 == .null ? "" : Self.text($0) } ?? ""
        }
        return info
    }

    private static func text(_ value: ObjectValue) -> String {
        if case .string(let s) = value { return s }
        return ObjectExpression.constant(value).expressionFormat
    }

    private func readAttribute(_ object: KeyedArchive.Object, name: String) throws -> AttributeDescription {
        guard let code = object["NSAttributeType"]?.int else {
            throw KeyedArchive.Problem(message: "the attribute has no NSAttributeType")
        }
        guard let type = Self.attributeTypes[code] else {
            throw KeyedArchive.Problem(message: "NSAttributeType \(code) is not an attribute type this reader knows (known: \(Self.attributeTypes.keys.sorted().map(String.init).joined(separator: ", ")))")
        }
        var defaultValue = try archive.value(object["NSDefaultValue"]) ?? .null
        if defaultValue != .null {
            guard let coerced = type.coerce(defaultValue) else {
                throw KeyedArchive.Problem(message: "the default value \(defaultValue) does not fit type \(type.xcodeName)")
            }
            defaultValue = coerced
        }
        let flags = object["NSFlagsKey"]?.int ?? 0
        var attribute = AttributeDescription(
            name: name,
            type: type,
            isOptional: Self.flag(object, PropertyFlag.optional, key: "NSIsOptional"),
            isTransient: Self.flag(object, PropertyFlag.transient, key: "NSIsTransient"),
            isIndexed: object["NSIsIndexed"]?.bool ?? false,
            defaultValue: defaultValue,
            valueTransformerName: try archive.string(object["NSValueTransformerName"]),
            allowsExternalBinaryDataStorage: flags & AttributeFlag.allowsExternalStorage != 0,
            renamingIdentifier: try archive.string(object["NSRenamingIdentifier"]).flatMap { $0 == name ? nil : $0 },
            versionHashModifier: try archive.string(object["NSVersionHashModifier"]),
            userInfo: try userInfo(object["NSUserInfo"]))
        if type == .transformable, let className = try archive.string(object["NSAttributeValueClassName"]),
           className != "NSObject", className != "NSData" {
            attribute.customClassName = className
        }
        attribute.preservesValueInHistoryOnDeletion = flags & AttributeFlag.preservesAfterDeletion != 0
        // A derived attribute (NSDerivedAttributeDescription) keeps its expression archived:
        // Xcode's `canonical:(name)` compiles to FUNCTION(_NSPredicateUtilities, 'canonical:', SELF.name).
        // An expression this reader cannot read leaves a plain attribute, as one whose text does
        // not parse does: the model still opens, and the value is what the store holds.
        if object.isKind(of: "NSDerivedAttributeDescription"), archive.resolve(object["NSDerivationExpression"]) != nil {
            attribute.derivationExpression = try? ArchivedPredicate(archive: archive).expression(object["NSDerivationExpression"]).description
        }
        try readValidation(object, into: &attribute)
        if flags & AttributeFlag.hasMinimum != 0 { attribute.minimum = try bound(object["NSMinValueName"], of: attribute) }
        if flags & AttributeFlag.hasMaximum != 0 { attribute.maximum = try bound(object["NSMaxValueName"], of: attribute) }
        return attribute
    }

    /// A property's flag: from `_P` when it is set, else from its boolean key.
    private static func flag(_ object: KeyedArchive.Object, _ bit: Int, key: String) -> Bool {
        if let p = object["_P"]?.int, p != 0 { return p & bit != 0 }
        return object[key]?.bool ?? false
    }

    /// A minimum or maximum: a length for strings and binary data, a number (or, for a
    /// date, seconds since 2001) otherwise.
    private func bound(_ value: PropertyListValue?, of attribute: AttributeDescription) throws -> ObjectValue? {
        guard let v = try archive.value(value), v != .null else { return nil }
        if attribute.constraintsAreLengths { return v.intValue.map(ObjectValue.int) }
        if attribute.type == .date, let seconds = v.doubleValue { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        return attribute.type.coerce(v) ?? v
    }

    /// Minimum, maximum and regular expression: Core Data compiles them into validation
    /// predicates (`length >= 3`, `SELF <= 10`, `SELF MATCHES "…"`).
    private func readValidation(_ object: KeyedArchive.Object, into attribute: inout AttributeDescription) throws {
        let predicates = try archive.elements(object["NSValidationPredicates"])
        for value in predicates {
            guard let predicate = try ArchivedPredicate(archive: archive).predicate(value) else { continue }
            guard case .comparison(let c) = predicate else { continue }
            let subjectIsLength: Bool
            switch c.lhs {
            case .keyPath("length"), .function("length:", _): subjectIsLength = true
            case .evaluatedObject: subjectIsLength = false
            default: continue
            }
            guard case .constant(let bound) = c.rhs else { continue }
            let value: ObjectValue = subjectIsLength || attribute.type != .date ? bound
                : bound.doubleValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? bound
            switch c.op {
            case .greaterThanOrEqualTo: attribute.minimum = value
            case .lessThanOrEqualTo: attribute.maximum = value
            case .matches: if case .string(let pattern) = bound { attribute.regularExpression = pattern }
            default: continue
            }
        }
    }

    private func readRelationship(_ object: KeyedArchive.Object, name: String, names: [Int: String]) throws -> RelationshipDescription {
        let destination = try archive.string(object["_NSDestinationEntityName"])
            ?? archive.object(object["NSDestinationEntity"]).flatMap { names[$0.index] }
        guard let destination else { throw KeyedArchive.Problem(message: "the relationship names no destination entity") }
        let inverse = try archive.string(object["_NSInverseRelationshipName"])
            ?? archive.object(object["NSInverseRelationship"]).flatMap { try archive.string($0["NSPropertyName"]) }
        let ruleCode = object["NSDeleteRule"]?.int ?? 1
        guard let rule = Self.deleteRules[ruleCode] else {
            throw KeyedArchive.Problem(message: "NSDeleteRule \(ruleCode) is not a delete rule (0 No Action, 1 Nullify, 2 Cascade, 3 Deny)")
        }
        // Some of Apple's archives (a store's cached model among them) keep "no limit" as -1
        // where others keep 0: both mean a to-many relationship without a maximum.
        let storedMax = object["NSMaxCount"]?.int ?? 1
        let maxCount = storedMax == -1 ? 0 : storedMax
        let minCount = object["NSMinCount"]?.int ?? 0
        guard maxCount >= 0, minCount >= 0 else {
            throw KeyedArchive.Problem(message: "the relationship's counts \(minCount)…\(storedMax) are negative")
        }
        return RelationshipDescription(
            name: name,
            destination: destination,
            inverse: inverse,
            isToMany: maxCount != 1,
            isOrdered: Self.flag(object, PropertyFlag.ordered, key: "NSIsOrdered"),
            isOptional: Self.flag(object, PropertyFlag.optional, key: "NSIsOptional"),
            isTransient: Self.flag(object, PropertyFlag.transient, key: "NSIsTransient"),
            minCount: minCount,
            maxCount: maxCount,
            deleteRule: rule,
            renamingIdentifier: try archive.string(object["NSRenamingIdentifier"]).flatMap { $0 == name ? nil : $0 },
            versionHashModifier: try archive.string(object["NSVersionHashModifier"]),
            userInfo: try userInfo(object["NSUserInfo"]))
    }

    private func readFetchedProperty(_ object: KeyedArchive.Object, name: String, names: [Int: String]) throws -> FetchedPropertyDescription {
        guard let request = try archive.object(object["NSFetchRequest"]) else {
            throw KeyedArchive.Problem(message: "the fetched property has no fetch request")
        }
        let (entity, predicate) = try requestEntityAndPredicate(
            request, names: names, fallbackEntity: try archive.string(object["_NSFetchRequestEntityName"]))
        return FetchedPropertyDescription(
            name: name,
            entityName: entity,
            predicateFormat: predicate,
            isOptional: Self.flag(object, PropertyFlag.optional, key: "NSIsOptional"),
            userInfo: try userInfo(object["NSUserInfo"]))
    }

    private func readTemplate(name: String, _ request: KeyedArchive.Object, names: [Int: String]) throws -> FetchRequestTemplate {
        let (entity, predicate) = try requestEntityAndPredicate(request, names: names)
        // NSFetchRequest keeps its switches in one flags word, written when NSHasFetchRequestFlags.
        let flags = request["NSHasFetchRequestFlags"]?.bool == false ? nil : request["NSFetchRequestFlags"]?.int
        func flag(_ bit: Int, default value: Bool) -> Bool { flags.map { $0 & bit != 0 } ?? value }
        return FetchRequestTemplate(
            name: name,
            entityName: entity,
            predicateFormat: predicate,
            fetchLimit: max(0, request["NSFetchLimit"]?.int ?? 0),
            fetchBatchSize: max(0, request["NSBatchSize"]?.int ?? 0),
            includesSubentities: flag(RequestFlag.includesSubentities, default: true),
            includesPropertyValues: flag(RequestFlag.includesPropertyValues, default: true),
            includesPendingChanges: flag(RequestFlag.includesPendingChanges, default: true),
            returnsObjectsAsFaults: flag(RequestFlag.returnsObjectsAsFaults, default: true),
            returnsDistinctResults: flag(RequestFlag.distinct, default: false))
    }

    /// The entity a fetch request looks in and its predicate in the format language.
    private func requestEntityAndPredicate(_ request: KeyedArchive.Object, names: [Int: String],
                                           fallbackEntity: String? = nil) throws -> (String, String?) {
        let entity = try archive.object(request["NSEntity"]).flatMap { names[$0.index] }
            ?? (archive.resolve(request["NSEntity"])?.string) ?? fallbackEntity
        guard let entity else { throw KeyedArchive.Problem(message: "the fetch request names no entity") }
        let predicate = try ArchivedPredicate(archive: archive).predicate(request["NSPredicate"])
        return (entity, predicate?.predicateFormat)
    }
}
