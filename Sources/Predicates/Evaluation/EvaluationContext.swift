import Foundation

/// What an expression is evaluated against: the object (`SELF`) and the variables.
struct EvaluationContext {
    var object: ObjectValue
    var variables: [String: ObjectValue]

    func binding(_ name: String, to value: ObjectValue) -> EvaluationContext {
        var copy = self
        copy.variables[name] = value
        return copy
    }
}

extension ObjectValue {
    /// A key-value source as a value: itself when it is an `ObjectValue`, an `.object` for
    /// objects, a `.dictionary` for dictionaries, and a wrapping object otherwise.
    ///
    /// ```swift
    /// ObjectValue(keyValueSource: ["name": "Milk"] as [String: ObjectValue])   // .dictionary
    /// ```
    public init(keyValueSource source: some KeyValueCoding) {
        if let v = source as? ObjectValue {
            self = v
        } else if let o = source as? any KeyValueObject {
            self = .object(o)
        } else if let d = source as? [String: ObjectValue] {
            self = .dictionary(d)
        } else {
            self = .object(KeyValueSourceBox(source))
        }
    }
}

/// Gives a value-type key-value source the identity `.object` needs.
final class KeyValueSourceBox: KeyValueObject {
    let source: any KeyValueCoding
    init(_ source: any KeyValueCoding) { self.source = source }
    var identity: AnyHashable { ObjectIdentifier(self) }
    func value(forKey key: String) throws -> ObjectValue { try source.value(forKey: key) }
    var keyValueTypeName: String { source.keyValueTypeName }
}
