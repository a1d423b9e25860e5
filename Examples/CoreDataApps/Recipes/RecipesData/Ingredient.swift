//
//  Ingredient.swift
//  Recipes
//

import Foundation
import CoreData

public class Ingredient: NSManagedObject {

    @NSManaged public var name: String
    @NSManaged public var amount: String?
    @NSManaged public var recipe: Recipe?

}
