import Foundation
import Testing
import Migration
import ObjectGraph
import ObjectModel
import Predicates
import PostgresStore
import TestSupport

/// Migration of PostgreSQL stores: in place, in one transaction, one client at a time.
@Suite("Migrating PostgreSQL stores")
struct PostgresMigrationTests {
    let versions: ModelVersions
    /// The versioning article's first two versions: 2 adds doNotAlert and lastAlertDate.
    let twoVersions: ModelVersions

    init() throws {
        PostgresStore.register()
        versions = try XcodeModelFile.read(ModelFixtures.toDoHistory)
        twoVersions = try ModelVersions(versions: Array(versions.versions.prefix(2)), currentVersionName: "ToDo 2")
    }

    /// A store of version 1 with a category and four items, two of them in it.
    func versionOneStore(tracksHistory: Bool = false) throws -> PostgresTestStack {
        var options = StoreOptions()
        options.tracksHistory = tracksHistory
        let stack = try PostgresTestStack(model: versions.version(named: "ToDo")!, options: options)
        let home = try stack.context.insertObject(forEntityName: "Category")
        home["name"] = "Home"
        for i in 0..<4 {
            let item = try stack.context.insertObject(forEntityName: "ToDo")
            item["name"] = .string("item \(i)")
            item["dueDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            if i % 2 == 0 { item["category"] = .object(home) }
        }
        try stack.context.save()
        return stack
    }

    func columns(_ stack: PostgresTestStack, table: String) throws -> Set<String> {
        let rows = try stack.store.plainRows("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
                                             [.text(table)])
        return Set(rows.compactMap { $0.first?.stringValue })
    }

    @Test("an inferred step changes the tables in place; objects, relationships and history go on in the new version")
    func inPlace() throws {
        let old = try versionOneStore(tracksHistory: true)
        let reports = try StoreMigrator(versions: twoVersions).migrateStore(at: old.url, type: .postgres)
        #expect(reports.count == 1)
        #expect(reports.first?.inPlace == true)
        #expect(reports.first?.entities.first { $0.destination == "ToDo" }?.objects == 4)
        #expect(try columns(old, table: "ZTODO").isSuperset(of: ["ZDONOTALERT", "ZLASTALERTDATE", "ZNAME", "Z_FC_NAME", "ZCATEGORY"]))
        #expect(try PostgresStore.readMetadata(at: old.url).versionHashes == twoVersions.current.entityVersionHashes)

        var options = StoreOptions()
        options.tracksHistory = true
        let new = try PostgresTestStack(model: twoVersions.current, url: old.url, options: options)
        let items = try new.context.fetch(FetchRequest(entityName: "ToDo", sortDescriptors: [ObjectSortDescriptor(key: "dueDate")]))
        #expect(items.map { $0.string("name")! } == ["item 0", "item 1", "item 2", "item 3"])
        #expect(items.allSatisfy { $0.bool("doNotAlert") == false && $0["lastAlertDate"] == .null })
        #expect(items.map { $0.object("category")?.string("name") } == ["Home", nil, "Home", nil])
        #expect(try new.context.count(for: FetchRequest(entityName: "ToDo", predicate: ObjectPredicate(format: "name BEGINSWITH[c] 'ITEM'"))) == 4)

        let token = try new.coordinator.currentHistoryToken()
        items[0]["doNotAlert"] = true
        try new.context.save()
        let history = try new.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.count == 1)
        #expect(history.first?.changes.first?.updatedProperties == ["doNotAlert"], "the history triggers know the new column")
    }

    @Test("renamed text attributes keep their folded copies; a new one is filled with its default, folded too")
    func foldedCopies() throws {
        let old = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "text", type: .string), AttributeDescription(name: "draft", type: .boolean)])])
        var body = AttributeDescription(name: "body", type: .string)
        body.renamingIdentifier = "text"
        var label = AttributeDescription(name: "label", type: .string)
        label.isOptional = false
        label.defaultValue = "ÉTÉ"
        let new = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [body, label])])
        let stack = try PostgresTestStack(model: old)
        for text in ["Crème brûlée", "CREME", "tea"] {
            let note = try stack.context.insertObject(forEntityName: "Note")
            note["text"] = .string(text)
        }
        try stack.context.save()

        #expect(try PostgresStore.migrateInPlace(at: stack.url, from: old, to: new, renames: ["Note": ["body": "text"]]))
        let columns = try columns(stack, table: "ZNOTE")
        #expect(columns.isSuperset(of: ["ZBODY", "Z_FC_BODY", "Z_FD_BODY", "Z_FCD_BODY", "ZLABEL", "Z_FCD_LABEL"]))
        #expect(columns.isDisjoint(with: ["ZTEXT", "Z_FC_TEXT", "ZDRAFT"]))
        let migrated = try PostgresTestStack(model: new, url: stack.url)
        func count(_ format: String) throws -> Int {
            try migrated.context.count(for: FetchRequest(entityName: "Note", predicate: ObjectPredicate(format: format)))
        }
        #expect(try count("body BEGINSWITH[cd] 'creme'") == 2)
        #expect(try count("label ==[cd] 'ete'") == 3)
        #expect(try count("label == 'ÉTÉ'") == 3)
    }

    @Test("a step beyond a change in place is refused by name before anything changes: the store stays at its version")
    func refusedStep() throws {
        let old = try versionOneStore()
        let before = try columns(old, table: "ZTODO")
        // Version 3 renames entities: no change in place covers it, and 1 → 2 is undone with it.
        #expect {
            try StoreMigrator(versions: versions).migrateStore(at: old.url, type: .postgres)
        } throws: { error in
            guard case MigrationError.notInPlace(_, let from, let to, _, let storeVersion, _) = error else { return false }
            return from == "ToDo 2" && to == "ToDo 3" && storeVersion == "ToDo" && "\(error)".contains("The store is unchanged")
        }
        #expect(try PostgresStore.readMetadata(at: old.url).versionHashes == versions.version(named: "ToDo")!.entityVersionHashes)
        #expect(try columns(old, table: "ZTODO") == before)
        let item = try #require(try old.context.fetch(FetchRequest(entityName: "ToDo")).first)
        item["name"] = "still version 1"
        try old.context.save()
    }

    @Test("entities and many-to-many relationships added and removed: tables, keys and history follow, in one transaction")
    func entitiesAddedAndRemoved() throws {
        let old = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "text", type: .string)]),
            EntityDescription(name: "Draft", attributes: [AttributeDescription(name: "body", type: .string)]),
        ])
        let new = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "text", type: .string)],
                              relationships: [RelationshipDescription(name: "tags", destination: "Tag", inverse: "notes", isToMany: true)]),
            EntityDescription(name: "Tag", attributes: [AttributeDescription(name: "label", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", inverse: "tags", isToMany: true)]),
        ])
        var options = StoreOptions()
        options.tracksHistory = true
        let stack = try PostgresTestStack(model: old, options: options)
        try stack.context.insertObject(forEntityName: "Note")["text"] = "kept"
        try stack.context.insertObject(forEntityName: "Draft")["body"] = "dropped"
        try stack.context.save()

        #expect(try PostgresStore.migrateInPlace(at: stack.url, from: old, to: new, renames: [:]))
        let tables = Set(try stack.store.plainRows("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
            .compactMap { $0[0].stringValue })
        #expect(tables.isSuperset(of: ["ZNOTE", "ZTAG", "Z_2TAGS"]) && !tables.contains("ZDRAFT"), "\(tables.sorted())")
        let entities = try stack.store.plainRows(#"SELECT "Z_ENT", "Z_NAME" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#).map { "\($0[0].intValue ?? 0) \($0[1].stringValue ?? "")" }
        #expect(entities == ["1 Draft", "2 Note", "3 Tag", "16001 CHANGE", "16002 TRANSACTION"],
                "numbered after the highest entity, below the history's; a removed one keeps its number, which the history may name")

        let migrated = try PostgresTestStack(model: new, url: stack.url, options: options)
        let token = try migrated.coordinator.currentHistoryToken()
        let note = try #require(try migrated.context.fetch(FetchRequest(entityName: "Note")).first)
        let tag = try migrated.context.insertObject(forEntityName: "Tag")
        tag["label"] = "Önsker"
        tag["notes"] = .set([.object(note)])
        try migrated.context.save()
        let reread = try migrated.reopened(options: options).context
        #expect(try reread.count(for: FetchRequest(entityName: "Note", predicate: ObjectPredicate(format: "ANY tags.label ==[cd] 'onsker'"))) == 1)
        let history = try migrated.coordinator.fetchHistory(HistoryRequest(after: token))
        #expect(history.flatMap(\.changes).contains { $0.changedObjectID.entityName == "Tag" && $0.changeType == .insert },
                "the new table is recorded")
    }

    @Test("a new entity with an ordered to-many to a kept one: the kept table gains the key and the order column")
    func newOrderedOwner() throws {
        let old = try ManagedObjectModel(entities: [EntityDescription(name: "Item", attributes: [AttributeDescription(name: "name", type: .string)])])
        var items = RelationshipDescription(name: "items", destination: "Item", inverse: "list", isToMany: true)
        items.isOrdered = true
        let new = try ManagedObjectModel(entities: [
            EntityDescription(name: "Item", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "list", destination: "List", inverse: "items")]),
            EntityDescription(name: "List", attributes: [AttributeDescription(name: "title", type: .string)], relationships: [items]),
        ])
        let stack = try PostgresTestStack(model: old)
        for name in ["b", "a", "c"] { try stack.context.insertObject(forEntityName: "Item")["name"] = .string(name) }
        try stack.context.save()
        #expect(try PostgresStore.migrateInPlace(at: stack.url, from: old, to: new, renames: [:]))
        #expect(try columns(stack, table: "ZITEM").isSuperset(of: ["ZLIST", "Z_FOK_LIST"]))
        let migrated = try PostgresTestStack(model: new, url: stack.url)
        let list = try migrated.context.insertObject(forEntityName: "List")
        for item in try migrated.context.fetch(FetchRequest(entityName: "Item")) { item["list"] = .object(list) }
        try migrated.context.save()
        #expect(try migrated.reopened().context.count(for: FetchRequest(entityName: "Item", predicate: ObjectPredicate(format: "list != nil"))) == 3)
    }

    @Test("a URI attribute added with a default gets folded copies, so [c] finds the filled rows")
    func uriDefault() throws {
        let old = try ManagedObjectModel(entities: [EntityDescription(name: "Link", attributes: [AttributeDescription(name: "title", type: .string)])])
        var address = AttributeDescription(name: "address", type: .uri)
        address.isOptional = false
        address.defaultValue = .url(URL(string: "HTTPS://Example.COM/Start")!)
        let new = try ManagedObjectModel(entities: [EntityDescription(name: "Link", attributes: [AttributeDescription(name: "title", type: .string), address])])
        let stack = try PostgresTestStack(model: old)
        try stack.context.insertObject(forEntityName: "Link")["title"] = "home"
        try stack.context.save()
        #expect(try PostgresStore.migrateInPlace(at: stack.url, from: old, to: new, renames: [:]))
        let migrated = try PostgresTestStack(model: new, url: stack.url)
        #expect(try migrated.context.count(for: FetchRequest(entityName: "Link", predicate: ObjectPredicate(format: "address CONTAINS[c] 'example.com/start'"))) == 1)
    }

    @Test("clients migrating at once: one changes the tables, the others find the store current")
    func concurrentMigrations() throws {
        let old = try versionOneStore()
        let url = old.url, versions = twoVersions
        let outcomes = LockedBox<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let reports = try StoreMigrator(versions: versions).migrateStore(at: url, type: .postgres)
                outcomes.mutate { $0.append("migrated \(reports.count)") }
            } catch {
                outcomes.mutate { $0.append("\(error)") }
            }
        }
        // Each either migrated or, planning after the first was done, found nothing to do.
        #expect(outcomes.value.allSatisfy { $0 == "migrated 1" || $0 == "migrated 0" }, "\(outcomes.value)")
        #expect(outcomes.value.contains("migrated 1"))
        let reopened = try PostgresTestStack(model: twoVersions.current, url: url)
        #expect(try reopened.context.count(for: FetchRequest(entityName: "ToDo", predicate: ObjectPredicate(format: "doNotAlert == NO"))) == 4)
    }

    @Test("a client that opened the store before another migrated it cannot save into it; its edits are kept")
    func saveAfterMigrationElsewhere() throws {
        let old = try versionOneStore()
        let item = try #require(try old.context.fetch(FetchRequest(entityName: "ToDo")).first)
        try StoreMigrator(versions: twoVersions).migrateStore(at: old.url, type: .postgres)

        item["name"] = "edited by a client of version 1"
        let added = try old.context.insertObject(forEntityName: "ToDo")
        added["name"] = "added by a client of version 1"
        #expect {
            try old.context.save()
        } throws: { error in
            guard case PostgresStoreError.migratedMeanwhile(_, let entities) = error else { return false }
            return entities.contains("ToDo") && "\(error)".contains("migrated the store")
        }
        #expect(old.context.hasChanges)
        #expect(item.string("name") == "edited by a client of version 1")
        let current = try PostgresTestStack(model: twoVersions.current, url: old.url)
        #expect(try current.context.count(for: FetchRequest(entityName: "ToDo")) == 4, "nothing of the refused save was written")
    }

    @Test("a client that opened the store before another migrated it is told so when a read no longer fits the tables")
    func readAfterMigrationElsewhere() throws {
        let old = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "text", type: .string), AttributeDescription(name: "draft", type: .boolean)])])
        let new = try ManagedObjectModel(entities: [EntityDescription(name: "Note", attributes: [AttributeDescription(name: "text", type: .string)])])
        let stack = try PostgresTestStack(model: old)
        let note = try stack.context.insertObject(forEntityName: "Note")
        note["draft"] = true
        try stack.context.save()
        #expect(try PostgresStore.migrateInPlace(at: stack.url, from: old, to: new, renames: [:]))
        #expect {
            try stack.newContext().count(for: FetchRequest(entityName: "Note", predicate: ObjectPredicate(format: "draft == YES")))
        } throws: { error in
            guard case PostgresStoreError.migratedMeanwhile(_, let entities) = error else { return false }
            return entities == ["Note"]
        }
    }

    @Test("a coordinator that migrates automatically brings a PostgreSQL store to its model when it adds it")
    func automatic() throws {
        let old = try versionOneStore()
        let coordinator = PersistentStoreCoordinator(model: twoVersions.current)
        var options = StoreOptions()
        options.migratesAutomatically = true
        options.infersMappingModel = true
        let (_, reports) = try coordinator.addStore(type: .postgres, at: old.url, versions: twoVersions, options: options)
        #expect(reports.count == 1)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo", predicate: ObjectPredicate(format: "doNotAlert == NO"))) == 4)
    }
}
