import Foundation
import Testing
import Predicates
import TestSupport

@Suite("Parsing format strings into predicates")
struct ParsingTests {
    @Test("OR binds loosest, then AND, then NOT")
    func precedence() throws {
        let a = ObjectPredicate.comparison("a", .equalTo, 1)
        let b = ObjectPredicate.comparison("b", .equalTo, 2)
        let c = ObjectPredicate.comparison("c", .equalTo, 3)
        #expect(try ObjectPredicate(format: "a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try ObjectPredicate(format: "a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try ObjectPredicate(format: "NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try ObjectPredicate(format: "NOT (a == 1 AND b == 2)") == .not(.and([a, b])))
        #expect(try ObjectPredicate(format: "a == 1 || b == 2 && !c == 3") == .or([a, .and([b, .not(c)])]))
        #expect(try ObjectPredicate(format: "a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try ObjectPredicate(format: "(a == 1 AND b == 2) AND c == 3") == .and([.and([a, b]), c]))
    }

    @Test("keywords are recognised in any case")
    func keywordCase() throws {
        let upper = try ObjectPredicate(format: "ANY tags BEGINSWITH[C] 'a' AND NOT name LIKE 'x' OR a IN {TRUE, NIL}")
        let lower = try ObjectPredicate(format: "any tags beginswith[c] 'a' and not name like 'x' or a in {true, nil}")
        let mixed = try ObjectPredicate(format: "Any tags BeginsWith[c] 'a' And Not name Like 'x' Or a In {True, Nil}")
        #expect(upper == lower)
        #expect(upper == mixed)
    }

    @Test("literals parse to values of the right kind", arguments: [
        ("1", ObjectValue.int(1)), ("1.0", .double(1)), ("1.5", .double(1.5)), ("-7", .int(-7)),
        ("9.2e-5", .double(9.2e-5)), ("0x1F", .int(31)), ("0o17", .int(15)), ("0b1010", .int(10)),
        ("TRUE", .bool(true)), ("yes", .bool(true)), ("FALSE", .bool(false)), ("no", .bool(false)),
        ("NULL", .null), ("nil", .null), ("'text'", .string("text")), ("\"text\"", .string("text")),
        ("'a\\tb'", .string("a\tb")), ("'\\u0041'", .string("A")), ("{1, 'a'}", .array([1, "a"])),
        ("9223372036854775807", .int(Int.max)), ("-9223372036854775808", .double(-9223372036854775808.0)),
        ("CAST(10, 'NSDate')", .date(Date(timeIntervalSinceReferenceDate: 10))),
    ])
    func literals(_ text: String, _ value: ObjectValue) throws {
        let e = try ObjectExpression(format: text)
        #expect(e == .constant(value))
    }

    @Test("TRUE prints as the number 1 but is parsed as a boolean")
    func booleanKinds() throws {
        guard case .comparison(let c) = try ObjectPredicate(format: "a == TRUE") else {
            Issue.record("not a comparison"); return
        }
        guard case .constant(.bool(true)) = c.rhs else { Issue.record("rhs is \(c.rhs)"); return }
    }

    @Test("comparisons keep their sides, operator, modifier and options")
    func comparisonShape() throws {
        let p = try ObjectPredicate(format: "ALL tags.name CONTAINS[cd] $x")
        #expect(p == .comparison(ComparisonPredicate(
            .keyPath("tags.name"), .contains, .variable("x"),
            modifier: .all, options: [.caseInsensitive, .diacriticInsensitive])))
        #expect(try ObjectPredicate(format: "'a' IN list") ==
            .comparison(ComparisonPredicate(.constant("a"), .in, .keyPath("list"))))
    }

    @Test("expressions have documented shapes")
    func expressionShapes() throws {
        #expect(try ObjectExpression(format: "a + b") == .function("add:to:", [.keyPath("a"), .keyPath("b")]))
        #expect(try ObjectExpression(format: "a - b") == .function("from:subtract:", [.keyPath("a"), .keyPath("b")]))
        #expect(try ObjectExpression(format: "a * b") == .function("multiply:by:", [.keyPath("a"), .keyPath("b")]))
        #expect(try ObjectExpression(format: "a / b") == .function("divide:by:", [.keyPath("a"), .keyPath("b")]))
        #expect(try ObjectExpression(format: "a ** b") == .function("raise:toPower:", [.keyPath("a"), .keyPath("b")]))
        #expect(try ObjectExpression(format: "$x.name.first") == .member(.variable("x"), keyPath: "name.first"))
        #expect(try ObjectExpression(format: "a.b.@count") == .keyPath("a.b.@count"))
        #expect(try ObjectExpression(format: "{a, 1}") == .aggregate([.keyPath("a"), .constant(1)]))
        #expect(try ObjectExpression(format: "a[FIRST]") == .index(.keyPath("a"), .first))
        #expect(try ObjectExpression(format: "SUBQUERY(a, $x, $x > 1)") == .subquery(
            collection: .keyPath("a"), variable: "x",
            predicate: .comparison(ComparisonPredicate(.variable("x"), .greaterThan, .constant(1)))))
        #expect(try ObjectExpression(format: "CAST(a, 'NSString')") == .cast(.keyPath("a"), type: "NSString"))
        #expect(try ObjectExpression(format: "FUNCTION(SELF, 'x:', 1)") ==
            .customFunction(receiver: .evaluatedObject, selector: "x:", arguments: [.constant(1)]))
        #expect(try ObjectExpression(format: "TERNARY(TRUEPREDICATE, 1, 2)") == .ternary(.true, .constant(1), .constant(2)))
        #expect(try ObjectExpression(format: "a UNION b") == .setOperation(.union, .keyPath("a"), .keyPath("b")))
        #expect(try ObjectExpression(format: "#and") == .keyPath("and"))
    }

    @Test("%K inserts a key path, even one that looks like a variable")
    func keyArgument() throws {
        #expect(try ObjectPredicate(format: "%K == 1", "a.b") == .comparison(ComparisonPredicate(.keyPath("a.b"), .equalTo, .constant(1))))
        #expect(try ObjectPredicate(format: "%K == 1", "$single") == .comparison(ComparisonPredicate(.keyPath("$single"), .equalTo, .constant(1))))
    }

    @Test("arguments of every kind become constants", arguments: [
        ObjectValue.string("s"), .int(1), .double(2.5), .bool(true), .null, .date(Date(timeIntervalSince1970: 0)),
        .array([1, 2]), .set(["a"]), .decimal(1), .uuid(UUID()), .data(Data([1, 2])), .dictionary(["k": 1]),
    ])
    func objectArguments(_ value: ObjectValue) throws {
        let p = try ObjectPredicate(format: "x == %@", argumentArray: [value])
        #expect(p == .comparison(ComparisonPredicate(.keyPath("x"), .equalTo, .constant(value))))
    }

    @Test("an object or object ID argument is a constant compared by identity")
    func objectArgument() throws {
        let a = Person(id: 7, [:])
        let p = try ObjectPredicate(format: "SELF == %@", ObjectValue.object(a))
        #expect(p == .comparison(ComparisonPredicate(.evaluatedObject, .equalTo, .constant(.object(Person(id: 7, [:]))))))
    }

    @Test("extra arguments are ignored")
    func extraArguments() throws {
        #expect(try ObjectPredicate(format: "a == %@", 1, 2) == .comparison("a", .equalTo, 1))
    }

    @Test("whitespace and newlines between tokens do not matter")
    func whitespace() throws {
        #expect(try ObjectPredicate(format: "  a\n==\t1 \n AND\n b==2 ") == ObjectPredicate(format: "a == 1 AND b == 2"))
    }
}

@Suite("Building predicates in code")
struct BuilderTests {
    @Test("a comparison from a key path, operator and value")
    func comparisonBuilder() throws {
        let p = ObjectPredicate.comparison("name", .beginsWith, "Jo", options: .caseInsensitive)
        #expect(p.predicateFormat == "name BEGINSWITH[c] \"Jo\"")
        #expect(try p.evaluate(with: ["name": "john"]))
        let q = ObjectPredicate.comparison("tags", .equalTo, "x", modifier: .any)
        #expect(q.predicateFormat == "ANY tags == \"x\"")
    }

    @Test("compound predicates from existing predicates")
    func compounds() throws {
        let pred1 = try ObjectPredicate(format: "age <= 21")
        let pred2 = try ObjectPredicate(format: "name == %@ OR name == %@", "Mary", "Joe")
        let and = ObjectPredicate.and([pred1, pred2])
        let or = ObjectPredicate.or([pred1, pred2])
        let not = ObjectPredicate.not(.and([pred1, pred2]))
        #expect(and.predicateFormat == "age <= 21 AND (name == \"Mary\" OR name == \"Joe\")")
        #expect(or.predicateFormat == "age <= 21 OR (name == \"Mary\" OR name == \"Joe\")")
        #expect(not.predicateFormat == "NOT (age <= 21 AND (name == \"Mary\" OR name == \"Joe\"))")
        let joe: ObjectValue = ["age": 20, "name": "Joe"]
        let mary: ObjectValue = ["age": 30, "name": "Mary"]
        #expect(try and.evaluate(with: joe))
        #expect(try !and.evaluate(with: mary))
        #expect(try or.evaluate(with: mary))
        #expect(try !not.evaluate(with: joe))
        #expect(and.subpredicates == [pred1, pred2])
    }

    @Test("a dictionary of keys and values joins equality predicates by AND or OR")
    func matchingDictionary() throws {
        let values: [String: any ObjectValueConvertible] = ["publisher": "BookCo", "salesRank": 482769]
        let any = ObjectPredicate.matching(values, usingOR: true)
        let all = ObjectPredicate.matching(values)
        #expect(any.predicateFormat == "publisher == \"BookCo\" OR salesRank == 482769")
        #expect(all.predicateFormat == "publisher == \"BookCo\" AND salesRank == 482769")
        let book: ObjectValue = ["publisher": "BookCo", "salesRank": 1]
        #expect(try any.evaluate(with: book))
        #expect(try !all.evaluate(with: book))
        #expect(ObjectPredicate.matching(["id": 192]).predicateFormat == "id == 192")
    }

    @Test("empty compounds are TRUEPREDICATE for AND and FALSEPREDICATE for OR")
    func emptyCompounds() throws {
        #expect(try ObjectPredicate.and([]).evaluate(with: .null))
        #expect(try !ObjectPredicate.or([]).evaluate(with: .null))
        #expect(ObjectPredicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(ObjectPredicate.or([]).predicateFormat == "FALSEPREDICATE")
    }
}
