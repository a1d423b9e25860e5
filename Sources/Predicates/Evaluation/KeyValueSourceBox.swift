import Foundation

/// Gives a value-type key-value source the identity `.object` needs.
final class KeyValueSourceBox: KeyValueObject {
    let source: any KeyValueCoding
    init(_ source: any KeyValueCoding) { self.source = source }
    var identity: AnyHashable { ObjectIdentifier(self) }
    func value(forKey key: String) throws -> ObjectValue { try source.value(forKey: key) }
    var keyValueTypeName: String { source.keyValueTypeName }
}
