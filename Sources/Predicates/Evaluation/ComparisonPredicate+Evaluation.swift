import Foundation

extension ComparisonPredicate {
    func matches(_ context: EvaluationContext) throws -> Bool {
        do {
            return try compareValues(context)
        } catch var error as PredicateEvaluationError where error.key == nil && error.reason == .typeMismatch {
            // Name the key and the object's type, so the message points at the culprit.
            if let key = lhs.keyPathName {
                error.key = key
                error.message += " for key '\(key)' of \(context.object.typeName)"
            }
            throw error
        }
    }

    private func compareValues(_ context: EvaluationContext) throws -> Bool {
        let left = try lhs.value(in: context)
        let right = try rhs.value(in: context)
        switch modifier {
        case .direct:
            return try ComparisonPredicate.test(left, op, right, options: options)
        case .any, .none, .all:
            var items: [ObjectValue]
            switch left {
            case .array(let a), .set(let a):
                // A key path through two to-many steps (projects.members.name) gives each
                // project's names: the quantifier is over all of them, as in SQL.
                items = lhs.keyPathName?.contains(".") == true ? Self.flattened(a) : a
            case .dictionary(let d): items = Array(d.values)
            case .null: items = []
            default:
                throw PredicateEvaluationError(
                    .typeMismatch,
                    "\(modifier.rawValue) needs a collection on the left of \(op.rawValue), got \(left.typeName)",
                    key: lhs.keyPathName, typeName: left.typeName)
            }
            switch modifier {
            case .all:
                for item in items where !(try ComparisonPredicate.test(item, op, right, options: options)) { return false }
                return true
            default:
                var found = false
                for item in items where try ComparisonPredicate.test(item, op, right, options: options) {
                    found = true
                    break
                }
                return modifier == .any ? found : !found
            }
        }
    }

    /// The elements of nested arrays and sets, in order, in one array.
    private static func flattened(_ items: [ObjectValue]) -> [ObjectValue] {
        guard items.contains(where: { if case .array = $0 { return true }; if case .set = $0 { return true }; return false }) else {
            return items
        }
        var result: [ObjectValue] = []
        for item in items {
            switch item {
            case .array(let inner), .set(let inner): result += flattened(inner)
            default: result.append(item)
            }
        }
        return result
    }

    private static func orderingCollection(_ value: ObjectValue) -> PredicateEvaluationError {
        PredicateEvaluationError(.typeMismatch,
                                 "a collection (\(value.typeName)) cannot be ordered against a value; compare each element with ANY, ALL or NONE",
                                 typeName: value.typeName)
    }

    /// Applies an operator to two values with Core Data's semantics.
    ///
    /// `==` is `isEqual:` (a string never equals a number; `[c]`/`[d]` apply to strings);
    /// ordering compares numbers, strings and dates and is false against nil or between
    /// kinds that do not compare; string operators are false when either side is nil.
    ///
    /// ```swift
    /// try ComparisonPredicate.test("Straße", .beginsWith, "STR", options: .caseInsensitive)   // true
    /// ```
    ///
    /// - Throws: `PredicateEvaluationError` when an operator meets a kind it cannot take
    ///   (`LIKE` on a number, `IN` against a number).
    public static func test(_ l: ObjectValue, _ op: ComparisonOperator, _ r: ObjectValue,
                            options: ComparisonOptions = []) throws -> Bool {
        switch op {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between:
            // A collection has no order with a value (Foundation raises on compare:): a
            // to-many key path compared without ANY, ALL or NONE is a mistake, not no match.
            if case .array = l { throw orderingCollection(l) }
            if case .set = l { throw orderingCollection(l) }
            if op != .between, case .array = r { throw orderingCollection(r) }
            if op != .between, case .set = r { throw orderingCollection(r) }
        default:
            break
        }
        switch op {
        case .equalTo:
            return equal(l, r, options)
        case .notEqualTo:
            return !equal(l, r, options)
        case .lessThan:
            return ObjectValue.compare(l, r, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            guard let c = ObjectValue.compare(l, r, options: options) else { return false }
            return c != .orderedDescending
        case .greaterThan:
            return ObjectValue.compare(l, r, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            guard let c = ObjectValue.compare(l, r, options: options) else { return false }
            return c != .orderedAscending
        case .between:
            guard let bounds = r.collectionElements, bounds.count == 2 else {
                throw PredicateEvaluationError(.typeMismatch,
                                               "BETWEEN needs a collection of two values on the right, got \(r.typeName)",
                                               typeName: r.typeName)
            }
            guard let low = ObjectValue.compare(l, bounds[0], options: options),
                  let high = ObjectValue.compare(l, bounds[1], options: options) else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .in:
            return try contains(container: r, element: l, options, op)
        case .contains:
            return try contains(container: l, element: r, options, op)
        case .beginsWith, .endsWith, .like, .matches:
            if l.isNull || r.isNull { return false }
            guard case .string(let s) = l, case .string(let pattern) = r else {
                let culprit = l.stringValue == nil ? l : r
                throw PredicateEvaluationError(.typeMismatch,
                                               "\(op.rawValue) needs strings, got \(culprit.typeName)",
                                               typeName: culprit.typeName)
            }
            switch op {
            case .beginsWith:
                let (a, b) = (options.fold(s), options.fold(pattern))
                return !b.isEmpty && a.hasPrefix(b)
            case .endsWith:
                let (a, b) = (options.fold(s), options.fold(pattern))
                return !b.isEmpty && a.hasSuffix(b)
            case .like:
                return LikePattern(pattern, options: options).matches(s)
            default:
                return try RegularExpressionMatcher.matches(s, pattern: pattern, options: options)
            }
        }
    }

    private static func equal(_ l: ObjectValue, _ r: ObjectValue, _ options: ComparisonOptions) -> Bool {
        if !options.isEmpty, case .string(let a) = l, case .string(let b) = r {
            return options.fold(a).utf8.elementsEqual(options.fold(b).utf8)
        }
        return l == r
    }

    private static func contains(container: ObjectValue, element: ObjectValue,
                                 _ options: ComparisonOptions, _ op: ComparisonOperator) throws -> Bool {
        switch container {
        case .array(let items), .set(let items):
            if options.isEmpty, case .set = container { return Set(items).contains(element) }
            return items.contains { equal($0, element, options) }
        case .dictionary(let d):
            return d.values.contains { equal($0, element, options) }
        case .string(let s):
            if element.isNull { return false }
            guard case .string(let needle) = element else {
                throw PredicateEvaluationError(.typeMismatch,
                                               "\(op.rawValue) with a string needs a string, got \(element.typeName)",
                                               typeName: element.typeName)
            }
            let folded = options.fold(needle)
            return !folded.isEmpty && options.fold(s).contains(folded)
        case .null:
            return false
        default:
            throw PredicateEvaluationError(
                .typeMismatch,
                "\(op.rawValue) needs a collection or a string \(op == .in ? "on the right" : "on the left"), got \(container.typeName)",
                typeName: container.typeName)
        }
    }
}
