import Foundation
import Testing
import Predicates
import TestSupport

/// The examples of the fetching article and the programming guide excerpt, with Apple's
/// semantics where the article's asides differ.
@Suite("Examples from the seed documents")
struct SeedExampleTests {
    static let joe: ObjectValue = ["name": "Joe", "age": 19, "lastName": "Smith"]
    static let mary: ObjectValue = ["name": "Mary", "age": 30, "lastName": "Jones"]
    static let bob: ObjectValue = ["name": "Bob", "age": 40, "Bob": "Bob"]

    @Test("a number constant in the format, and strings through %@")
    func basicFormats() throws {
        let pred1 = try ObjectPredicate(format: "age <= 21")
        let pred2 = try ObjectPredicate(format: "name == %@ OR name == %@", "Mary", "Joe")
        #expect(try pred1.evaluate(with: Self.joe))
        #expect(try !pred1.evaluate(with: Self.mary))
        #expect(try pred2.evaluate(with: Self.mary))
        #expect(try !pred2.evaluate(with: Self.bob))
        #expect(pred2.predicateFormat == "name == \"Mary\" OR name == \"Joe\"")
    }

    @Test("an unquoted word is a key path, a quoted one a string")
    func unquotedWords() throws {
        let keyPath = try ObjectPredicate(format: "name == Bob")
        #expect(keyPath == .comparison(ComparisonPredicate(.keyPath("name"), .equalTo, .keyPath("Bob"))))
        #expect(try keyPath.evaluate(with: Self.bob))
        #expect(try !keyPath.evaluate(with: Self.joe))
        let string = try ObjectPredicate(format: "name == 'Bob'")
        #expect(try string.evaluate(with: Self.bob))
    }

    @Test("string operators are case-sensitive by default, whatever the article says")
    func caseSensitiveByDefault() throws {
        #expect(try !ObjectPredicate(format: "name CONTAINS 'bob'").evaluate(with: Self.bob))
        #expect(try ObjectPredicate(format: "name CONTAINS[c] 'bob'").evaluate(with: Self.bob))
        let cd = try ObjectPredicate(format: "name LIKE[cd] %@", "Bob")
        for name in ["Bob", "bob", "BOB", "Böb", "BÒB"] {
            #expect(try cd.evaluate(with: ["name": .string(name)]), "\(name)")
        }
        #expect(try !ObjectPredicate(format: "name LIKE %@", "Bob").evaluate(with: ["name": "Böb"]))
    }

    @Test("LIKE wildcards: * for any run, ? for exactly one character", arguments: [
        ("w*t", "wet", true), ("w*t", "woot", true), ("w*t", "well I'd like to see you again if you permit it", true),
        ("w?t", "wet", true), ("w?t", "wat", true), ("w?t", "woot", false),
    ])
    func likeWildcards(_ pattern: String, _ name: String, _ expected: Bool) throws {
        let p = try ObjectPredicate(format: "name LIKE %@", pattern)
        #expect(try p.evaluate(with: ["name": .string(name)]) == expected)
    }

    @Test("%@ substitutes values, not keys; %K substitutes keys")
    func keysAndValues() throws {
        let values = try ObjectPredicate(format: "%@ == %@", "name", "Joe")
        #expect(values.predicateFormat == "\"name\" == \"Joe\"")
        #expect(try !values.evaluate(with: Self.joe))
        let keys = try ObjectPredicate(format: "%K == %@", "name", "Joe")
        #expect(keys.predicateFormat == "name == \"Joe\"")
        #expect(try keys.evaluate(with: Self.joe))
    }

    @Test("a format built in two steps matches one key and value")
    func twoStepFormat() throws {
        let key = "lastName"
        let p = try ObjectPredicate(format: "\(key) == %@", "Smith")
        #expect(try [Self.joe, Self.mary].filter { try p.evaluate(with: $0) } == [Self.joe])
        let byID = try ObjectPredicate(format: "id == %@", 192)
        #expect(try byID.evaluate(with: ["id": .int(192)]))
        #expect(try !byID.evaluate(with: ["id": "192"]))
    }

    @Test("a fetch predicate with a missing operator is a syntax error; the intended one works")
    func guideFetchPredicate() throws {
        assertSyntaxError("(lastName LIKE[c] 'Worsley') AND (salary %@)", [.int(50_000)],
                          expected: "a comparison operator after salary", at: (1, 42))
        let p = try ObjectPredicate(format: "(lastName LIKE[c] 'Worsley') AND (salary > %@)", 50_000)
        #expect(try p.evaluate(with: ["lastName": "WORSLEY", "salary": 60_000]))
        #expect(try !p.evaluate(with: ["lastName": "Worsley", "salary": 40_000]))
    }

    @Test("self == %@ and self IN %@ find specific objects")
    func specificObjects() throws {
        let a = Person(id: 1, ["name": "A"])
        let b = Person(id: 2, ["name": "B"])
        let c = Person(id: 3, ["name": "C"])
        let all: [ObjectValue] = [.object(a), .object(b), .object(c)]
        let one = try ObjectPredicate(format: "self == %@", ObjectValue.object(b))
        #expect(try all.filter { try one.evaluate(with: $0) } == [.object(b)])
        let some = try ObjectPredicate(format: "self IN %@", [ObjectValue.object(a), .object(c)])
        #expect(try all.filter { try some.evaluate(with: $0) } == [.object(a), .object(c)])
    }

    @Test("the largest and smallest salary through max: and min:")
    func expressionValues() throws {
        let rows: ObjectValue = [["salary": 50], ["salary": 75], ["salary": 62]]
        #expect(try ObjectExpression.function("max:", [.keyPath("salary")]).evaluate(with: rows) == 75)
        #expect(try ObjectExpression(format: "min:(salary)").evaluate(with: rows) == 50)
    }
}
