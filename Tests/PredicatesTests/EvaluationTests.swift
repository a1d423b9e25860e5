import Foundation
import Testing
import Predicates
import TestSupport

/// One row of an evaluation table: a format with its arguments, and the answer for `Samples.ann`.
struct EvaluationCase: Sendable, CustomTestStringConvertible {
    var format: String
    var arguments: [ObjectValue]
    var expected: Bool

    init(_ format: String, _ arguments: [ObjectValue], _ expected: Bool) {
        self.format = format
        self.arguments = arguments
        self.expected = expected
    }

    init(_ format: String, _ expected: Bool) {
        self.init(format, [], expected)
    }

    var testDescription: String { "\(format) → \(expected)" }
}

@Suite("Evaluating predicates against an object")
struct EvaluationTests {
    static let comparisons: [EvaluationCase] = [
        .init("age == 34", true),
        .init("age = 34", true),
        .init("age == 34.0", true),
        .init("age != 34", false),
        .init("age <> 35", true),
        .init("age < 40", true),
        .init("age <= 34", true),
        .init("age =< 33", false),
        .init("age > 34", false),
        .init("age >= 34", true),
        .init("age => 35", false),
        .init("score > 7", true),
        .init("score < 7.6", true),
        .init("price == 2.5", true),
        .init("price < 3", true),
        .init("price > %@", [.double(2.49)], true),
        .init("flag == YES", true),
        .init("flag == TRUE", true),
        .init("flag == 1", true),
        .init("flag == NO", false),
        .init("flag == FALSE", false),
        .init("age == '34'", false),
        .init("name == 'Ann'", true),
        .init("name == \"Ann\"", true),
        .init("name == 'ann'", false),
        .init("name ==[c] 'ann'", true),
        .init("name !=[c] 'ann'", false),
        .init("name !=[c] 'grace'", true),
        .init("age ==[c] 34", true),
        .init("name < 'Bob'", true),
        .init("name <[c] 'b'", true),
        .init("name < 'b'", true),
        .init("name > 'B'", false),
        .init("note ==[d] 'Creme brulee'", true),
        .init("note == 'Creme brulee'", false),
        .init("note ==[cd] 'CREME BRULEE'", true),
        .init("note ==[n] 'Crème brûlée'", true),
        .init("born == CAST(0, 'NSDate')", true),
        .init("born < CAST(1, \"NSDate\")", true),
        .init("born > %@", [.date(Date(timeIntervalSinceReferenceDate: -10))], true),
        .init("born == %@", [.date(Samples.epoch)], true),
        .init("born BETWEEN %@", [[.date(Date(timeIntervalSinceReferenceDate: -5)), .date(Samples.epoch)]], true),
    ]

    static let nulls: [EvaluationCase] = [
        .init("nothing == nil", true),
        .init("nothing == NULL", true),
        .init("nothing = NIL", true),
        .init("nothing != nil", false),
        .init("name == nil", false),
        .init("name != nil", true),
        .init("missing == nil", true),
        .init("nothing < 5", false),
        .init("nothing > 5", false),
        .init("nothing <= 5", false),
        .init("nothing >= 5", false),
        .init("5 > nothing", false),
        .init("nothing == 0", false),
        .init("nothing == ''", false),
        .init("nothing BEGINSWITH 'a'", false),
        .init("nothing LIKE '*'", false),
        .init("nothing MATCHES '.*'", false),
        .init("nothing CONTAINS 'a'", false),
        .init("'a' IN nothing", false),
        .init("nothing IN {1, 2}", false),
        .init("nothing IN {1, nil}", true),
        .init("nothing BETWEEN {1, 2}", false),
        .init("name == %@", [.null], false),
        .init("nothing == %@", [.null], true),
    ]

    static let strings: [EvaluationCase] = [
        .init("name BEGINSWITH 'A'", true),
        .init("name BEGINSWITH 'a'", false),
        .init("name BEGINSWITH[c] 'a'", true),
        .init("name ENDSWITH 'nn'", true),
        .init("name ENDSWITH[c] 'NN'", true),
        .init("name BEGINSWITH ''", false),
        .init("name CONTAINS 'n'", true),
        .init("name CONTAINS 'N'", false),
        .init("name CONTAINS[c] 'N'", true),
        .init("name CONTAINS ''", false),
        .init("note CONTAINS 'rème'", true),
        .init("note CONTAINS 'reme'", false),
        .init("note CONTAINS[d] 'reme'", true),
        .init("note BEGINSWITH[cd] 'CREME'", true),
        .init("'AABBBAA' CONTAINS 'BBB'", true),
        .init("'BBB' IN 'AABBBAA'", true),
        .init("name IN 'JoAnna'", true),
        .init("name IN[c] 'joanna'", true),
        .init("'hello' == 'hel?o'", false),
        .init("'hello' LIKE 'hel?o'", true),
        .init("name LIKE 'A*'", true),
        .init("name LIKE 'a*'", false),
        .init("name LIKE[c] 'a*'", true),
        .init("name LIKE 'A?n'", true),
        .init("name LIKE 'A?'", false),
        .init("name LIKE '*'", true),
        .init("name LIKE 'Ann*'", true),
        .init("name LIKE '*n*n*'", true),
        .init("title LIKE 'a\\\\*b\\\\?c'", true),
        .init("title LIKE 'a\\*b\\?c'", true),
        .init("name LIKE 'A\\\\*'", false),
        .init("text LIKE 'line*two'", true),
        .init("'a.b' LIKE 'a.b'", true),
        .init("'axb' LIKE 'a.b'", false),
        .init("'[ab]' LIKE '[ab]'", true),
        .init("'a' LIKE '[ab]'", false),
        .init("'a$^b' LIKE 'a$^b'", true),
        .init("'abc' LIKE[c] 'A?C'", true),
        .init("name MATCHES 'A.*'", true),
        .init("name MATCHES 'a.*'", false),
        .init("name MATCHES[c] 'a.*'", true),
        .init("name MATCHES 'An'", false),
        .init("name MATCHES 'A|An|Ann'", true),
        .init("name MATCHES '[A-Z][a-z]+'", true),
        .init("address.zip MATCHES %@", [.string("\\d{4}")], true),
        .init("text MATCHES %@", [.string(".*^line two$")], true),
        .init("text MATCHES %@", [.string("^line one$")], false),
        .init("text MATCHES 'line.*two'", true),
        .init("note MATCHES[d] 'Creme.*'", true),
    ]

    static let collections: [EvaluationCase] = [
        .init("age IN {33, 34, 35}", true),
        .init("age IN {1, 2}", false),
        .init("age IN %@", [[.int(1), .int(34)]], true),
        .init("age IN %@", [.set([.double(34.0)])], true),
        .init("name IN {'Ann', 'Bob'}", true),
        .init("name IN[c] {'ann', 'bob'}", true),
        .init("name IN {'ann', 'bob'}", false),
        .init("'red' IN tags", true),
        .init("'Red' IN tags", false),
        .init("'blue' IN[c] tags", true),
        .init("tags CONTAINS 'green'", true),
        .init("tags CONTAINS 'yellow'", false),
        .init("tags CONTAINS[c] 'BLUE'", true),
        .init("'Zürich' IN address", true),
        .init("address CONTAINS '8001'", true),
        .init("age BETWEEN {30, 40}", true),
        .init("age BETWEEN {34, 34}", true),
        .init("age BETWEEN {35, 40}", false),
        .init("1 BETWEEN {0, 33}", true),
        .init("score BETWEEN %@", [[.int(7), .int(8)]], true),
        .init("name BETWEEN {'A', 'B'}", true),
        .init("ANY scores > 7", true),
        .init("ANY scores > 8", false),
        .init("SOME scores == 5", true),
        .init("ALL scores > 2", true),
        .init("ALL scores > 3", false),
        .init("NONE scores > 8", true),
        .init("NONE scores > 7", false),
        .init("ALL empty > 100", true),
        .init("ANY empty > 100", false),
        .init("NONE empty == 1", true),
        .init("ANY tags BEGINSWITH 'gr'", true),
        .init("ANY tags ==[c] 'BLUE'", true),
        .init("ALL tags MATCHES '[a-zA-Z]+'", true),
        .init("ANY friends.name == 'Bob'", true),
        .init("ANY friends.name == 'Dan'", false),
        .init("ANY friends.age > 40", true),
        .init("ALL friends.age > 40", false),
        .init("NONE friends.age > 50", true),
        .init("ANY tags IN {'green', 'black'}", true),
        .init("ANY %K == %@", [.string("Record2.Children"), .string("Girl1")], true),
        .init("%@ IN %K", [.string("Kid1"), .string("Record1.Children")], true),
        .init("scores[0] == 3", true),
        .init("scores[2] == 8", true),
        .init("scores[FIRST] == 3", true),
        .init("scores[LAST] == 8", true),
        .init("scores[SIZE] == 3", true),
        .init("tags[size] == 3", true),
        .init("address['city'] == 'Zürich'", true),
        .init("address[SIZE] == 2", true),
        .init("SELF[SIZE] > 5", true),
        .init("empty[FIRST] == nil", true),
        .init("{1, 2, 3}[1] == 2", true),
    ]

    static let keyPaths: [EvaluationCase] = [
        .init("address.city == 'Zürich'", true),
        .init("address.country == nil", true),
        .init("SELF.name == 'Ann'", true),
        .init("self.name == 'Ann'", true),
        .init("%K == %@", [.string("Record1.Name"), .string("John")], true),
        .init("%K MATCHES[c] %@", [.string("Record1.Name"), .string("john")], true),
        .init("%K BEGINSWITH %@", [.string("Record1.Name"), .string("Jo")], true),
        .init("(%K == %@) AND (%K == %@)", [.string("Record1.Name"), .string("John"), .string("Record2.Name"), .string("Mary")], true),
        .init("%K == %d", [.string("Record1.Age"), .int(34)], true),
        .init("%K < %d", [.string("Record1.Age"), .int(40)], true),
        .init("%K < %f", [.string("Record1.Age"), .double(40.5)], true),
        .init("%f > %K", [.double(40.5), .string("Record1.Age")], true),
        .init("(%K == %d) OR (%K == %d)", [.string("Record1.Age"), .int(34), .string("Record2.Age"), .int(34)], true),
        .init("%K BETWEEN %@", [.string("Record1.Age"), [.int(20), .int(40)]], true),
        .init("scores.@count == 3", true),
        .init("tags.@count == 3", true),
        .init("empty.@count == 0", true),
        .init("scores.@sum == 16", true),
        .init("scores.@avg > 5.3", true),
        .init("scores.@avg < 5.4", true),
        .init("scores.@max == 8", true),
        .init("scores.@min == 3", true),
        .init("friends.@count == 2", true),
        .init("friends.@sum.age == 70", true),
        .init("friends.@avg.age == 35", true),
        .init("friends.@max.age == 41", true),
        .init("friends.@min.age == 29", true),
        .init("'Rex' IN friends.@unionOfArrays.pets", true),
        .init("count(friends.@distinctUnionOfObjects.name) == 2", true),
        .init("'Cy' IN friends.@unionOfObjects.name", true),
        .init("#size == nil", true),
        .init("SUBQUERY(friends, $f, $f.age > 30).@count == 1", true),
        .init("SUBQUERY(friends, $f, $f.age > age).@count == 1", true),
        .init("SUBQUERY(friends, $f, $f.name == 'Bob' AND $f.age > age).@count == 1", true),
        .init("SUBQUERY(friends, $f, ANY $f.pets == 'Rex').@count > 0", true),
        .init("SUBQUERY(empty, $x, $x > 0).@count == 0", true),
    ]

    static let compounds: [EvaluationCase] = [
        .init("age > 30 AND name == 'Ann'", true),
        .init("age > 30 && name == 'Bob'", false),
        .init("age > 40 OR name == 'Ann'", true),
        .init("age > 40 || name == 'Bob'", false),
        .init("NOT age > 40", true),
        .init("!(age > 30)", false),
        .init("NOT(age > 30)", false),
        .init("! age > 40", true),
        .init("NOT NOT age > 30", true),
        .init("TRUEPREDICATE", true),
        .init("FALSEPREDICATE", false),
        .init("truepredicate", true),
        .init("FALSEPREDICATE OR age == 34", true),
        .init("TRUEPREDICATE AND FALSEPREDICATE", false),
        .init("age == 1 OR age == 34 AND name == 'Ann'", true),
        .init("age == 34 OR age == 1 AND name == 'Bob'", true),
        .init("(age == 34 OR age == 1) AND name == 'Bob'", false),
        .init("NOT age == 34 OR name == 'Ann'", true),
        .init("NOT (age == 34 OR name == 'Ann')", false),
        .init("((age == 34))", true),
        .init("(age + 1) == 35", true),
        .init("(age) == 34", true),
        .init("name == %@ OR name == %@", [.string("Mary"), .string("Joe")], false),
        .init("name == %@ OR name == %@", [.string("Ann"), .string("Joe")], true),
        .init("age <= 21", false),
        .init("name == Bob", false),
    ]

    static let arithmetic: [EvaluationCase] = [
        .init("age + 1 == 35", true),
        .init("age - 4 == 30", true),
        .init("age * 2 == 68", true),
        .init("age / 4 == 8.5", true),
        .init("2 ** 3 == 8", true),
        .init("1 + 2 * 3 == 7", true),
        .init("(1 + 2) * 3 == 9", true),
        .init("2 ** 3 ** 2 == 64", true),
        .init("10 - 2 - 3 == 5", true),
        .init("-age == -34", true),
        .init("- 3 + 5 == 2", true),
        .init("score * 2 == 15", true),
        .init("price * 2 == 5", true),
        .init("0x1F == 31", true),
        .init("0X10 == 16", true),
        .init("0o17 == 15", true),
        .init("0b101 == 5", true),
        .init("1e3 == 1000", true),
        .init("2.5E-1 == 0.25", true),
        .init(".5 == 0.5", true),
        .init("score > .5e1", true),
        .init("price > 2.", true),
        .init("{1., 2} CONTAINS 1", true),
        .init("7. / 2 == 3.5", true),
        .init("1.e3 == 1000", true),
        .init("2.E-1 == 0.2", true),
        .init("{.25, 1} CONTAINS 0.25", true),
        .init("-0x10 == -16", true),
        .init("sum(scores) == 16", true),
        .init("count(tags) == 3", true),
        .init("max({1, 5, 3}) == 5", true),
        .init("average:(scores) > 5", true),
        .init("abs(-5) == 5", true),
        .init("uppercase(name) == 'ANN'", true),
        .init("lowercase:(name) == 'ann'", true),
        .init("now() > %@", [.date(Samples.epoch)], true),
        .init("TERNARY(age > 30, 'old', 'young') == 'old'", true),
        .init("TERNARY(age > 40, 'old', 'young') == 'old'", false),
        .init("CAST('34', 'NSNumber') == age", true),
        .init("CAST(age, 'NSString') == '34'", true),
        .init("1 << 3 == 8", true),
        .init("2 | 1 == 3", true),
        .init("2 ^ 1 == 3", true),
        .init("6 & 3 == 2", true),
        .init("16 >> 2 == 4", true),
        .init("age & 2 == 2", true),
        .init("1 + 1 << 2 == 8", true),
    ]

    static let arguments: [EvaluationCase] = [
        .init("name == %@", [.string("Ann")], true),
        .init("%K == %@", [.string("name"), .string("Ann")], true),
        .init("%@ == %@", [.string("name"), .string("Ann")], false),
        .init("name == '%@'", [.string("Ann")], false),
        .init("'%@' == '%@'", [], true),
        .init("age == %d", [.int(34)], true),
        .init("age == %i", [.int(34)], true),
        .init("age == %ld", [.int(34)], true),
        .init("age == %lld", [.int(34)], true),
        .init("age == %lu", [.int(34)], true),
        .init("age == %u", [.int(34)], true),
        .init("age == %x", [.int(34)], true),
        .init("age == %qd", [.int(34)], true),
        .init("score == %f", [.double(7.5)], true),
        .init("score == %lf", [.double(7.5)], true),
        .init("score == %g", [.double(7.5)], true),
        .init("name == %s", [.string("Ann")], true),
        .init("flag == %@", [.bool(true)], true),
        .init("age IN %@", [.array([.int(34)])], true),
        .init("age BETWEEN %@", [[.int(30), .int(40)]], true),
        .init("born == %@", [.date(Samples.epoch)], true),
        .init("nothing == %@", [.null], true),
        .init("SELF == %@", [Samples.ann], true),
        .init("SELF IN %@", [[Samples.ann]], true),
        .init("name LIKE[cd] %@", [.string("ANN")], true),
    ]

    @Test("an integer against a double compares exactly, as SQLite does: 2^53 + 1 is more than 2^53, Int64.max less than 2^63")
    func integerAgainstDouble() throws {
        let big = ObjectValue.int(9_007_199_254_740_993)
        #expect(try !ComparisonPredicate.test(big, .equalTo, .double(9_007_199_254_740_992)))
        #expect(try ComparisonPredicate.test(big, .greaterThan, .double(9_007_199_254_740_992)))
        #expect(try ComparisonPredicate.test(.double(9_007_199_254_740_992), .lessThan, big))
        #expect(try ComparisonPredicate.test(.int(Int.max), .lessThan, .double(9_223_372_036_854_775_808)))
        #expect(try ComparisonPredicate.test(.int(3), .equalTo, .double(3)))
        #expect(try ComparisonPredicate.test(.int(3), .lessThan, .double(3.5)))
        #expect(try ComparisonPredicate.test(.int(-3), .greaterThan, .double(-3.5)))
        #expect(try !ComparisonPredicate.test(.int(1), .equalTo, .double(.nan)))
    }

    @Test("comparison operators follow Core Data's equality and ordering", arguments: comparisons)
    func comparisonOperators(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("nil matches only nil, and ordering against nil is false", arguments: nulls)
    func nilSemantics(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("string operators are case- and diacritic-sensitive unless told otherwise", arguments: strings)
    func stringOperators(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("collections answer IN, CONTAINS, BETWEEN, qualifiers and indexes", arguments: collections)
    func collectionOperators(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("key paths reach through relationships and collection operators", arguments: keyPaths)
    func keyPathsAndOperators(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("NOT binds tighter than AND, which binds tighter than OR", arguments: compounds)
    func compoundPredicates(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("arithmetic, numeric literals and functions compute values", arguments: arithmetic)
    func arithmeticExpressions(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("format arguments substitute values and key paths", arguments: arguments)
    func formatArguments(_ c: EvaluationCase) {
        assertEvaluates(c.format, c.arguments, on: Samples.ann, to: c.expected)
    }

    @Test("SELF is the evaluated value itself")
    func evaluatedObject() throws {
        let pitches: [ObjectValue] = ["Do", "Re", "Mi", "Fa", "So", "La"]
        let p = try ObjectPredicate(format: "SELF == 'Do'")
        #expect(try pitches.filter { try p.evaluate(with: $0) } == ["Do"])
        let quoted = try ObjectPredicate(format: "SELF == '%@'", "Do")
        #expect(try pitches.filter { try quoted.evaluate(with: $0) } == [])
        #expect(try ObjectPredicate(format: "SELF LIKE[c] 'prefix*suffix'").evaluate(with: "PREFIX-middle-suffix"))
    }

    @Test("a dictionary, an object and nil in one array filter without errors")
    func filteringMixedValues() throws {
        let rows: [ObjectValue] = [["key": "value1"], ["key": "value2"], .null]
        let p = try ObjectPredicate(format: "key == %@", "value2")
        #expect(try rows.filter { try p.evaluate(with: $0) } == [["key": "value2"]])
        let none = try ObjectPredicate(format: "anotherKey == %@", "value1")
        #expect(try rows.filter { try none.evaluate(with: $0) }.isEmpty)
    }

    @Test("objects compare by identity, and evaluate through their keys")
    func objects() throws {
        let a = Person(id: 1, ["name": "Ann", "boss": .null])
        let b = Person(id: 2, ["name": "Bob", "boss": .object(a)])
        #expect(try ObjectPredicate(format: "boss == %@", ObjectValue.object(a)).evaluate(with: b))
        #expect(try ObjectPredicate(format: "boss.name == 'Ann'").evaluate(with: b))
        #expect(try !ObjectPredicate(format: "boss == %@", ObjectValue.object(b)).evaluate(with: b))
        #expect(try ObjectPredicate(format: "SELF IN %@", [ObjectValue.object(a), .object(b)]).evaluate(with: a))
        #expect(try ObjectPredicate(format: "SELF == %@", ObjectValue.object(Person(id: 1, [:]))).evaluate(with: a))
    }

    @Test("variables are read at evaluation time")
    func evaluationVariables() throws {
        let p = try ObjectPredicate(format: "age BETWEEN {$LOWER, $UPPER} AND name == $NAME")
        #expect(try p.evaluate(with: Samples.ann, variables: ["LOWER": 30, "UPPER": 40, "NAME": "Ann"]))
        #expect(try !p.evaluate(with: Samples.ann, variables: ["LOWER": 35, "UPPER": 40, "NAME": "Ann"]))
        let indexed = try ObjectPredicate(format: "$a[0] == 1 AND $a[$i] == 3 AND $d[$k].name == 'x'")
        #expect(try indexed.evaluate(with: .null, variables: [
            "a": [1, 2, 3], "i": 2, "d": ["key": ["name": "x"]], "k": "key",
        ]))
    }

    @Test("FUNCTION calls a receiver that performs the selector")
    func customFunctions() throws {
        let calc = Calculator()
        let vars: [String: ObjectValue] = ["calc": .object(calc)]
        #expect(try ObjectPredicate(format: "FUNCTION($calc, 'double:', age) == 68").evaluate(with: Samples.ann, variables: vars))
        let e = try ObjectExpression(format: "FUNCTION($calc, \"join:with:\", name, '!')")
        #expect(try e.evaluate(with: Samples.ann, variables: vars) == "Ann!")
    }

    @Test("a struct that answers keys evaluates like a dictionary")
    func keyValueCodingSource() throws {
        struct Row: KeyValueCoding {
            func value(forKey key: String) throws -> ObjectValue {
                key == "name" ? "Milk" : .null
            }
            var keyValueTypeName: String { "Row" }
        }
        #expect(try ObjectPredicate(format: "name BEGINSWITH 'M'").evaluate(with: Row()))
        let dict: [String: ObjectValue] = ["done": false]
        #expect(try ObjectPredicate(format: "done == NO").evaluate(with: dict))
    }
}
