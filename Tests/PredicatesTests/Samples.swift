import Foundation
import Predicates

/// An object with identity and an entity name, standing in for a managed object.
final class Person: KeyValueObject, CustomStringConvertible {
    let id: Int
    var values: [String: ObjectValue]

    init(id: Int, _ values: [String: ObjectValue]) {
        self.id = id
        self.values = values
    }

    var identity: AnyHashable { id }
    var keyValueTypeName: String { "Person" }
    var description: String { "<Person \(id)>" }

    func value(forKey key: String) throws -> ObjectValue {
        guard let v = values[key] else { throw KeyValueError.unknownKey(key, typeName: "Person") }
        return v
    }
}

/// A receiver for `FUNCTION(...)`.
final class Calculator: KeyValueObject, ExpressionFunctionTarget {
    var identity: AnyHashable { ObjectIdentifier(self) }
    var keyValueTypeName: String { "Calculator" }
    func value(forKey key: String) throws -> ObjectValue { .null }

    func performFunction(_ selector: String, arguments: [ObjectValue]) throws -> ObjectValue {
        switch selector {
        case "double:": return .int((arguments.first?.intValue ?? 0) * 2)
        case "join:with:": return .string((arguments[0].stringValue ?? "") + (arguments[1].stringValue ?? ""))
        default: throw PredicateEvaluationError(.unsupportedFunction, "no \(selector)", key: selector)
        }
    }
}

enum Samples {
    static let epoch = Date(timeIntervalSinceReferenceDate: 0)

    /// A dictionary with a value of every kind.
    static let ann: ObjectValue = [
        "name": "Ann",
        "age": 34,
        "score": 7.5,
        "price": .decimal(Decimal(string: "2.50")!),
        "flag": true,
        "nothing": nil,
        "born": .date(epoch),
        "tags": ["red", "Blue", "green"],
        "scores": [3, 5, 8],
        "empty": [],
        "note": "Crème brûlée",
        "title": "a*b?c",
        "text": "line one\nline two",
        "address": ["city": "Zürich", "zip": "8001"],
        "friends": .set([
            ["name": "Bob", "age": 41, "pets": ["Rex"]],
            ["name": "Cy", "age": 29, "pets": []],
        ]),
        "Record1": ["Name": "John", "Age": 34, "Children": ["Kid1", "Kid2"]],
        "Record2": ["Name": "Mary", "Age": 30, "Children": ["Kid1", "Girl1"]],
    ]
}
