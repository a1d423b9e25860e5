import CoreData
import Foundation
import ObjectGraph
import ObjectModel
import Predicates
import SQLiteStore

/// A class as a port of Core Data code has it: `@NSManaged` written `@Managed`.
final class BenchNote: NSManagedObject {
    @Managed var title: String?
    @Managed var rank: Int64
    @Managed var done: Bool
    @Managed var created: Date?
}

/// Core Data's API (`import CoreData`) beside the engine's own, on the same work: insert
/// objects and set four values each, save them to a new SQLite file, fetch the ones a
/// predicate picks from a cold context, sorted, and read a value of each. The engine's side
/// is the floor; the ratio is what Core Data's names cost over it.
///
/// `TERMDATA_BENCH_ITEMS` changes the number of objects (100,000).
///
/// A program of its own, not a group of `termdata-bench`: a module that imports CoreData sees
/// its overloads in every file, and the other benchmarks are written against the engine alone.
///
///     swift build -c release --product termdata-bench-coredata
///     .build/release/termdata-bench-coredata
@main
enum CoreDataBenchmarks {
    static func main() throws {
        SQLiteStore.register()
        try run()
    }

    /// Seconds `body` takes.
    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    struct BenchmarkFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" representedClassName="BenchNote" syncable="YES">
                <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="rank" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    struct Phases {
        var insert = Double.infinity, save = Double.infinity, fetch = Double.infinity
        mutating func keepBest(_ other: Phases) {
            insert = min(insert, other.insert)
            save = min(save, other.save)
            fetch = min(fetch, other.fetch)
        }
    }

    static func run() throws {
        let count = ProcessInfo.processInfo.environment["TERMDATA_BENCH_ITEMS"].flatMap(Int.init) ?? 100_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-bench-coredata-\(UUID().uuidString)")
        let modelURL = folder.appendingPathComponent("Bench.xcdatamodel")
        try FileManager.default.createDirectory(at: modelURL, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(modelXML.utf8).write(to: modelURL.appendingPathComponent("contents"))

        // The two sides take turns, each run into a new file, so that a change in the
        // machine's load falls on both; each reports its best run of each phase.
        var engine = Phases(), coreData = Phases()
        var found = (0, 0)
        for run in 0..<3 {
            let (enginePhases, engineFound) = try engineSide(count, modelURL, folder.appendingPathComponent("Engine\(run).sqlite"))
            let (coreDataPhases, coreDataFound) = try coreDataSide(count, modelURL, folder.appendingPathComponent("CoreData\(run).sqlite"))
            engine.keepBest(enginePhases)
            coreData.keepBest(coreDataPhases)
            found = (engineFound, coreDataFound)
        }
        guard found.0 == found.1 else { throw BenchmarkFailure("the two fetches disagree: \(found.0) and \(found.1)") }
        print("\(count) objects; fetch: done == NO AND rank >= 1000, sorted by rank, \(found.0) found, a value of each read")
        print("work".padding(toLength: 30, withPad: " ", startingAt: 0) + "  engine (s)  CoreData (s)  ratio")
        for (name, floor, measured) in [("insert and set 4 values", engine.insert, coreData.insert), ("save to a new SQLite file", engine.save, coreData.save),
                                        ("fetch and read", engine.fetch, coreData.fetch),
                                        ("all three", engine.insert + engine.save + engine.fetch, coreData.insert + coreData.save + coreData.fetch)] {
            print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "  %10.3f  %12.3f  %5.2f", floor, measured, measured / floor))
        }
    }

    /// The engine's own API: the floor.
    static func engineSide(_ count: Int, _ modelURL: URL, _ storeURL: URL) throws -> (Phases, Int) {
        let model = try XcodeModelFile.read(modelURL).current
        var phases = Phases()
        let coordinator = PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: storeURL)
        let context = ManagedObjectContext(coordinator: coordinator)
        phases.insert = try measure {
            for i in 0..<count {
                let note = try context.insertObject(forEntityName: "Note")
                note["title"] = .string("note \(i)")
                note["rank"] = .int(i)
                note["done"] = .bool(i % 3 == 0)
                note["created"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            }
        }
        phases.save = try measure { try context.save() }

        let reader = ManagedObjectContext(coordinator: coordinator)
        var found = 0, sink = 0
        phases.fetch = try measure {
            let request = FetchRequest(entityName: "Note", predicate: try ObjectPredicate(format: "done == NO AND rank >= %@", 1000),
                                       sortDescriptors: [ObjectSortDescriptor(key: "rank")])
            let notes = try reader.fetch(request)
            found = notes.count
            for note in notes { sink &+= note.string("title")?.utf8.count ?? 0 }
        }
        if sink == 42 { print("") }
        return (phases, found)
    }

    /// The same through Core Data's names, as ported code does it.
    static func coreDataSide(_ count: Int, _ modelURL: URL, _ storeURL: URL) throws -> (Phases, Int) {
        guard let model = NSManagedObjectModel(contentsOf: modelURL) else { throw BenchmarkFailure("cannot read \(modelURL.path)") }
        var phases = Phases()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        coordinator.register(BenchNote.self, forEntityName: "Note")
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            phases.insert = measure {
                for i in 0..<count {
                    let note = BenchNote(context: context)
                    note.title = "note \(i)"
                    note.rank = Int64(i)
                    note.done = i % 3 == 0
                    note.created = Date(timeIntervalSinceReferenceDate: Double(i))
                }
            }
            phases.save = try measure { try context.save() }
        }

        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        var found = 0, sink = 0
        try reader.performAndWait {
            phases.fetch = try measure {
                let request = NSFetchRequest<BenchNote>(entityName: "Note")
                request.predicate = NSPredicate(format: "done == NO AND rank >= %d", 1000)
                request.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
                let notes = try reader.fetch(request)
                found = notes.count
                for note in notes { sink &+= note.title?.utf8.count ?? 0 }
            }
        }
        if sink == 42 { print("") }
        return (phases, found)
    }
}
