//
//  InventoryDataTests.swift
//  InventoryTests
//

import XCTest
import CoreData
@testable import InventoryData

final class InventoryDataTests: XCTestCase {

    var folder: URL!
    var service: InventoryService!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("InventoryDataTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        service = InventoryService(storeURL: folder.appendingPathComponent("Inventory.sqlite"))
    }

    override func tearDownWithError() throws {
        service = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private func seed() throws {
        let acme = service.addSupplier(named: "Acme")
        let globex = service.addSupplier(named: "Globex")
        service.addProduct(sku: "A-2", name: "Anvil", stock: 3, price: 120, supplier: acme)
        service.addProduct(sku: "A-10", name: "Rocket skates", stock: 40, price: 80.5, supplier: acme)
        service.addProduct(sku: "G-1", name: "Bolts", stock: 2, price: 0.25, supplier: globex)
        let retired = service.addProduct(sku: "G-7", name: "Widget", stock: 0, price: 9, supplier: globex)
        retired.discontinued = true
        try service.save()
    }

    func testProductsBySupplierNameThroughTheRelationship() throws {
        try seed()
        let skus = try service.products(suppliedBy: "Acme").compactMap(\.sku)
        XCTAssertEqual(skus, ["A-10", "A-2"])
        XCTAssertEqual(try service.products(suppliedBy: "Initech"), [])
    }

    func testLowStockSkipsDiscontinuedAndSortsByName() throws {
        try seed()
        let names = try service.lowStock(below: 5).compactMap(\.name)
        XCTAssertEqual(names, ["Anvil", "Bolts"])
    }

    func testGeneratedAccessorsKeepBothSides() throws {
        try seed()
        let anvil = try XCTUnwrap(try service.products(suppliedBy: "Acme").last)
        let heavy = try service.tag(named: "heavy")
        anvil.addToTags(heavy)
        XCTAssertEqual(heavy.products?.count, 1)
        XCTAssertTrue(heavy.products?.contains(anvil) ?? false)
        try service.save()

        XCTAssertEqual(try service.products(taggedWith: "HEAVY").compactMap(\.sku), ["A-2"])
        XCTAssertTrue(try service.tag(named: "Heavy") === heavy, "the tag is found again, not made twice")

        anvil.removeFromTags(heavy)
        XCTAssertEqual(heavy.products?.count, 0)
    }

    func testOrderedProductsKeepTheirOrderAcrossAReopen() throws {
        let supplier = service.addSupplier(named: "Acme")
        for (index, sku) in ["C", "A", "B"].enumerated() {
            let product = service.addProduct(sku: sku, name: sku, stock: Int32(index), price: 1, supplier: nil)
            supplier.addToProducts(product)
        }
        let first = try XCTUnwrap(supplier.products?.firstObject as? Product)
        supplier.removeFromProducts(at: 0)
        supplier.insertIntoProducts(first, at: 2)
        try service.save()

        let reopened = InventoryService(storeURL: folder.appendingPathComponent("Inventory.sqlite"))
        let request: NSFetchRequest<Supplier> = Supplier.fetchRequest()
        let stored = try XCTUnwrap(try reopened.viewContext.fetch(request).first)
        let skus = stored.products?.array.compactMap { ($0 as? Product)?.sku }
        XCTAssertEqual(skus, ["A", "B", "C"])
    }

    func testTotalUnitsIsSummedByTheStore() throws {
        try seed()
        XCTAssertEqual(try service.totalUnitsInStock(), 45)
        XCTAssertEqual(try service.productCount(), 4)
    }

    func testMissingSKUFailsTheSaveAndKeepsTheEdits() throws {
        try seed()
        let product = service.addProduct(sku: nil, name: "Nameless", stock: 1, price: 1, supplier: nil)
        XCTAssertThrowsError(try service.save()) { error in
            XCTAssertEqual(error as? InventoryService.ServiceError, .missingValue("sku"))
        }
        XCTAssertTrue(service.viewContext.hasChanges)
        XCTAssertTrue(product.isInserted)

        let other = InventoryService(storeURL: folder.appendingPathComponent("Inventory.sqlite"))
        XCTAssertEqual(try other.productCount(), 4, "nothing of the failed save reached the store")
    }

    func testAwakeFromInsertStampsNewProducts() throws {
        let product = service.addProduct(sku: "N-1", name: "New", stock: 1, price: 2, supplier: nil)
        XCTAssertNotNil(product.id)
        XCTAssertNotNil(product.addedAt)
        XCTAssertEqual(product.stockValue, 2)
    }
}
