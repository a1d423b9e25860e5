import Foundation
import Testing
import Predicates
import TestSupport

/// A format string, its arguments, and the canonical format Core Data prints for it.
struct FormatCase: Sendable, CustomTestStringConvertible {
    var format: String
    var arguments: [ObjectValue]
    var printed: String

    init(_ format: String, _ arguments: [ObjectValue] = [], printed: String? = nil) {
        self.format = format
        self.arguments = arguments
        self.printed = printed ?? format
    }

    var testDescription: String { format }
}

@Suite("Canonical format strings")
struct FormattingTests {
    /// Outputs as Core Data prints them (reference §1.7), and the canonical spelling of
    /// every construct.
    static let cases: [FormatCase] = [
        .init("property == \"Donald\""),
        .init("property = 'Donald'", printed: "property == \"Donald\""),
        .init("isMale == YES", printed: "isMale == 1"),
        .init("isMale == true", printed: "isMale == 1"),
        .init("isMale == %@", [.bool(true)], printed: "isMale == 1"),
        .init("isMale == NO", printed: "isMale == 0"),
        .init("property == nil"),
        .init("property == NULL", printed: "property == nil"),
        .init("stubDate == %@", [.date(Date(timeIntervalSinceReferenceDate: 123456.5))],
              printed: "stubDate == CAST(123456.5, \"NSDate\")"),
        .init("stubDate == CAST(0, 'NSDate')", printed: "stubDate == CAST(0, \"NSDate\")"),
        .init("%@ like %@", [.string("firstName"), .string("Adam")], printed: "\"firstName\" LIKE \"Adam\""),
        .init("SELF like[c] 'prefix*suffix'", printed: "SELF LIKE[c] \"prefix*suffix\""),
        .init("NOT property BEGINSWITH \"Desp\""),
        .init("not property beginswith 'Desp'", printed: "NOT property BEGINSWITH \"Desp\""),
        .init("stubRaw IN {1, 2}"),
        .init("stubRaw IN %@", [[.int(1), .int(2)]], printed: "stubRaw IN {1, 2}"),
        .init("score BETWEEN {1, 10}"),
        .init("(score > 10 AND name BEGINSWITH \"To\") AND name ENDSWITH \"ta\""),
        .init("score > 10 AND (name BEGINSWITH \"To\" OR name ENDSWITH \"ta\")"),
        .init("score > 10 AND name BEGINSWITH \"To\" AND name ENDSWITH \"ta\""),
        .init("a == 1 OR b == 2 AND c == 3", printed: "a == 1 OR (b == 2 AND c == 3)"),
        .init("NOT (a == 1 OR b == 2)"),
        .init("property == %@", [.string("Quote \"")], printed: "property == \"Quote \\\"\""),
        .init("property == %@", [.string("Quote \\")], printed: "property == \"Quote \\\\\""),
        .init("property == %@", [.string("two\nlines")], printed: "property == \"two\\nlines\""),
        .init("name BEGINSWITH[c] \"a\""),
        .init("name BEGINSWITH[d] \"a\""),
        .init("name BEGINSWITH[cd] \"a\""),
        .init("name BEGINSWITH[dc] \"a\"", printed: "name BEGINSWITH[cd] \"a\""),
        .init("name BEGINSWITH[n] \"a\""),
        .init("name ==[c] \"a\""),
        .init("a != 1"),
        .init("a <> 1", printed: "a != 1"),
        .init("a =< 1", printed: "a <= 1"),
        .init("a => 1", printed: "a >= 1"),
        .init("a < 1 AND b > 2 AND c <= 3 AND d >= 4"),
        .init("a CONTAINS \"x\" OR a ENDSWITH \"y\" OR a LIKE \"z\" OR a MATCHES \"w\""),
        .init("ANY tags.name == \"x\""),
        .init("SOME tags.name == \"x\"", printed: "ANY tags.name == \"x\""),
        .init("ALL scores > 3"),
        .init("NONE scores > 3"),
        .init("TRUEPREDICATE"),
        .init("FALSEPREDICATE"),
        .init("truepredicate AND falsepredicate", printed: "TRUEPREDICATE AND FALSEPREDICATE"),
        .init("a+b*2 == 3", printed: "a + (b * 2) == 3"),
        .init("(a + b) * 2 == 3"),
        .init("a - b - c == 0", printed: "(a - b) - c == 0"),
        .init("a ** 2 / b == 1", printed: "(a ** 2) / b == 1"),
        .init("-a == 1", printed: "0 - a == 1"),
        .init("a == -1.5"),
        .init("a == 2.5e-10"),
        .init("a == 0x1f", printed: "a == 31"),
        .init("a == 0b11", printed: "a == 3"),
        .init("a == 0o10", printed: "a == 8"),
        .init("a == 1.0", printed: "a == 1"),
        .init("$x.name == \"a\""),
        .init("SELF.name == \"a\""),
        .init("SELF == \"a\""),
        .init("self == 'a'", printed: "SELF == \"a\""),
        .init("#size == 1"),
        .init("item.#first == 1"),
        .init("item.first == 1", printed: "item.#first == 1"),
        .init("children.@count > 0"),
        .init("@sum.items.price < 1000"),
        .init("items.@avg.price < 1000"),
        .init("a[0] == 1"),
        .init("a[FIRST] == 1"),
        .init("a[last] == 1", printed: "a[LAST] == 1"),
        .init("a[SIZE] == 1"),
        .init("d[\"key\"] == 1"),
        .init("{a, 1} CONTAINS 1"),
        .init("a IN {}"),
        .init("SUBQUERY(friends, $f, $f.age > 40).@count > 1"),
        .init("subquery(friends, $f, $f.age > 40 and $f.name == 'x')[SIZE] == 0",
              printed: "SUBQUERY(friends, $f, $f.age > 40 AND $f.name == \"x\")[SIZE] == 0"),
        .init("sum(scores) > 1", printed: "sum:(scores) > 1"),
        .init("sum:(scores) > 1"),
        .init("avg(scores) > 1", printed: "average:(scores) > 1"),
        .init("count:({1, 2}) == 2"),
        .init("now() > a"),
        .init("random() < 1"),
        .init("add:to:(1, 2) == 3", printed: "1 + 2 == 3"),
        .init("modulus:by:(a, 2) == 1"),
        .init("uppercase:(name) == \"A\""),
        .init("FUNCTION($m, \"name:with:\", 1, \"x\") == 1", printed: "FUNCTION($m, \"name:with:\" , 1, \"x\") == 1"),
        .init("FUNCTION(a, \"pow:\", 3) == 8", printed: "FUNCTION(a, \"pow:\" , 3) == 8"),
        .init("FUNCTION('a', 'uppercase') == 'A'", printed: "FUNCTION(\"a\", \"uppercase\") == \"A\""),
        .init("a.firstName.length == 3"),
        .init("$a == 1"),
        .init("$a.$b == 1", printed: "$a[$b] == 1"),
        .init("function(SELF, 'size') == 1", printed: "FUNCTION(SELF, \"size\") == 1"),
        .init("CAST(a, \"NSNumber\") == 1"),
        .init("CAST(\"2.5\", \"NSDecimalNumber\") == a"),
        .init("CAST(a, 'NSString') == '1'", printed: "CAST(a, \"NSString\") == \"1\""),
        .init("TERNARY(a > 1, \"big\", \"small\") == \"big\""),
        .init("a UNION b CONTAINS 1"),
        .init("stubOption & 3 == 3"),
        .init("a | b ^ c == 0", printed: "(a | b) ^ c == 0"),
        .init("a << 1 + 1 >> b == 0", printed: "(a << (1 + 1)) >> b == 0"),
        .init("bitwiseOr:with:(a, 1) == 1", printed: "a | 1 == 1"),
        .init("(a INTERSECT b) MINUS c CONTAINS 1"),
        .init("x == %@", [.null], printed: "x == nil"),
        .init("x == %d", [.int(-3)], printed: "x == -3"),
        .init("x == %f", [.double(0.25)], printed: "x == 0.25"),
        .init("'%@' == \"%K\"", printed: "\"%@\" == \"%K\""),
        .init("name == 'a\"b'", printed: "name == \"a\\\"b\""),
        .init("name == \"a'b'c\""),
        .init("name == '\\u00e9'", printed: "name == \"é\""),
        .init("name == '\\x41\\101'", printed: "name == \"AA\""),
    ]

    @Test("prints the canonical format, and reading it back gives the same predicate", arguments: cases)
    func canonicalFormat(_ c: FormatCase) {
        assertParses(c.format, c.arguments, printed: c.printed)
    }

    @Test("a key path from %K prints as written, even when it reads back as a variable")
    func keyArgumentPrinting() throws {
        let p = try ObjectPredicate(format: "%K like %@+$b+$c", "$single", "b\"")
        #expect(p.predicateFormat == "$single LIKE (\"b\\\"\" + $b) + $c")
        let bound = try p.substitutingVariables(["single": "s", "b": "val_for_$b", "c": "val_for_$c"])
        #expect(bound.predicateFormat == "$single LIKE (\"b\\\"\" + \"val_for_$b\") + \"val_for_$c\"")
    }

    @Test("description is the predicate format")
    func description() throws {
        let p = try ObjectPredicate(format: "a == 1")
        #expect(p.description == "a == 1")
        #expect("\(try ObjectExpression(format: "a+1"))" == "a + 1")
    }

    @Test("constants of every kind survive a round trip through the format")
    func constantRoundTrip() throws {
        let values: [ObjectValue] = [
            .int(Int.max), .int(Int.min), .double(0.1), .double(1e300), .double(-2.5e-300),
            .double(.infinity), .decimal(Decimal(string: "12345.678901234567890")!),
            .date(Date(timeIntervalSinceReferenceDate: 754_000_123.123_456)),
            .string("tab\tquote\"back\\slash\u{1}"), .string("日本語 ✓"), .bool(false), .null,
            .array([.int(1), .string("x"), .array([])]),
        ]
        for v in values {
            let p = ObjectPredicate.comparison("k", .equalTo, v)
            let again = try ObjectPredicate(format: p.predicateFormat)
            #expect(again == p, "\(p.predicateFormat)")
        }
    }

    @Test("expressions print in their canonical form", arguments: [
        ("$source.name", "$source.name"),
        ("FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"ToDoToToDo\", $source.category)",
         "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"ToDoToToDo\", $source.category)"),
        ("1 + 2 * 3", "1 + (2 * 3)"),
        ("max({1, 5, 10})", "max:({1, 5, 10})"),
        ("-(-3)", "3"),
        ("- - x", "0 - (0 - x)"),
    ])
    func expressionFormat(_ input: String, _ printed: String) throws {
        let e = try ObjectExpression(format: input)
        #expect(e.expressionFormat == printed)
        #expect(try ObjectExpression(format: e.expressionFormat) == e)
    }
}
