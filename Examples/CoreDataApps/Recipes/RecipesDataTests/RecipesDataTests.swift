//
//  RecipesDataTests.swift
//  RecipesTests
//

import XCTest
import CoreData
@testable import RecipesData

class RecipesDataTests: XCTestCase {

    var folder: URL!
    var stack: CoreDataStack!

    override func setUp() {
        super.setUp()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("RecipesDataTests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: nil)
        stack = CoreDataStack(storeURL: folder.appendingPathComponent("Recipes.sqlite"))
    }

    override func tearDown() {
        stack = nil
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func seed() {
        let context = stack.managedObjectContext
        let crepes = Recipe.insert(named: "Crêpes", minutes: 30, into: context)
        _ = crepes.addIngredient("flour", amount: "250 g")
        _ = crepes.addIngredient("Eggs", amount: "4")
        _ = crepes.addIngredient("milk", amount: "500 ml")
        let omelette = Recipe.insert(named: "Omelette", minutes: 10, into: context)
        _ = omelette.addIngredient("eggs", amount: "3")
        _ = Recipe.insert(named: "Bread", minutes: 180, into: context)
        stack.saveContext()
    }

    func testSavedRecipesAreThereForANewStack() throws {
        seed()
        let reopened = CoreDataStack(storeURL: folder.appendingPathComponent("Recipes.sqlite"))
        let recipes = RecipeQueries(context: reopened.managedObjectContext).recipes(matching: "")
        XCTAssertEqual(recipes.map { $0.name }, ["Bread", "Crêpes", "Omelette"])
        let crepes = try XCTUnwrap(recipes.first { $0.name == "Crêpes" })
        XCTAssertEqual(crepes.sortedIngredientNames, ["Eggs", "flour", "milk"])
        XCTAssertNotNil(crepes.created)
    }

    func testSearchIgnoresCaseAndAccents() {
        seed()
        let queries = RecipeQueries(context: stack.managedObjectContext)
        XCTAssertEqual(queries.recipes(matching: "CREPE").map { $0.name }, ["Crêpes"])
        XCTAssertEqual(queries.recipes(matching: "e").count, 3)
    }

    func testQuickRecipesComeQuickestFirst() throws {
        seed()
        let queries = RecipeQueries(context: stack.managedObjectContext)
        XCTAssertEqual(try queries.recipes(readyWithin: 60).map { $0.name }, ["Omelette", "Crêpes"])
        XCTAssertEqual(try queries.countRecipes(using: "EGGS"), 2)
    }

    func testDeletingARecipeDeletesItsIngredients() throws {
        seed()
        let context = stack.managedObjectContext
        let omelette = try XCTUnwrap(RecipeQueries(context: context).recipes(matching: "Omelette").first)
        context.delete(omelette)
        stack.saveContext()
        let ingredients = NSFetchRequest<NSFetchRequestResult>(entityName: "Ingredient")
        XCTAssertEqual(try context.count(for: ingredients), 3)
    }

    func testAnImportOnAPrivateContextReachesTheStoreThroughTheMainContext() throws {
        seed()
        let importContext = stack.newImportContext()
        importContext.performAndWait {
            for index in 1...5 {
                _ = Recipe.insert(named: "Imported \(index)", minutes: index, into: importContext)
            }
            try! importContext.save()
        }
        XCTAssertTrue(stack.managedObjectContext.hasChanges, "the import is in the main context, not yet saved")
        stack.saveContext()
        let reopened = CoreDataStack(storeURL: folder.appendingPathComponent("Recipes.sqlite"))
        XCTAssertEqual(RecipeQueries(context: reopened.managedObjectContext).recipes(matching: "Imported").count, 5)
    }

    func testDictionaryResultsHoldOnlyTheNamedProperties() throws {
        seed()
        let rows = try RecipeQueries(context: stack.managedObjectContext).nameAndMinutes()
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows.first?["name"] as? String, "Bread")
        XCTAssertEqual((rows.first?["minutes"] as? NSNumber)?.intValue, 180)
        XCTAssertNil(rows.first?["created"])
    }
}
