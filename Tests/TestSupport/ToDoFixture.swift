import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// The ToDo fixture: a Home category and five items.
public enum ToDoFixture {
    public static let names = ["water plants", "Buy milk", "answer mail", "Call mom", "book flights"]

    /// A filter that compares each item of a category with every other and matches none: on
    /// 8,000 items of one category it reads 64 million rows (about 20 s in a debug build, though
    /// each text test on plain ASCII runs in C), so that a test can stop it while it runs.
    public static let slowFilter = "SUBQUERY(category.todos, $x, $x.name CONTAINS[cd] 'zz').@count > 0"

    @discardableResult
    public static func fill(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        let home = try context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        var items: [ManagedObject] = []
        for (i, name) in names.enumerated() {
            let item = try context.insertObject(forEntityName: "ToDo")
            item["name"] = .string(name)
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i) * 3600))
            item["completed"] = .bool(i % 2 == 0)
            if i < 3 { item["category"] = .object(home) }
            items.append(item)
        }
        try context.save()
        return items
    }
}
