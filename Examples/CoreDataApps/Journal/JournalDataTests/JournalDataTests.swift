//
//  JournalDataTests.swift
//  JournalTests
//

import XCTest
import CoreData
@testable import JournalData

final class JournalDataTests: XCTestCase {

    var folder: URL!
    var store: JournalStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("JournalDataTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = JournalStore(persistence: PersistenceController(storeURL: folder.appendingPathComponent("Journal.sqlite")))
    }

    override func tearDownWithError() throws {
        store = nil
        try? FileManager.default.removeItem(at: folder)
    }

    func day(_ text: String, hour: Int = 9) -> Date {
        JournalStore.dayFormatter.date(from: text)!.addingTimeInterval(Double(hour) * 3600)
    }

    func add(_ title: String, mood: Int16 = 3, on date: Date) {
        let saved = expectation(description: "saved \(title)")
        store.addEntry(title: title, body: nil, mood: mood, at: date) { error in
            XCTAssertNil(error)
            saved.fulfill()
        }
        wait(for: [saved], timeout: 10)
    }

    func fetchAll() throws -> [Entry] {
        let request: NSFetchRequest<Entry> = Entry.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "createdAt", ascending: true)]
        return try store.viewContext.fetch(request)
    }

    func count(in store: JournalStore) throws -> Int {
        let request: NSFetchRequest<Entry> = Entry.fetchRequest()
        return try store.viewContext.count(for: request)
    }

    func testBackgroundEntriesReachTheViewContext() throws {
        add("First", mood: 4, on: day("2019-10-01"))
        add("Second", mood: 2, on: day("2019-10-02"))
        XCTAssertEqual(try fetchAll().compactMap(\.title), ["First", "Second"])
        XCTAssertEqual(try store.averageMood(), 3, accuracy: 0.001)
    }

    func testScalarMoodAndFlagsRoundTrip() throws {
        add("Calm", mood: -2, on: day("2019-10-03"))
        let entry = try XCTUnwrap(try fetchAll().first)
        XCTAssertEqual(entry.mood, -2)
        XCTAssertFalse(entry.isArchived)
        XCTAssertEqual(entry.day, "2019-10-03")
    }

    func testPurgeDeletesOnlyOldArchivedEntries() throws {
        add("Old archived", on: day("2019-01-01"))
        add("Old kept", on: day("2019-01-02"))
        add("New archived", on: day("2019-12-01"))
        for entry in try fetchAll() where entry.title != "Old kept" {
            try store.archive(entry)
        }
        let purged = try store.purgeArchived(before: day("2019-06-01"))
        XCTAssertEqual(purged, 1)
        XCTAssertEqual(try fetchAll().compactMap(\.title), ["Old kept", "New archived"])

        let reopened = JournalStore(persistence: PersistenceController(storeURL: folder.appendingPathComponent("Journal.sqlite")))
        XCTAssertEqual(try count(in: reopened), 2)
    }

    func testEntriesControllerGroupsByDayNewestFirst() throws {
        add("Morning", on: day("2019-10-01", hour: 8))
        add("Evening", on: day("2019-10-01", hour: 20))
        add("Next day", on: day("2019-10-02"))
        let controller = store.makeEntriesController()
        try controller.performFetch()
        XCTAssertEqual(controller.sections?.map(\.name), ["2019-10-02", "2019-10-01"])
        XCTAssertEqual(controller.sections?.map(\.numberOfObjects), [1, 2])
        XCTAssertEqual(controller.object(at: IndexPath(row: 1, section: 1)).title, "Evening")
    }

    func testInMemoryStoreStartsEmpty() throws {
        let preview = JournalStore(persistence: PersistenceController(inMemory: true))
        XCTAssertEqual(try count(in: preview), 0)
        let entry = Entry(context: preview.viewContext)
        entry.title = "Preview"
        entry.createdAt = Date()
        try preview.viewContext.save()
        XCTAssertEqual(try count(in: preview), 1)
    }
}
