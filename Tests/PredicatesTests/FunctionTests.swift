import Foundation
import Testing
import Predicates

@Suite("Expressions and predefined functions")
struct FunctionTests {
    static let values: [(String, ObjectValue)] = [
        ("sum({1, 2, 3})", 6),
        ("sum:({1, 2.5})", 3.5),
        ("sum({})", 0),
        ("sum(scores)", 16),
        ("count({1, 2, 3})", 3),
        ("count(tags)", 3),
        ("min({3, 1, 2})", 1),
        ("max({3, 1, 2})", 3),
        ("max({'a', 'c', 'b'})", "c"),
        ("max({})", nil),
        ("average({1, 2, 3, 4})", 2.5),
        ("avg({2, 4})", 3.0),
        ("median({5, 1, 3})", 3),
        ("median({4, 1, 3, 2})", 2.5),
        ("mode({1, 2, 2, 3, 3})", [2, 3]),
        ("stddev({2, 4, 4, 4, 5, 5, 7, 9})", 2.0),
        ("sqrt(16)", 4.0),
        ("log(1000)", 3.0),
        ("ln(1)", 0.0),
        ("exp(0)", 1.0),
        ("floor(2.7)", 2.0),
        ("floor(-2.5)", -3.0),
        ("ceiling(2.1)", 3.0),
        ("trunc(-2.7)", -2.0),
        ("abs(-3)", 3),
        ("abs(-2.5)", 2.5),
        ("add:to:(2, 3)", 5),
        ("from:subtract:(2, 3)", -1),
        ("multiply:by:(2, 3)", 6),
        ("divide:by:(7, 2)", 3.5),
        ("modulus:by:(7, 3)", 1),
        ("raise:toPower:(2, 10)", 1024.0),
        ("bitwiseAnd:with:(6, 3)", 2),
        ("bitwiseOr:with:(2, 1)", 3),
        ("bitwiseXor:with:(2, 3)", 1),
        ("leftshift:by:(1, 3)", 8),
        ("rightshift:by:(16, 2)", 4),
        ("onesComplement:(0)", -1),
        ("uppercase('abc')", "ABC"),
        ("lowercase('ÀBC')", "àbc"),
        ("canonical:('Crème')", "creme"),
        ("length:('héllo')", 5),
        ("noindex:(age)", 34),
        ("9223372036854775807 + 1", 9223372036854775808.0),
        ("7 / 2", 3.5),
        ("2.5 * 2", 5.0),
        ("price * 2", .decimal(5)),
        ("price + 1", .decimal(Decimal(string: "3.5")!)),
        ("age - 4", 30),
        ("{1, age}", [1, 34]),
        ("name", "Ann"),
        ("SELF.age", 34),
        ("address.city", "Zürich"),
        ("friends.@count", 2),
        ("scores[1]", 5),
        ("tags[LAST]", "green"),
        ("CAST(0, 'NSDate')", .date(Samples.epoch)),
        ("CAST(born, 'NSNumber')", 0.0),
        ("CAST('2.5', 'NSNumber')", 2.5),
        ("CAST('12', 'NSNumber')", 12),
        ("CAST(12, 'NSString')", "12"),
        ("CAST(1.5, 'NSString')", "1.5"),
        ("CAST('1.25', 'NSDecimalNumber')", .decimal(Decimal(string: "1.25")!)),
        ("TERNARY(age > 30, 'old', 'young')", "old"),
        ("SUBQUERY(scores, $s, $s > 4)", [5, 8]),
        ("{1, 2} UNION {2, 3}", .set([1, 2, 3])),
        ("{1, 2} INTERSECT {2, 3}", .set([2])),
        ("{1, 2} MINUS {2, 3}", .set([1])),
        ("-(2 + 3)", -5),
    ]

    @Test("expressions evaluate to the documented values", arguments: values)
    func evaluate(_ format: String, _ expected: ObjectValue) throws {
        let e = try ObjectExpression(format: format)
        #expect(try e.evaluate(with: Samples.ann) == expected)
    }

    @Test("now() is the current date and random() stays in range")
    func momentFunctions() throws {
        let before = Date()
        let now = try ObjectExpression(format: "now()").evaluate(with: .null)
        #expect(now.dateValue.map { $0 >= before && $0 <= Date() } == true)
        for _ in 0..<50 {
            let r = try ObjectExpression(format: "random()").evaluate(with: .null).doubleValue ?? -1
            #expect(r >= 0 && r < 1)
            let n = try ObjectExpression(format: "randomn:(3)").evaluate(with: .null).intValue ?? -1
            #expect((0..<3).contains(n))
        }
    }

    @Test("function names are accepted with or without their colon, in any case")
    func functionNames() {
        #expect(ExpressionFunction.named("sum")?.name == "sum:")
        #expect(ExpressionFunction.named("sum:")?.name == "sum:")
        #expect(ExpressionFunction.named("SUM")?.name == "sum:")
        #expect(ExpressionFunction.named("avg")?.name == "average:")
        #expect(ExpressionFunction.named("now")?.name == "now")
        #expect(ExpressionFunction.named("nosuchfunction:") == nil)
    }

    @Test("a migration value expression reads from its variables")
    func migrationExpressions() throws {
        let source: ObjectValue = ["name": "Milk", "category": "Dairy"]
        let e = try ObjectExpression(format: "$source.name")
        #expect(try e.evaluate(with: .null, variables: ["source": source]) == "Milk")
        final class Manager: KeyValueObject, ExpressionFunctionTarget {
            var identity: AnyHashable { 1 }
            var keyValueTypeName: String { "MigrationManager" }
            func value(forKey key: String) throws -> ObjectValue { .null }
            func performFunction(_ selector: String, arguments: [ObjectValue]) throws -> ObjectValue {
                .array([.string(selector)] + arguments)
            }
        }
        let f = try ObjectExpression(format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"ToDoToToDo\", $source.category)")
        let result = try f.evaluate(with: .null, variables: ["manager": .object(Manager()), "source": source])
        #expect(result == ["destinationInstancesForEntityMappingNamed:sourceInstances:", "ToDoToToDo", "Dairy"])
    }
}
