//
//  RecipeQueries.swift
//  Recipes
//

import Foundation
import CoreData

public class RecipeQueries {

    let context: NSManagedObjectContext

    public init(context: NSManagedObjectContext) {
        self.context = context
    }

    /// Recipes whose name contains the text, ignoring case and accents, by name; all of
    /// them when the search field is empty.
    public func recipes(matching text: String) -> [Recipe] {
        let request = NSFetchRequest<Recipe>(entityName: "Recipe")
        if !text.isEmpty {
            request.predicate = NSPredicate(format: "%K CONTAINS[cd] %@", #keyPath(Recipe.name), text)
        }
        request.sortDescriptors = [NSSortDescriptor(key: #keyPath(Recipe.name), ascending: true,
                                                    selector: #selector(NSString.localizedCaseInsensitiveCompare(_:)))]
        do {
            return try context.fetch(request)
        } catch let error as NSError {
            NSLog("Fetch failed: \(error.localizedDescription)")
            return []
        }
    }

    /// Recipes that take at most the given time, quickest first.
    public func recipes(readyWithin minutes: Int) throws -> [Recipe] {
        let request = NSFetchRequest<Recipe>(entityName: "Recipe")
        request.predicate = NSPredicate(format: "minutes <= %d", minutes)
        request.sortDescriptors = [NSSortDescriptor(key: "minutes", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request)
    }

    public func countRecipes(using ingredientName: String) throws -> Int {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Recipe")
        request.predicate = NSPredicate(format: "ANY ingredients.name ==[c] %@", ingredientName)
        return try context.count(for: request)
    }

    /// Names and times only, as dictionaries: for a list that shows no more.
    public func nameAndMinutes() throws -> [[String: Any]] {
        let request = NSFetchRequest<NSDictionary>(entityName: "Recipe")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "minutes"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request).map { $0 as! [String: Any] }
    }
}
