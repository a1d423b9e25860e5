import Foundation
import ObjectModel
import Predicates

/// Writes a model as a compiled `.mom` (an NSKeyedArchiver binary property list), with the
/// keys Core Data's own archives use, so that tests can give the compiled-model reader the
/// features no real compiled file in the corpus has (ordered relationships, fetched
/// properties, templates, configurations, validation bounds). It is the tests' own writer:
/// the product only reads compiled models.
///
/// ```swift
/// let bytes = CompiledModelEncoder.encode(model)
/// ```
public enum CompiledModelEncoder {
    /// The archive of a model.
    public static func encode(_ model: ManagedObjectModel, cacheLayout: Bool = false) -> Data {
        var archiver = Archiver()
        let root = archiver.encodeModel(model, cacheLayout: cacheLayout)
        return BinaryPropertyListWriter.write(.dictionary([
            "$version": .int(100000),
            "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(root)]),
            "$objects": .array(archiver.objects),
        ]))
    }

    /// A `.momd` folder of every version, with its `VersionInfo.plist`.
    public static func writeFolder(_ versions: ModelVersions, to url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for version in versions.versions {
            try encode(version.model).write(to: url.appendingPathComponent(version.name + ".mom"))
        }
        let info: [String: Any] = ["NSManagedObjectModel_CurrentVersionName": versions.currentVersionName]
        try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
            .write(to: url.appendingPathComponent("VersionInfo.plist"))
    }
}

/// Builds `$objects`: index 0 is `$null`; objects that several others refer to (entities,
/// relationships) get their index before their fields, so cycles close.
private struct Archiver {
    var objects: [PropertyListValue] = [.string("$null")]
    private var classes: [String: Int] = [:]
    private var shared: [String: Int] = [:]
    private var strings: [String: Int] = [:]
    private var filled: Set<Int> = []

    static let superclasses: [String: [String]] = [
        "NSAttributeDescription": ["NSPropertyDescription"], "NSRelationshipDescription": ["NSPropertyDescription"],
        "NSFetchedPropertyDescription": ["NSPropertyDescription"], "NSMutableDictionary": ["NSDictionary"],
        "NSMutableArray": ["NSArray"], "NSMutableSet": ["NSSet"], "NSDecimalNumber": ["NSNumber"],
        "NSComparisonPredicate": ["NSPredicate"], "NSCompoundPredicate": ["NSPredicate"],
        "NSTruePredicate": ["NSPredicate"], "NSFalsePredicate": ["NSPredicate"],
        "NSKnownKeysDictionary1": ["NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary"],
        "NSKnownKeysMappingStrategy1": ["NSKnownKeysMappingStrategy"],
        "NSConstantValueExpression": ["NSExpression"], "NSSelfExpression": ["NSExpression"],
        "NSVariableExpression": ["NSExpression"], "NSKeyPathExpression": ["NSFunctionExpression", "NSExpression"],
        "NSKeyPathSpecifierExpression": ["NSExpression"], "NSFunctionExpression": ["NSExpression"],
        "NSAggregateExpression": ["NSExpression"], "NSSubqueryExpression": ["NSExpression"],
        "NSComparisonPredicateOperator": ["NSPredicateOperator"], "NSEqualityPredicateOperator": ["NSPredicateOperator"],
        "NSLikePredicateOperator": ["NSStringPredicateOperator", "NSPredicateOperator"],
        "NSBeginsWithPredicateOperator": ["NSStringPredicateOperator", "NSPredicateOperator"],
    ]

    private mutating func classRef(_ name: String) -> PropertyListValue {
        if let i = classes[name] { return .uid(i) }
        let list = [name] + (Self.superclasses[name] ?? []) + ["NSObject"]
        objects.append(.dictionary(["$classname": .string(name), "$classes": .array(list.map(PropertyListValue.string))]))
        classes[name] = objects.count - 1
        return .uid(objects.count - 1)
    }

    mutating func string(_ s: String?) -> PropertyListValue {
        guard let s else { return .uid(0) }
        if let i = strings[s] { return .uid(i) }
        objects.append(.string(s))
        strings[s] = objects.count - 1
        return .uid(objects.count - 1)
    }

    mutating func object(_ className: String, _ fields: [String: PropertyListValue]) -> PropertyListValue {
        var f = fields
        f["$class"] = classRef(className)
        objects.append(.dictionary(f))
        return .uid(objects.count - 1)
    }

    /// The index of a shared object, reserved on first sight.
    mutating func reserve(_ key: String) -> (index: Int, isNew: Bool) {
        if let i = shared[key] { return (i, false) }
        objects.append(.null)
        shared[key] = objects.count - 1
        return (objects.count - 1, true)
    }

    mutating func fill(_ index: Int, _ className: String, _ fields: [String: PropertyListValue]) {
        filled.insert(index)
        var f = fields
        f["$class"] = classRef(className)
        objects[index] = .dictionary(f)
    }

    mutating func array(_ elements: [PropertyListValue], className: String = "NSArray") -> PropertyListValue {
        object(className, ["NS.objects": .array(elements)])
    }

    mutating func dictionary(_ entries: [(String, PropertyListValue)], className: String = "NSMutableDictionary") -> PropertyListValue {
        let keys = entries.map { string($0.0) }
        return object(className, ["NS.keys": .array(keys), "NS.objects": .array(entries.map(\.1))])
    }

    /// A model cache's dictionary: values beside a mapping strategy that lists the keys.
    mutating func knownKeysDictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
        let keys = array(entries.map { string($0.0) })
        let mapping = object("NSKnownKeysMappingStrategy1", ["keys": keys, "length": .int(entries.count), "version": .int(1)])
        return object("NSKnownKeysDictionary1", [
            "values": array(entries.map(\.1)), "searchMapping": mapping,
            "emptyToken": string("__empty_slot_token_4c24_98dc_ac1e_b773__"), "version": .int(1),
        ])
    }

    mutating func value(_ v: ObjectValue) -> PropertyListValue {
        switch v {
        case .null: return .uid(0)
        case .bool(let b): return appendPlain(.bool(b))
        case .int(let i): return appendPlain(.int(i))
        case .double(let d): return appendPlain(.real(d))
        case .string(let s): return string(s)
        case .data(let d): return appendPlain(.data(d))
        case .date(let d): return object("NSDate", ["NS.time": .real(d.timeIntervalSinceReferenceDate)])
        case .uuid(let u): return object("NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: u.uuid) { Data($0) })])
        case .url(let u): return object("NSURL", ["NS.base": .uid(0), "NS.relative": string(u.absoluteString)])
        case .decimal(let d):
            // The mantissa as NSDecimal keeps it: eight little-endian 16-bit words.
            var m = d.significand < 0 ? -d.significand : d.significand
            var words: [UInt8] = []
            for _ in 0..<8 {
                var q = m / 65536
                var rounded = Decimal()
                NSDecimalRound(&rounded, &q, 0, .down)
                let word = NSDecimalNumber(decimal: m - rounded * 65536).intValue
                words += [UInt8(word & 0xFF), UInt8(word >> 8)]
                m = rounded
            }
            return object("NSDecimalNumber", [
                "NS.exponent": .int(Int(d.exponent)), "NS.length": .int(8), "NS.negative": .bool(d < 0),
                "NS.compact": .bool(true), "NS.mantissa.bo": .int(1), "NS.mantissa": .data(Data(words)),
            ])
        case .array(let a): return array(a.map { value($0) })
        default: return .uid(0)
        }
    }

    private mutating func appendPlain(_ v: PropertyListValue) -> PropertyListValue {
        objects.append(v)
        return .uid(objects.count - 1)
    }

    // MARK: The model

    mutating func encodeModel(_ model: ManagedObjectModel, cacheLayout: Bool) -> Int {
        let root = reserve("model").index
        let entities = model.entities.map { entity in (entity.name, encodeEntity(entity, in: model, root: root, cacheLayout: cacheLayout)) }
        var templates: [(String, PropertyListValue)] = []
        for t in model.fetchRequestTemplates {
            templates.append((t.name, encodeRequest(entity: t.entityName, predicate: t.predicateFormat, template: t)))
        }
        var fields: [String: PropertyListValue] = [
            "NSEntities": cacheLayout ? knownKeysDictionary(entities) : dictionary(entities),
            "NSFetchRequestTemplates": templates.isEmpty ? .uid(0) : dictionary(templates),
            "NSVersionIdentifiers": array(model.versionIdentifier.map { [string($0)] } ?? [], className: "NSSet"),
        ]
        if !model.configurations.isEmpty {
            fields["NSConfigurations"] = dictionary(model.configurations.map { c in
                (c.name, array(c.entityNames.map { .uid(reserve("entity:" + $0).index) }, className: "NSSet"))
            })
        }
        fill(root, "NSManagedObjectModel", fields)
        return root
    }

    private mutating func encodeEntity(_ entity: Entity, in model: ManagedObjectModel, root: Int, cacheLayout: Bool) -> PropertyListValue {
        let index = reserve("entity:" + entity.name).index
        guard !filled.contains(index) else { return .uid(index) }
        let d = entity.declaration
        var properties: [(String, PropertyListValue)] = []
        // A model cache repeats inherited properties on each sub-entity, as Core Data's does.
        let attributes = cacheLayout ? entity.attributes : d.attributes
        let relationships = cacheLayout ? entity.relationships : d.relationships
        for a in attributes { properties.append((a.name, encodeAttribute(a, entity: index))) }
        for r in relationships { properties.append((r.name, encodeRelationship(r, entity: entity.name, index: index, in: model))) }
        for f in d.fetchedProperties {
            properties.append((f.name, object("NSFetchedPropertyDescription", [
                "NSPropertyName": string(f.name), "NSEntity": .uid(index), "_P": .int(propertyFlags(optional: f.isOptional)),
                "NSFetchRequest": encodeRequest(entity: f.entityName, predicate: f.predicateFormat, template: nil),
                "NSUserInfo": userInfo(f.userInfo),
            ])))
        }
        properties.sort { $0.0 < $1.0 }
        let subentities = model.entities.filter { $0.parentName == entity.name }.map { ($0.name, PropertyListValue.uid(reserve("entity:" + $0.name).index)) }
        var fields: [String: PropertyListValue] = [
            "NSEntityName": string(entity.name),
            "NSClassNameForEntity": cacheLayout ? .uid(0) : string(d.className ?? "NSManagedObject"),
            "NSProperties": cacheLayout ? knownKeysDictionary(properties) : dictionary(properties),
            "NSSuperentity": entity.parentName.map { .uid(reserve("entity:" + $0).index) } ?? .uid(0),
            "NSSubentities": dictionary(subentities),
            "NSRenamingIdentifier": string(d.renamingIdentifier ?? entity.name),
            "NSVersionHashModifier": string(d.versionHashModifier),
            "NSUserInfo": userInfo(d.userInfo),
            "NSManagedObjectModel": .uid(root),
        ]
        if d.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if !d.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = array(d.uniquenessConstraints.map { group in array(group.map { string($0) }) }, className: "NSMutableArray")
        }
        if !d.compoundIndexes.isEmpty {
            fields["NSCompoundIndexes"] = array(d.compoundIndexes.map { group in array(group.map { string($0) }) })
        }
        fill(index, "NSEntityDescription", fields)
        return .uid(index)
    }

    private mutating func userInfo(_ info: [String: String]) -> PropertyListValue {
        dictionary(info.keys.sorted().map { ($0, string(info[$0]!)) }, className: "NSDictionary")
    }

    private func propertyFlags(optional: Bool, transient: Bool = false, ordered: Bool = false) -> Int {
        0xF1 | (optional ? 0x2 : 0) | (transient ? 0x8 : 0) | (ordered ? 0x400 : 0)
    }

    private static let typeCodes: [AttributeType: Int] = [
        .undefined: 0, .integer16: 100, .integer32: 200, .integer64: 300, .decimal: 400, .double: 500, .float: 600,
        .string: 700, .boolean: 800, .date: 900, .binary: 1000, .uuid: 1100, .uri: 1200, .transformable: 1800, .objectID: 2000,
    ]

    private mutating func encodeAttribute(_ a: AttributeDescription, entity: Int) -> PropertyListValue {
        var validation: [PropertyListValue] = []
        let subject: ObjectExpression = a.constraintsAreLengths ? .keyPath("length") : .evaluatedObject
        if let min = a.minimum { validation.append(encodePredicate(.comparison(ComparisonPredicate(subject, .greaterThanOrEqualTo, .constant(min))))) }
        if let max = a.maximum { validation.append(encodePredicate(.comparison(ComparisonPredicate(subject, .lessThanOrEqualTo, .constant(max))))) }
        if let re = a.regularExpression { validation.append(encodePredicate(.comparison(ComparisonPredicate(.evaluatedObject, .matches, .constant(.string(re)))))) }
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": string(a.name), "NSEntity": .uid(entity),
            "NSAttributeType": .int(Self.typeCodes[a.type]!),
            "NSAttributeValueClassName": string(a.customClassName),
            "NSDefaultValue": value(a.defaultValue),
            "NSValueTransformerName": string(a.valueTransformerName),
            "NSRenamingIdentifier": string(a.renamingIdentifier ?? a.name),
            "NSFlagsKey": .int((a.allowsExternalBinaryDataStorage ? 0x4 : 0) | (a.preservesValueInHistoryOnDeletion ? 0x10 : 0)),
            "_P": .int(propertyFlags(optional: a.isOptional, transient: a.isTransient)),
        ]
        if a.isOptional { fields["NSIsOptional"] = .bool(true) }
        if a.isTransient { fields["NSIsTransient"] = .bool(true) }
        if a.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        if !validation.isEmpty {
            fields["NSValidationPredicates"] = array(validation)
            fields["NSValidationWarnings"] = array(validation.map { _ in string("") })
        }
        if !a.userInfo.isEmpty { fields["NSUserInfo"] = userInfo(a.userInfo) }
        if let m = a.versionHashModifier { fields["NSVersionHashModifier"] = string(m) }
        return object("NSAttributeDescription", fields)
    }

    private mutating func encodeRelationship(_ r: RelationshipDescription, entity: String, index: Int, in model: ManagedObjectModel) -> PropertyListValue {
        let me = reserve("relationship:\(entity).\(r.name)").index
        guard !filled.contains(me) else { return .uid(me) }
        let destination = reserve("entity:" + r.destinationEntityName).index
        let inverse = r.inverseName.map { PropertyListValue.uid(reserve("relationship:\(r.destinationEntityName).\($0)").index) } ?? .uid(0)
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": string(r.name), "NSEntity": .uid(index),
            "NSDestinationEntity": .uid(destination), "_NSDestinationEntityName": string(r.destinationEntityName),
            "NSInverseRelationship": inverse, "_NSInverseRelationshipName": string(r.inverseName),
            "NSDeleteRule": .int([DeleteRule.noAction: 0, .nullify: 1, .cascade: 2, .deny: 3][r.deleteRule]!),
            "NSMinCount": .int(r.minCount), "NSMaxCount": .int(r.maxCount),
            "NSRenamingIdentifier": string(r.renamingIdentifier ?? r.name),
            "_P": .int(propertyFlags(optional: r.isOptional, transient: r.isTransient, ordered: r.isOrdered)),
        ]
        if r.isOptional { fields["NSIsOptional"] = .bool(true) }
        if r.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        if let m = r.versionHashModifier { fields["NSVersionHashModifier"] = string(m) }
        if !r.userInfo.isEmpty { fields["NSUserInfo"] = userInfo(r.userInfo) }
        fill(me, "NSRelationshipDescription", fields)
        return .uid(me)
    }

    private mutating func encodeRequest(entity: String, predicate: String?, template: FetchRequestTemplate?) -> PropertyListValue {
        var fields: [String: PropertyListValue] = ["NSEntity": .uid(reserve("entity:" + entity).index)]
        if let predicate, let parsed = try? ObjectPredicate(format: predicate) { fields["NSPredicate"] = encodePredicate(parsed) }
        if let t = template {
            fields["NSFetchLimit"] = .int(t.fetchLimit)
            fields["NSBatchSize"] = .int(t.fetchBatchSize)
            fields["NSHasFetchRequestFlags"] = .bool(true)
            fields["NSFetchRequestFlags"] = .int((t.returnsDistinctResults ? 0x1 : 0) | (t.includesSubentities ? 0x2 : 0)
                | (t.includesPropertyValues ? 0x4 : 0) | (t.returnsObjectsAsFaults ? 0x8 : 0) | (t.includesPendingChanges ? 0x10 : 0))
        }
        return object("NSFetchRequest", fields)
    }

    // MARK: Predicates and expressions, as Foundation archives them

    private static let operatorCodes: [ComparisonOperator: Int] = [
        .lessThan: 0, .lessThanOrEqualTo: 1, .greaterThan: 2, .greaterThanOrEqualTo: 3, .equalTo: 4, .notEqualTo: 5,
        .matches: 6, .like: 7, .beginsWith: 8, .endsWith: 9, .in: 10, .contains: 99, .between: 100,
    ]

    mutating func encodePredicate(_ p: ObjectPredicate) -> PropertyListValue {
        switch p {
        case .true: return object("NSTruePredicate", [:])
        case .false: return object("NSFalsePredicate", [:])
        case .and(let ps): return object("NSCompoundPredicate", ["NSCompoundPredicateType": .int(1), "NSSubpredicates": array(ps.map { encodePredicate($0) })])
        case .or(let ps): return object("NSCompoundPredicate", ["NSCompoundPredicateType": .int(2), "NSSubpredicates": array(ps.map { encodePredicate($0) })])
        case .not(let q): return object("NSCompoundPredicate", ["NSCompoundPredicateType": .int(0), "NSSubpredicates": array([encodePredicate(q)])])
        case .comparison(let c):
            if c.modifier == .none {
                var any = c
                any.modifier = .any
                return encodePredicate(.not(.comparison(any)))
            }
            let modifier = [ComparisonModifier.direct: 0, .all: 1, .any: 2][c.modifier]!
            let op: PropertyListValue
            switch c.op {
            case .equalTo, .notEqualTo:
                op = object("NSEqualityPredicateOperator", ["NSOperatorType": .int(Self.operatorCodes[c.op]!), "NSModifier": .int(modifier),
                                                           "NSNegate": .bool(c.op == .notEqualTo), "NSOptions": .int(c.options.rawValue)])
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                op = object("NSComparisonPredicateOperator", ["NSOperatorType": .int(Self.operatorCodes[c.op]!), "NSModifier": .int(modifier),
                                                             "NSVariant": .int(Self.operatorCodes[c.op]!), "NSOptions": .int(c.options.rawValue)])
            default:
                op = object(c.op == .like ? "NSLikePredicateOperator" : "NSBeginsWithPredicateOperator",
                            ["NSOperatorType": .int(Self.operatorCodes[c.op]!), "NSModifier": .int(modifier), "NSFlags": .int(c.options.rawValue)])
            }
            return object("NSComparisonPredicate", ["NSLeftExpression": encodeExpression(c.lhs), "NSRightExpression": encodeExpression(c.rhs),
                                                    "NSPredicateOperator": op])
        }
    }

    mutating func encodeExpression(_ e: ObjectExpression) -> PropertyListValue {
        switch e {
        case .constant(let v):
            return object("NSConstantValueExpression", ["NSExpressionType": .int(0), "NSConstantValue": value(v)])
        case .evaluatedObject:
            return object("NSSelfExpression", ["NSExpressionType": .int(1)])
        case .variable(let name):
            return object("NSVariableExpression", ["NSExpressionType": .int(2), "NSVariable": string(name)])
        case .keyPath(let path):
            // A key path is a function expression: valueForKey: sent to SELF with the key as a specifier.
            let operand = object("NSSelfExpression", ["NSExpressionType": .int(1)])
            let key = object("NSKeyPathSpecifierExpression", ["NSExpressionType": .int(10), "NSKeyPath": string(path)])
            return object("NSKeyPathExpression", ["NSExpressionType": .int(3), "NSOperand": operand,
                                                  "NSSelectorName": string(path.contains(".") ? "valueForKeyPath:" : "valueForKey:"),
                                                  "NSArguments": array([key])])
        case .member(let base, let path):
            let key = object("NSKeyPathSpecifierExpression", ["NSExpressionType": .int(10), "NSKeyPath": string(path)])
            return object("NSKeyPathExpression", ["NSExpressionType": .int(3), "NSOperand": encodeExpression(base),
                                                  "NSSelectorName": string("valueForKeyPath:"), "NSArguments": array([key])])
        case .function(let selector, let args):
            let utilities = object("NSConstantValueExpression", ["NSExpressionType": .int(0), "NSConstantValue": string("_NSPredicateUtilities")])
            return object("NSFunctionExpression", ["NSExpressionType": .int(4), "NSOperand": utilities, "NSSelectorName": string(selector),
                                                   "NSArguments": array(args.map { encodeExpression($0) })])
        case .aggregate(let items):
            return object("NSAggregateExpression", ["NSExpressionType": .int(14), "NSCollection": array(items.map { encodeExpression($0) })])
        case .subquery(let collection, let variable, let predicate):
            return object("NSSubqueryExpression", ["NSExpressionType": .int(13), "NSExpression": encodeExpression(collection),
                                                   "NSVariable": string(variable), "NSSubpredicate": encodePredicate(predicate)])
        default:
            return object("NSConstantValueExpression", ["NSExpressionType": .int(0), "NSConstantValue": .uid(0)])
        }
    }
}
