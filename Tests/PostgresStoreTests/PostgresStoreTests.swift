import Foundation
import Testing
import ObjectGraph
import ObjectModel
import Predicates
@testable import PostgresStore
import TestSupport

@Suite("A PostgreSQL store on a real server")
struct PostgresStoreTests {
    @Test("saved objects read back in another coordinator with their values and relationships")
    func roundTrip() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let other = try stack.reopened()
        #expect(other.store.identifier == stack.store.identifier, "the same store, found again")
        let items = try other.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        #expect(items.map { $0.string("name")! } == ToDoFixture.names)
        #expect(items.map { $0.bool("completed")! } == [true, false, true, false, true])
        #expect(items[2].date("dueDate") == Date(timeIntervalSinceReferenceDate: 7200))
        let home = try #require(items[0].object("category"))
        #expect(home.string("name") == "Home")
        #expect((home.objects("todos") ?? []).count == 3)
    }

    @Test("the tables follow Core Data's layout in PostgreSQL's own types, with folded copies of text")
    func layout() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        let columns = try stack.store.plainRows("""
            SELECT table_name, column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name IN ('ZTODO', 'Z_PRIMARYKEY') ORDER BY table_name, ordinal_position
            """).map { $0.map { $0.stringValue ?? "" }.joined(separator: " ") }
        #expect(columns.contains("ZTODO Z_PK bigint"))
        #expect(columns.contains("ZTODO Z_OPT bigint"))
        #expect(columns.contains("ZTODO ZDUEDATE timestamp with time zone"))
        #expect(columns.contains("ZTODO ZNAME text"))
        #expect(columns.contains("ZTODO ZCATEGORY bigint"))
        #expect(columns.contains("ZTODO Z_FCD_NAME text"))
        #expect(columns.contains("Z_PRIMARYKEY Z_NAME text"))
        let entities = try stack.store.plainRows(#"SELECT "Z_NAME" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#).map { $0[0].stringValue ?? "" }
        #expect(Set(entities) == ["Category", "ToDo"])
        let indexes = try stack.store.plainRows("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()").map { $0[0].stringValue ?? "" }
        #expect(indexes.contains("ZTODO_ZCATEGORY_INDEX"))
    }

    @Test("a model's fetch index is created as Core Data names it, each column in its direction, nil first as fetches sort")
    func fetchIndex() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.sampleModel(version: "SampleModel2"))
        let definitions = try stack.store.plainRows("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()")
            .map { ($0[0].stringValue ?? "", $0[1].stringValue ?? "") }
        let definition = try #require(definitions.first { $0.0 == "Z_Car_byMakerAndNumberPlate" }?.1, "\(definitions.map(\.0))")
        #expect(definition.contains(#"("ZMAKER" NULLS FIRST, "ZNUMBERPLATE" NULLS FIRST)"#), "\(definition)")
    }

    @Test("every attribute type round-trips: decimals keep every digit, dates the microsecond, UUIDs and bytes")
    func attributeTypes() throws {
        let model = try XcodeModelFile.readVersion(try ModelFixtures.writeModelFile(ModelFixtures.modelXML("""
            <entity name="Thing" representedClassName="Thing" syncable="YES">
                <attribute name="b" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="i" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="d" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="m" optional="YES" attributeType="Decimal"/>
                <attribute name="t" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="s" optional="YES" attributeType="String"/>
                <attribute name="u" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="w" optional="YES" attributeType="URI"/>
                <attribute name="x" optional="YES" attributeType="Binary"/>
            </entity>
            """), name: "Things"))
        let stack = try PostgresTestStack(model: model)
        let thing = try stack.context.insertObject(forEntityName: "Thing")
        let uuid = UUID()
        let values: [String: ObjectValue] = [
            "b": .bool(true), "i": .int(Int(Int64.max)), "d": .double(0.1), "m": .decimal(Decimal(string: "12345678901234567890.123456789")!),
            "t": .date(Date(timeIntervalSinceReferenceDate: 12.345678)), "s": .string("Straße ǅ 🙂"), "u": .uuid(uuid),
            "w": .url(URL(string: "https://example.com/a?b=c")!), "x": .data(Data([0, 1, 2, 255])),
        ]
        for (key, value) in values { thing[key] = value }
        let empty = try stack.context.insertObject(forEntityName: "Thing")
        try stack.context.save()
        let other = try stack.reopened().context
        let read = try #require(try other.existingObject(with: thing.objectID))
        for (key, value) in values { #expect(read[key] == value, "\(key)") }
        let none = try #require(try other.existingObject(with: empty.objectID))
        #expect(values.keys.allSatisfy { none[$0] == .null })
    }

    @Test("a store written with another model version is refused, naming the store")
    func otherVersion() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let error = #expect(throws: ObjectGraphError.self) {
            try PostgresTestStack(model: try ModelFixtures.companyModel(), url: stack.url)
        }
        #expect("\(error!)".contains(stack.url.host!))
    }

    @Test("text with a NUL character is refused before anything is written; the edits stay")
    func nulCharacter() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = "before\u{0}after"
        let error = #expect(throws: PostgresStoreError.self) { try stack.context.save() }
        #expect(error?.description.contains("ToDo.name holds a NUL character") == true)
        #expect(stack.context.hasChanges)
        #expect(try stack.reopened().context.count(for: FetchRequest(entityName: "ToDo")) == 0)
    }

    @Test("a name PostgreSQL would cut to 63 bytes (two such attributes would be one column) is refused before anything is made")
    func longNames() throws {
        let long = "aPropertyNameFarLongerThanAnyPostgresIdentifierMayBeWithoutBeingCut"
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: long + "One", type: .string), AttributeDescription(name: long + "Two", type: .string),
        ])])
        let url = try PostgresServer.shared().storeURL()
        let error = #expect(throws: ObjectGraphError.self) { try PostgresTestStack(model: model, url: url) }
        #expect("\(error!)".contains("the name “Z\(long.uppercased())ONE” is \(long.utf8.count + 4) bytes long, and PostgreSQL keeps 63"), "\(error!)")
        let refusedSchema = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
        let other = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        #expect(try other.store.plainRows("SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1", [.text(refusedSchema)])[0][0].intValue == 0,
                "nothing of the refused store was made, not even its schema")
    }

    @Test("a server nobody answers at is a clear error, not a hang")
    func unreachable() throws {
        PostgresStore.register()
        let coordinator = PersistentStoreCoordinator(model: try ModelFixtures.toDoModel())
        let error = #expect(throws: PostgresStoreError.self) {
            try coordinator.addStore(type: .postgres, at: URL(string: "postgres://nobody@127.0.0.1:1/none"))
        }
        #expect(error?.description.hasPrefix("cannot reach the PostgreSQL server of postgres://nobody@127.0.0.1:1/none") == true)
    }

    @Test("keys come from sequences: two clients inserting at once never collide")
    func keysFromSequences() throws {
        let first = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        let second = try first.reopened()
        for i in 0..<3 {
            for stack in [first, second] {
                let item = try stack.context.insertObject(forEntityName: "ToDo")
                item["name"] = .string("\(i)")
            }
        }
        let pending = Array(second.context.insertedObjects)
        try second.context.obtainPermanentIDs(for: pending)
        let early = pending.map(\.objectID)
        try first.context.save()
        try second.context.save()
        let keys = try first.store.plainRows(#"SELECT "Z_PK" FROM "ZTODO" ORDER BY "Z_PK""#).compactMap { $0[0].intValue }
        #expect(keys.count == 6 && Set(keys).count == 6)
        #expect(Set(early.compactMap(\.primaryKey).map(Int.init)).isSubset(of: Set(keys)))
    }
}

/// A server of its own, stopped and started under a client.
@Suite("A PostgreSQL server that goes away and comes back")
struct PostgresRestartTests {
    @Test("a save while the server is down fails with a clear message, keeps the edits, and succeeds once it is back")
    func serverRestart() throws {
        let server = try PostgresServer.dedicated()
        defer { try? server.stop() }
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: server.storeURL())
        try ToDoFixture.fill(stack.context)
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        item["name"] = "Written while the server was down"
        try server.stop()
        let error = #expect(throws: PostgresStoreError.self) { try stack.context.save() }
        #expect(error?.description.hasPrefix("cannot reach the PostgreSQL server of postgres://termdata@127.0.0.1:") == true, "\(error.map { "\($0)" } ?? "")")
        #expect(stack.context.hasChanges && item.string("name") == "Written while the server was down")
        try server.start()
        try stack.context.save()
        let names = try stack.reopened().context.fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") }
        #expect(names.count == 6 && names.contains("Written while the server was down"))
    }

    @Test("the server stopped in the middle of a save: nothing of it is written, the client says so, the edits are kept")
    func stoppedMidSave() throws {
        let server = try PostgresServer.dedicated()
        defer { try? server.stop() }
        let url = server.storeURL()
        let other = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url, options: StoreOptions(tracksHistory: true))
        let fixture = try ToDoFixture.fill(other.context).count
        let stack = try other.reopened(options: StoreOptions(tracksHistory: true))
        let context = ManagedObjectContext(coordinator: stack.coordinator, concurrencyType: .privateQueue)
        try context.performAndWait {
            let milk = try #require(try context.object(forEntityName: "ToDo", matchingKey: "name", value: "Buy milk"))
            milk["name"] = "Buy oat milk"
            for i in 0..<50 { try context.insertObject(forEntityName: "ToDo")["name"] = .string("new \(i)") }
        }
        // The other client holds the lock a commit takes to number its transaction: the save
        // sends every statement, then waits at its COMMIT until the server goes.
        _ = try other.store.plainRows("SELECT pg_advisory_lock(hashtext('termdata history ' || current_schema()))")
        let outcome = LockedBox<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do { try context.performAndWait { try context.save() } } catch { outcome.value = error }
            done.signal()
        }
        let deadline = Date().addingTimeInterval(20)
        var waiting = false
        while !waiting, Date() < deadline {
            waiting = try other.store.plainRows("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'advisory'")[0][0].intValue == 1
            if !waiting { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(waiting, "the save reached its commit and waits there")
        try server.stop()
        #expect(done.wait(timeout: .now() + 20) == .success)
        let error = try #require(outcome.value as? PostgresStoreError)
        #expect(error.description.hasPrefix("cannot reach the PostgreSQL server of postgres://termdata@127.0.0.1:"), "\(error)")
        context.performAndWait {
            #expect(context.hasChanges)
            #expect(context.insertedObjects.count == 50)
            #expect(context.updatedObjects.compactMap { $0.string("name") } == ["Buy oat milk"])
        }
        try server.start()
        let names = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url).context
            .fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") }
        #expect(names.count == fixture && names.contains("Buy milk") && !names.contains("Buy oat milk"), "the transaction rolled back: \(names)")
        try context.performAndWait { try context.save() }
        let after = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url).context
            .fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") }
        #expect(after.count == fixture + 50 && after.contains("Buy oat milk"), "the kept edits save once the server is back")
    }

    @Test("termdata import meets the server restarting: it ends with a clear error rather than waiting for ever, and writes nothing",
          arguments: [false, true])
    func importWhileServerRestarts(fast: Bool) throws {
        let server = try PostgresServer.dedicated()
        defer { try? server.stop() }
        let url = server.storeURL()
        let watcher = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url)
        let items = (0..<20_000).map { #"{"@id": "t\#($0)", "name": "item \#($0)"}"# }.joined(separator: ",\n")
        let file = try Fixtures.temporaryDirectory("pg-import").appendingPathComponent("items.json")
        try Data(#"{"format": "termdata-graph", "version": 1, "entities": {"ToDo": [\#(items)]}}"#.utf8).write(to: file)

        // Another client holds the table, so the import's first rows wait at their INSERT until
        // the server goes: the import cannot finish before the restart, however quick it is.
        let holder = PostgresConnections(location: try PostgresLocation(url: url))
        let held = PostgresConnections.Session(connection: try holder.connect(), location: holder.location)
        defer { PostgresConnections.discard(held.connection) }
        try held.execute("BEGIN")
        try held.execute(#"LOCK TABLE "ZTODO" IN SHARE MODE"#)

        let outcome = LockedBox<TermDataProcess.Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            outcome.value = try? TermDataProcess.run(["import", "--store", url.absoluteString, "--model", "ToDo", file.path])
            done.signal()
        }
        // Once the import is writing rows, the server goes away and comes back.
        let deadline = Date().addingTimeInterval(60)
        var writing = false
        while !writing, Date() < deadline, done.wait(timeout: .now()) == .timedOut {
            writing = try watcher.store.plainRows(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'INSERT%'")[0][0].intValue ?? 0 > 0
            if !writing { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(writing, "the import reached its writes")
        try server.stop(fast: fast)
        try server.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "the import ended")
        let result = try #require(outcome.value)
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot reach the PostgreSQL server"), "\(result.stderr)")
        let count = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url).context.count(for: FetchRequest(entityName: "ToDo"))
        #expect(count == 0, "nothing of the import was written")
    }

    @Test("a statement on a connection the server closed after the last one fails at once, naming the server, rather than waiting for ever",
          arguments: [false, true])
    func statementAfterServerLeft(fast: Bool) throws {
        let server = try PostgresServer.dedicated()
        defer { try? server.stop() }
        let connections = PostgresConnections(location: try PostgresLocation(url: server.storeURL()))
        let outcome = LockedBox<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                try connections.inTransaction { session in
                    try session.execute("SELECT 1")
                    // The server goes between two statements of one transaction, as between two
                    // INSERTs of an import; the connection learns of it before the next one.
                    try server.stop(fast: fast)
                    let deadline = Date().addingTimeInterval(10)
                    while !session.connection.isClosed, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                    try session.execute("SELECT 1")
                }
            } catch {
                outcome.value = error
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the statement ended")
        let error = try #require(outcome.value as? PostgresStoreError)
        #expect(error.description.hasPrefix("cannot reach the PostgreSQL server of postgres://termdata@127.0.0.1:"), "\(error)")
        try server.start()
        #expect(throws: Never.self, "the pool connects again once the server is back") { try connections.withConnection { try $0.execute("SELECT 1") } }
    }

    @Test("remote-change notices resume after the server restarts, with what was committed meanwhile")
    func watchSurvivesRestart() throws {
        let server = try PostgresServer.dedicated()
        defer { try? server.stop() }
        let url = server.storeURL()
        let here = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url, options: StoreOptions(tracksHistory: true))
        let notices = LockedBox<[RemoteChangeNotice]>([])
        let observer = here.coordinator.observeRemoteChanges { notice in notices.mutate { $0.append(notice) } }
        defer { here.coordinator.removeRemoteChangeObserver(observer) }
        try server.stop()
        try server.start()
        let there = try PostgresTestStack(model: try ModelFixtures.toDoModel(), url: url, options: StoreOptions(tracksHistory: true))
        try there.context.insertObject(forEntityName: "ToDo")["name"] = "After the restart"
        try there.context.save()
        let token = try there.coordinator.currentHistoryToken()
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, !notices.value.contains(where: { $0.token.includes(token) }) { Thread.sleep(forTimeInterval: 0.02) }
        #expect(notices.value.contains { $0.token.includes(token) }, "the watch listens again")
        here.context.historyToken = HistoryToken([here.store.identifier: 0])
        let merged = try here.context.mergeRemoteChanges()
        #expect(merged.flatMap(\.changes).contains { $0.changeType == .insert })
    }
}

extension PostgresStoreTests {
    @Test("a fetch explained on the server: the statement with its values, PostgreSQL's plan, the rows read, and the index to add")
    func explain() throws {
        let stack = try PostgresTestStack(model: try ModelFixtures.toDoModel())
        try ToDoFixture.fill(stack.context)
        let request = FetchRequest(entityName: "ToDo", predicate: try ObjectPredicate(format: "completed == YES"))
        let explained = try stack.context.explain(request)
        #expect(explained.statement.contains("WHERE"), "\(explained.statement)")
        #expect(explained.arguments.count == 1)
        #expect(explained.plan.first?.contains("Seq Scan on") == true, "\(explained.plan)")
        #expect(explained.rows == 3 && explained.readsWholeTable, "\(explained.plan)")
        #expect(explained.advice?.contains("marking ToDo.completed indexed") == true, "\(explained.advice ?? "")")
    }
}
