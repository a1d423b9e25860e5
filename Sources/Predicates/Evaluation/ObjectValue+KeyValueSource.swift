import Foundation

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
