import Foundation
import Testing
import Predicates

@Suite("ObjectValue equality")
struct ObjectValueTests {
    @Test("numbers compare numerically across integer, double, decimal and boolean")
    func numericEquality() {
        #expect(ObjectValue.int(1) == .double(1.0))
        #expect(ObjectValue.decimal(Decimal(string: "2.5")!) == .double(2.5))
        #expect(ObjectValue.bool(true) == .int(1))
        #expect(ObjectValue.int(2) != .double(2.5))
    }

    @Test("a string never equals a number")
    func stringIsNotNumber() {
        #expect(ObjectValue.string("1") != .int(1))
    }

    @Test("equal values hash alike, so sets treat 1 and 1.0 as one value")
    func hashing() {
        #expect(Set<ObjectValue>([.int(1), .double(1.0), .string("1")]).count == 2)
    }

    @Test("a dictionary answers missing keys with nil, a string refuses keys")
    func keyValueCoding() throws {
        let row: ObjectValue = ["name": "Milk"]
        #expect(try row.value(forKey: "name") == "Milk")
        #expect(try row.value(forKey: "missing") == .null)
        #expect(throws: KeyValueError.unknownKey("length", typeName: "String")) {
            try ObjectValue.string("x").value(forKey: "length")
        }
    }
}
