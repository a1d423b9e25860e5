import Foundation

/// Reads dotted key paths, with key-value coding's collection operators.
///
/// `department.name` reads `department` then `name`; through a to-many relationship the
/// result is the collection of the elements' values. A string answers `length` (in UTF-16
/// units, as `NSString` counts) and `description` (itself). `@count` counts the collection so
/// far; `@sum`, `@avg`, `@min`, `@max` apply to the rest of the path read from each element
/// (`items.@sum.price`); `@unionOfObjects`, `@distinctUnionOfObjects`, `@unionOfArrays`,
/// `@distinctUnionOfArrays` and `@distinctUnionOfSets` collect values.
///
/// ```swift
/// try ObjectKeyPath.value(of: "items.@sum.price", in: order)
/// ```
public enum ObjectKeyPath {
    /// The value at `path` in `base`.
    public static func value(of path: String, in base: ObjectValue) throws -> ObjectValue {
        if !path.contains("."), !path.hasPrefix("@") {
            return try read(path, from: base)
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return try value(of: components[...], in: base)
    }

    private static func value(of components: ArraySlice<String>, in base: ObjectValue) throws -> ObjectValue {
        var current = base
        var rest = components
        while let key = rest.popFirst() {
            guard key.hasPrefix("@") else {
                do {
                    current = try read(key, from: current)
                } catch let error as MissingObjectError
                            where error.isMissingObject && rest.startIndex > components.startIndex + 1 {
                    // Past a reference to a row that is gone: nothing, as a join finds.
                    current = .null
                }
                continue
            }
            if key == "@count" {
                current = .int(try elements(of: current, for: key).count)
                continue
            }
            let items = try elements(of: current, for: key)
            let mapped = rest.isEmpty ? items : try items.map { try value(of: rest, in: $0) }
            rest = []
            switch key {
            case "@sum": current = try ExpressionFunction.all["sum:"]!.apply([.array(mapped)])
            case "@avg": current = try ExpressionFunction.all["average:"]!.apply([.array(mapped)])
            case "@min": current = try ExpressionFunction.all["min:"]!.apply([.array(mapped)])
            case "@max": current = try ExpressionFunction.all["max:"]!.apply([.array(mapped)])
            case "@unionOfObjects": current = .array(mapped.filter { !$0.isNull })
            case "@distinctUnionOfObjects":
                current = .array(distinct(mapped.filter { !$0.isNull }))
            case "@unionOfArrays", "@unionOfSets":
                current = .array(try mapped.flatMap { try elements(of: $0, for: key) })
            case "@distinctUnionOfArrays", "@distinctUnionOfSets":
                current = .array(distinct(try mapped.flatMap { try elements(of: $0, for: key) }))
            default:
                throw PredicateEvaluationError(.unknownKey, "unknown collection operator \(key)",
                                               key: key, typeName: current.typeName)
            }
        }
        return current
    }

    /// One key read from one value, with the key-value error turned into an evaluation error.
    static func read(_ key: String, from value: ObjectValue) throws -> ObjectValue {
        if case .dictionary(let d) = value { return d[key] ?? .null }
        if key == "self" { return value }
        if case .string(let s) = value {
            // The keys a string answers in key-value coding.
            switch key {
            case "length": return .int(s.utf16.count)
            case "description": return value
            default: break
            }
        }
        do {
            return try value.value(forKey: key)
        } catch let KeyValueError.unknownKey(k, typeName) {
            var error = PredicateEvaluationError(.unknownKey, "\(typeName) has no key '\(k)'", key: k, typeName: typeName)
            if case .object(let source) = value { error.entityName = source.keyValueEntityName }
            throw error
        }
    }

    static func elements(of value: ObjectValue, for key: String) throws -> [ObjectValue] {
        switch value {
        case .array(let a), .set(let a): return a
        case .dictionary(let d): return Array(d.values)
        case .null: return []
        default:
            throw PredicateEvaluationError(.typeMismatch, "\(key) needs a collection, got \(value.typeName)",
                                           key: key, typeName: value.typeName)
        }
    }

    private static func distinct(_ values: [ObjectValue]) -> [ObjectValue] {
        var seen = Set<ObjectValue>()
        return values.filter { seen.insert($0).inserted }
    }
}
