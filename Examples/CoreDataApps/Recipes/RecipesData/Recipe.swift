//
//  Recipe.swift
//  Recipes
//

import Foundation
import CoreData

public class Recipe: NSManagedObject {

    @NSManaged public var name: String
    @NSManaged public var minutes: NSNumber?
    @NSManaged public var rating: NSNumber?
    @NSManaged public var created: Date?
    @NSManaged public var ingredients: NSSet

    public override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Date(), forKey: "created")
    }

    public class func insert(named name: String, minutes: Int, into context: NSManagedObjectContext) -> Recipe {
        let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: context) as! Recipe
        recipe.name = name
        recipe.minutes = NSNumber(value: minutes)
        return recipe
    }

    public func addIngredient(_ name: String, amount: String?) -> Ingredient {
        let ingredient = NSEntityDescription.insertNewObject(forEntityName: "Ingredient", into: managedObjectContext!) as! Ingredient
        ingredient.name = name
        ingredient.amount = amount
        ingredient.recipe = self
        return ingredient
    }

    public var sortedIngredientNames: [String] {
        let descriptor = NSSortDescriptor(key: "name", ascending: true, selector: #selector(NSString.localizedCaseInsensitiveCompare(_:)))
        return (ingredients.sortedArray(using: [descriptor]) as! [Ingredient]).map { $0.name }
    }
}
