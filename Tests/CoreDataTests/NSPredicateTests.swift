// As a port writes it: `import CoreData` alone, which brings Foundation as Apple's does.
// (With `import Foundation` too, Foundation's own NSPredicate would make the name ambiguous.)
import CoreData
import Testing

/// Predicates, expressions and sort descriptors as Core Data code writes them: Apple's names
/// and signatures, one source file for both platforms.
@Suite("NSPredicate, NSExpression and NSSortDescriptor under import CoreData")
struct NSPredicateTests {
    let item: [String: Any] = [
        "name": "Water the ferns", "completed": false, "priority": 3,
        "dueDate": Date(timeIntervalSinceReferenceDate: 1_000), "tags": ["home", "plants"],
        "id": UUID(uuidString: "7A1C2B4E-5D6F-4A8B-9C0D-1E2F3A4B5C6D")!,
    ]

    @Test("a format string with arguments, as Core Data code passes them, reads and evaluates: Foundation's traps on Linux")
    func formatWithArguments() {
        #expect(NSPredicate.self == CoreData.NSPredicate.self, "import CoreData shadows Foundation's NSPredicate")
        let due = NSPredicate(format: "completed == NO AND dueDate < %@ AND priority >= %d", Date(timeIntervalSinceReferenceDate: 2_000) as NSDate, 2)
        #expect(due.evaluate(with: item))
        #expect(!due.evaluate(with: item.merging(["completed": true]) { $1 }))
        #expect(NSPredicate(format: "%K BEGINSWITH[c] %@", "name", "WATER").evaluate(with: item))
        #expect(NSPredicate(format: "id == %@", item["id"] as! UUID as CVarArg).evaluate(with: item))
        #expect(NSPredicate(format: "dueDate < %@", Date() as CVarArg).evaluate(with: item))
        #expect(NSPredicate(format: "ANY tags IN %@", ["plants", "garden"]).evaluate(with: item))
        #expect(!NSPredicate(format: "ANY tags IN %@", Set(["garden"])).evaluate(with: item))
        #expect(NSPredicate(format: "priority == %@", NSNumber(value: 3)).evaluate(with: item))
        #expect(NSPredicate(format: "completed == %@", NSNumber(value: false)).evaluate(with: item), "a Boolean NSNumber stays a Boolean")
        #expect(NSPredicate(format: "SELF == %@", NSNumber(value: Int8(1))).predicateFormat == "SELF == 1", "a small integer is not a Boolean")
        #expect(NSPredicate(format: "name CONTAINS %@", NSString(string: "ferns")).evaluate(with: item))
        #expect(due.predicateFormat == #"completed == 0 AND dueDate < CAST(2000, "NSDate") AND priority >= 2"#, "\(due.predicateFormat)")
    }

    @Test("argumentArray, substitution variables and constant predicates")
    func argumentsAndVariables() {
        let byName = NSPredicate(format: "name == %@ OR priority > %@", argumentArray: ["Buy milk", 2])
        #expect(byName.evaluate(with: item))
        let template = NSPredicate(format: "priority > $minimum")
        #expect(template.evaluate(with: item, substitutionVariables: ["minimum": 1]))
        #expect(!template.withSubstitutionVariables(["minimum": 5]).evaluate(with: item))
        #expect(template.withSubstitutionVariables(["minimum": 5]).predicateFormat == "priority > 5")
        #expect(NSPredicate(value: true).evaluate(with: nil) && !NSPredicate(value: false).evaluate(with: nil))
        #expect(NSPredicate(value: true).predicateFormat == "TRUEPREDICATE")
    }

    @Test("compound predicates join, negate and come apart as Core Data's classes")
    func compound() throws {
        let open = NSPredicate(format: "completed == NO")
        let home = NSPredicate(format: "ANY tags == 'home'")
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [open, home])
        #expect(both.evaluate(with: item) && both.compoundPredicateType == .and)
        #expect(both.predicateFormat == #"completed == 0 AND ANY tags == "home""#)
        let parts = try #require(both.subpredicates as? [NSPredicate])
        #expect(parts == [open, home])
        #expect(parts[0] is NSComparisonPredicate)
        #expect(!NSCompoundPredicate(notPredicateWithSubpredicate: open).evaluate(with: item))
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: []).predicateFormat == "FALSEPREDICATE")
        // NONE is Core Data's NOT ANY: so its classes show it, and so it rebuilds.
        let none = try #require(NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "NONE tags == 'work'")]).subpredicates.first as? NSCompoundPredicate)
        #expect(none.compoundPredicateType == .not && (none.subpredicates.first as? NSComparisonPredicate)?.comparisonPredicateModifier == .any)
        #expect(none.evaluate(with: item))
        let substituted: NSCompoundPredicate = both.withSubstitutionVariables([:])
        #expect(substituted == both, "substitution keeps the class")
    }

    @Test("a comparison built from expressions is the one its format reads as, and shows its parts")
    func comparison() {
        let built = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "name"),
                                          rightExpression: NSExpression(forConstantValue: "water"),
                                          modifier: .direct, type: .beginsWith, options: [.caseInsensitive, .diacriticInsensitive])
        #expect(built == NSPredicate(format: "name BEGINSWITH[cd] 'water'"))
        #expect(built.evaluate(with: item))
        #expect(built.predicateOperatorType == .beginsWith && built.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(built.leftExpression.expressionType == .keyPath && built.leftExpression.keyPath == "name")
        #expect(built.rightExpression.constantValue as? String == "water")
        let any = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "tags"), rightExpression: NSExpression(forConstantValue: "home"),
                                        modifier: .any, type: .equalTo)
        #expect(any.predicateFormat == #"ANY tags == "home""# && any.comparisonPredicateModifier == .any)
    }

    @Test("expressions evaluate against objects: key paths, arithmetic, functions, aggregates")
    func expressions() {
        let order: [String: Any] = ["price": 2.5, "quantity": 4, "lines": [["amount": 3], ["amount": 4]]]
        #expect(NSExpression(format: "price * quantity").expressionValue(with: order, context: nil) as? Double == 10)
        #expect(NSExpression(forKeyPath: "lines.@sum.amount").expressionValue(with: order, context: nil) as? Int == 7)
        let sum = NSExpression(forFunction: "sum:", arguments: [NSExpression(forAggregate: [1, 2, 3].map { NSExpression(forConstantValue: $0) })])
        #expect(sum.expressionType == .function && sum.function == "sum:")
        #expect(sum.expressionValue(with: nil, context: nil) as? Int == 6)
        #expect(NSExpression(forVariable: "x").variable == "x")
        #expect(NSExpression(forVariable: "x").expressionValue(with: nil, context: ["x": 41]) as? Int == 41, "variables come from the context")
        #expect(NSExpression.expressionForEvaluatedObject().expressionType == .evaluatedObject)
        #expect(NSExpression(forConstantValue: nil).constantValue == nil)
    }

    @Test("sort descriptors order dictionaries by key, reverse, and take the comparisons stores sort by")
    func sortDescriptors() {
        let a: [String: Any] = ["name": "file10", "rank": 2], b: [String: Any] = ["name": "File9", "rank": 1]
        let byRank = NSSortDescriptor(key: "rank", ascending: true)
        #expect(byRank.compare(a, to: b) == .orderedDescending)
        #expect((byRank.reversedSortDescriptor as? NSSortDescriptor)?.ascending == false)
        let natural = NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(natural.compare(b, to: a) == .orderedAscending, "file 9 before file 10, case aside")
        #expect(NSSortDescriptor(key: "name", ascending: true).compare(b, to: a) == .orderedAscending, "compare: puts capitals first")
        #expect(natural.selector == "localizedStandardCompare:" && natural.key == "name")
        #expect(NSSortDescriptor(key: nil, ascending: true).key == nil)
        #expect(NSSortDescriptor(key: "self", ascending: true).key == "self")
    }

    @Test("a format that cannot be read stops the program naming the position, as Core Data's exception does")
    func malformedFormat() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NSPredicate(format: "name LIKE[c]")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(#"NSPredicate(format: "name LIKE[c]")"#) && message.contains("1:13"), "\(message)")
    }
}

@MainActor
@Suite("NSPredicate(block:): a closure evaluated in memory")
struct BlockPredicateTests {
    @Test("a block predicate evaluates objects and variables, joins compound predicates, and a fetch request carrying one throws, saying why")
    func blockPredicate() throws {
        let long = NSPredicate { object, bindings in
            guard let title = (object as? [String: Any])?["title"] as? String else { return false }
            return title.count > (bindings?["length"] as? Int ?? 5)
        }
        #expect(long.evaluate(with: ["title": "The Left Hand of Darkness"]))
        #expect(!long.evaluate(with: ["title": "Dune"]))
        #expect(!long.evaluate(with: ["title": "The Dispossessed"], substitutionVariables: ["length": 20]))
        #expect(long.predicateFormat.hasPrefix("BLOCKPREDICATE("))

        let recent = NSPredicate(format: "year > 1970")
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [long, recent])
        #expect(both.evaluate(with: ["title": "The Dispossessed", "year": 1974]))
        #expect(!both.evaluate(with: ["title": "The Dispossessed", "year": 1969]))
        #expect(!both.evaluate(with: ["title": "Dune", "year": 1974]))
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: long).evaluate(with: ["title": "Dune"]))

        try withTemporaryFolder { folder in
            let container = try libraryContainer(in: folder)
            let context = container.viewContext
            Book(context: context).title = "The Left Hand of Darkness"
            Book(context: context).title = "Dune"
            try context.save()
            let request = NSFetchRequest<Book>(entityName: "Book")
            request.predicate = both
            #expect(throws: (any Error).self) { try context.fetch(request) }
            request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [recent])
            #expect(try context.fetch(request).isEmpty, "a compound of format predicates still runs in the store")
            request.predicate = both
            do {
                _ = try context.fetch(request)
            } catch {
                #expect("\(error)".contains("a block (NSPredicate(block:)), which a store cannot run"), "\(error)")
            }
            // As Core Data code does instead: fetch, then filter in memory.
            let all = try context.fetch(NSFetchRequest<Book>(entityName: "Book"))
            let titled = all.filter { NSPredicate { book, _ in ((book as? Book)?.title.count ?? 0) > 5 }.evaluate(with: $0) }
            #expect(titled.map(\.title) == ["The Left Hand of Darkness"])
        }
    }
}
