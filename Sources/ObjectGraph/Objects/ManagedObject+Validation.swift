import Foundation
import ObjectModel
import Predicates

extension ManagedObject {
    /// Checks the model's rules for every property: required values, bounds, lengths,
    /// patterns, relationship counts (to-many counts only of changed relationships when
    /// `onlyChanged`).
    public func validateModelRules(onlyChanged: Bool) throws {
        try throwIfAny(propertyFailures(onlyChanged: onlyChanged))
    }

    /// Checks the Deny delete rules: a Deny rule refuses while the relationship still
    /// holds objects that are not deleted too.
    public func validateDenyRules() throws {
        var failures: [ValidationFailure] = []
        for (i, r) in entity.relationships.enumerated() where r.deleteRule == .deny {
            // Read as needed: an object deleted as a fault (no undo manager fires it) still
            // holds its destinations in the store, and the rule must see them.
            let members = (try? relatedObjects(i)) ?? []
            let remaining = members.filter { !$0.isDeleted }
            if let first = remaining.first {
                failures.append(ValidationFailure(
                    code: .relationshipDeniedDelete, object: self, key: r.name, value: .object(first),
                    reason: "cannot be deleted while \(r.name) holds \(first.entity.name) \(first.objectID)"
                        + (remaining.count > 1 ? " and \(remaining.count - 1) more" : "") + " (Deny rule)"))
            }
        }
        try throwIfAny(failures)
    }

    /// Checks one value against its property's rules without setting it.
    public func validateValue(_ value: ObjectValue, forKey key: String) -> [ValidationFailure] {
        guard let a = entity.attribute(named: key) else { return [] }
        return attributeFailures(a, value) + customFailures(a, value)
    }

    /// The subclass's own verdict on an attribute value; plain objects have none.
    private func customFailures(_ a: AttributeDescription, _ value: ObjectValue) -> [ValidationFailure] {
        guard type(of: self) != ManagedObject.self,
              let reason = validationReason(for: value, forKey: a.name) else { return [] }
        return [failure(.generic, a.name, value, reason)]
    }

    private func throwIfAny(_ failures: [ValidationFailure]) throws {
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    func propertyFailures(onlyChanged: Bool) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let traits = entity.attributeTraits
        let isSubclass = type(of: self) != ManagedObject.self
        for i in traits.indices {
            let value = attributeValues?[i] ?? .null
            // Most attributes have no rule beyond being required: checked without copying them.
            if isSubclass, !onlyChanged || changedKeys.contains(entity.attributes[i].name) {
                failures += customFailures(entity.attributes[i], value)
            }
            if value.isNull ? traits[i].isOptional : !traits[i].hasValueRules { continue }
            failures += attributeFailures(entity.attributes[i], value)
        }
        for (i, r) in entity.relationships.enumerated() {
            if onlyChanged && !changedKeys.contains(r.name) { continue }
            if r.isToMany {
                // Only a rule on the count needs it, and then a fault is counted, not loaded:
                // an owner of a million members that gained one is validated without reading them.
                guard !r.isOptional || r.minCount > 0 || r.maxCount > 0 else { continue }
                guard let count = try? memberCount(i) else { continue }
                failures += Self.ruleFailures(ofMemberCount: count, for: r).map {
                    failure($0.code, r.name, count == 0 ? .set([]) : .int(count), $0.reason)
                }
            } else if !r.isOptional, case .toOne(nil) = relationshipValues[i] {
                failures.append(failure(.missingMandatoryProperty, r.name, .null, "is required"))
            }
        }
        return failures
    }

    /// The model's rules for a to-many relationship that a count of members breaks
    /// (required, minimum, maximum), each with its code and reason.
    public static func ruleFailures(ofMemberCount count: Int, for r: RelationshipDescription) -> [(code: ValidationFailure.Code, reason: String)] {
        if count == 0 { return r.isOptional ? [] : [(.missingMandatoryProperty, "is required")] }
        var failures: [(code: ValidationFailure.Code, reason: String)] = []
        if r.minCount > 0 && count < r.minCount {
            failures.append((.relationshipLacksMinimumCount, "holds \(count) objects, fewer than the minimum \(r.minCount)"))
        }
        if r.maxCount > 0 && count > r.maxCount {
            failures.append((.relationshipExceedsMaximumCount, "holds \(count) objects, more than the maximum \(r.maxCount)"))
        }
        return failures
    }

    /// How many members a to-many holds: counted in the store (and the context's changes)
    /// while it is a fault, counted in memory once loaded.
    private func memberCount(_ index: Int) throws -> Int {
        if case .toManyFault = relationshipValues[index], let context = managedObjectContext {
            return try context.count(ofRelationship: entity.relationships[index].name, of: self)
        }
        return try toManyMembers(index).count
    }

    private func attributeFailures(_ a: AttributeDescription, _ value: ObjectValue) -> [ValidationFailure] {
        Self.ruleFailures(of: value, for: a).map { failure($0.code, a.name, value, $0.reason) }
    }

    /// The model's rules for an attribute that a value breaks (required, bounds, length,
    /// pattern), each with its code and reason (`is required`): what validating an object
    /// with this value reports, for checking values before there is an object, as an
    /// import does.
    public static func ruleFailures(of value: ObjectValue, for a: AttributeDescription) -> [(code: ValidationFailure.Code, reason: String)] {
        if value.isNull {
            return a.isOptional ? [] : [(.missingMandatoryProperty, "is required")]
        }
        var failures: [(code: ValidationFailure.Code, reason: String)] = []
        func failure(_ code: ValidationFailure.Code, _ key: String, _ value: ObjectValue, _ reason: String) -> (code: ValidationFailure.Code, reason: String) {
            (code, reason)
        }
        switch a.type {
        case .string, .binary:
            let length: Int
            switch value {
            case .string(let s): length = s.count
            case .data(let d): length = d.count
            default: length = 0
            }
            func amount(_ n: Int) -> String { "\(n) \(a.type == .string ? "character" : "byte")\(n == 1 ? "" : "s")" }
            if let min = a.minimum?.intValue, length < min {
                let message = length == 0 && min == 1 ? "cannot be empty"
                    : "is \(length) long, shorter than the minimum of \(amount(min))"
                failures.append(failure(.stringTooShort, a.name, value, message))
            }
            if let max = a.maximum?.intValue, length > max {
                failures.append(failure(.stringTooLong, a.name, value, "is \(length) long, longer than the maximum of \(amount(max))"))
            }
            if let pattern = a.regularExpression, case .string(let s) = value, let regex = RegexCache.shared.regex(pattern) {
                let range = NSRange(s.startIndex..., in: s)
                if regex.firstMatch(in: s, range: range) == nil {
                    failures.append(failure(.stringPatternMatching, a.name, value, "does not match /\(pattern)/"))
                }
            }
        case .date:
            if let min = a.minimum?.dateValue, let d = value.dateValue, d < min {
                failures.append(failure(.dateTooSoon, a.name, value, "is earlier than \(ISO8601DateFormatter().string(from: min))"))
            }
            if let max = a.maximum?.dateValue, let d = value.dateValue, d > max {
                failures.append(failure(.dateTooLate, a.name, value, "is later than \(ISO8601DateFormatter().string(from: max))"))
            }
        default:
            if a.type.isNumeric, let v = value.doubleValue {
                if let min = a.minimum?.doubleValue, v < min {
                    failures.append(failure(.numberTooSmall, a.name, value, "is smaller than the minimum \(Self.number(a.minimum!))"))
                }
                if let max = a.maximum?.doubleValue, v > max {
                    failures.append(failure(.numberTooLarge, a.name, value, "is larger than the maximum \(Self.number(a.maximum!))"))
                }
            }
        }
        return failures
    }

    private static func number(_ v: ObjectValue) -> String {
        if let i = v.intValue { return String(i) }
        return "\(v.doubleValue ?? 0)"
    }

    private func failure(_ code: ValidationFailure.Code, _ key: String, _ value: ObjectValue, _ reason: String) -> ValidationFailure {
        ValidationFailure(code: code, object: self, key: key, value: value, reason: reason)
    }
}

/// Compiled attribute patterns, so that validating many objects compiles each pattern once.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression?] = [:]

    /// The whole-string expression for a pattern; `nil` when it does not compile.
    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$")
        compiled[pattern] = regex
        return regex
    }
}
