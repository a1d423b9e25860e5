import Foundation
import Testing
import Predicates
import ObjectModel
import ObjectGraph
import TestSupport

@Suite("XML, binary and in-memory stores")
struct AtomicStoreTests {
    static let fileTypes: [StoreType] = [.xml, .binary]

    func populate(_ context: ManagedObjectContext) throws {
        let d = try context.insertObject(forEntityName: "Department")
        d["name"] = "R&D <core>"
        d["budget"] = .decimal(Decimal(string: "1234.56")!)
        for (i, name) in ["Ada", "Bob \"the\" builder", "Çelik\ttab", "line\nbreak"].enumerated() {
            let e = try context.insertObject(forEntityName: "Employee")
            e["name"] = .string(name)
            e["salary"] = .int(100 * (i + 1))
            e["hired"] = .date(Date(timeIntervalSinceReferenceDate: 123_456.789 + Double(i)))
            e["nickname"] = "transient"
            e["department"] = .object(d)
        }
        let p = try context.insertObject(forEntityName: "Project")
        p["name"] = "Apollo"
        p["department"] = .object(d)
        try p.add(context.fetch(FetchRequest(entityName: "Employee"))[0], toRelationship: "members")
        try context.save()
    }

    @Test("every value, relationship and key survives a close and reopen", arguments: fileTypes)
    func roundTrip(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("company.\(type)")
        try populate(try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url).context)

        let reopened = try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url)
        let dept = try #require(try reopened.context.fetch(FetchRequest(entityName: "Department")).first)
        #expect(dept.string("name") == "R&D <core>")
        #expect(dept["budget"] == .decimal(Decimal(string: "1234.56")!))
        let employees = dept.objects("employees")
        #expect(Set(employees.compactMap { $0.string("name") }) == ["Ada", "Bob \"the\" builder", "Çelik\ttab", "line\nbreak"])
        let ada = try #require(employees.first { $0.string("name") == "Ada" })
        #expect(ada.date("hired") == Date(timeIntervalSinceReferenceDate: 123_456.789))
        #expect(ada["nickname"] == .null, "transient values are not stored")
        #expect(ada.objects("projects").map { $0.string("name") } == ["Apollo"])
        // New keys continue after the stored ones.
        let extra = try reopened.context.insertObject(forEntityName: "Employee")
        extra["name"] = "Eve"
        try reopened.context.save()
        #expect(extra.objectID.primaryKey == 7)
    }

    @Test("the file carries its format name and version", arguments: fileTypes)
    func formatVersion(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("s")
        try populate(try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url).context)
        let data = try Data(contentsOf: url)
        if type == .xml {
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("<store format=\"termdata-xml-store\" version=\"1\""))
        } else {
            #expect(Array(data.prefix(4)) == Array("TDBS".utf8))
            #expect(data[4] == 2 && data[5] == 0, "format version 2, little-endian")
        }
    }

    @Test("a binary store cut short is refused, saying where", arguments: [5, 40, 200])
    func truncatedBinary(length: Int) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("s")
        try populate(try TestStack(model: try ModelFixtures.companyModel(), type: .binary, url: url).context)
        try Data(try Data(contentsOf: url).prefix(length)).write(to: url)
        #expect {
            try TestStack(model: try ModelFixtures.companyModel(), type: .binary, url: url)
        } throws: { error in
            "\(error)".contains(url.path) && ("\(error)".contains("ends early") || "\(error)".contains("damaged"))
        }
    }

    @Test("a damaged file is refused with its path", arguments: fileTypes)
    func damaged(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("broken")
        try Data("<store format=\"termdata-xml-store\" version=\"1\" uuid=\"u\"><object entity=\"Nope\" pk=\"1\"".utf8).write(to: url)
        #expect {
            try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url)
        } throws: { error in
            "\(error)".contains(url.path)
        }
    }

    @Test("a file no context could hold is refused, naming the object: an unknown entity, a key given twice, a reference to an unknown entity or the wrong one", arguments: [
        (#"<object entity="Project""#, #"<object entity="Gadget""#, "an object has no known entity or key"),
        (#"<object entity="Employee" pk="3""#, #"<object entity="Employee" pk="2""#, "object Employee 2 appears twice"),
        (#"to="Department:1""#, #"to="Nope:1""#, "object Employee 2: 'department' refers to an object that names entity 'Nope', which the model lacks"),
        (#"to="Department:1""#, #"to="Project:1""#, "object Employee 2: 'department' refers to Project 1, not a Department"),
        (#"name="department" to="#, #"name="name" to="#, "object Employee 2: 'name' is no to-one relationship of Employee"),
        (#"name="department" to="#, #"name="projects" to="#, "object Employee 2: 'projects' is no to-one relationship of Employee"),
    ])
    func inconsistentXML(_ original: String, _ replacement: String, _ message: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("company.xml")
        let model = try ModelFixtures.companyModel()
        try populate(try TestStack(model: model, type: .xml, url: url).context)
        let text = try String(contentsOf: url, encoding: .utf8)
        let range = try #require(text.range(of: original), "the saved file has \(original)")
        try text.replacingCharacters(in: range, with: replacement).write(to: url, atomically: true, encoding: .utf8)
        #expect {
            try TestStack(model: model, type: .xml, url: url)
        } throws: { error in
            "\(error)".hasPrefix("\(url.path): ") && "\(error)".hasSuffix(message)
        }
    }

    @Test("a store written with another model version is refused, naming the entities", arguments: fileTypes)
    func otherVersion(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("todo")
        let versions = try XcodeModelFile.read(ModelFixtures.toDo)
        let v1 = try #require(versions.version(named: "ToDo"))
        let old = try TestStack(model: v1, type: type, url: url)
        try old.context.insertObject(forEntityName: "ToDo")
        try old.context.save()
        #expect(throws: ObjectGraphError.incompatibleStore(file: url.path, differingEntities: ["ToDo"])) {
            try TestStack(model: versions.current, type: type, url: url)
        }
    }

    @Test("a save that cannot write leaves the old file and the context's changes")
    func failedWrite() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("todo.xml")
        let stack = try TestStack(model: try ModelFixtures.toDoModel(), type: .xml, url: url)
        let item = try stack.context.insertObject(forEntityName: "ToDo")
        try stack.context.save()
        // A folder now stands where the file was: the new file cannot be renamed over it,
        // whatever the user's permissions.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        item["name"] = "unsaved"
        #expect(throws: ObjectGraphError.self) { try stack.context.save() }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["todo.xml"], "no temporary file is left")
        #expect(item.isUpdated && item.string("name") == "unsaved")
    }

    @Test("a save through a symbolic link replaces the file it names, keeping the link, the mode and the owner", arguments: fileTypes)
    func symlinkAndMode(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        let data = folder.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let real = data.appendingPathComponent("todo.\(type)")
        try populate(try TestStack(model: try ModelFixtures.companyModel(), type: type, url: real).context)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: real.path)
        let owner = try FileManager.default.attributesOfItem(atPath: real.path)[.ownerAccountID] as? Int
        let link = folder.appendingPathComponent("link.\(type)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)

        let stack = try TestStack(model: try ModelFixtures.companyModel(), type: type, url: link)
        let tag = try stack.context.insertObject(forEntityName: "Tag")
        tag["label"] = "through the link"
        try stack.context.save()

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path, "the link is still a link")
        let attributes = try FileManager.default.attributesOfItem(atPath: real.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600, "the mode is kept")
        #expect(attributes[.ownerAccountID] as? Int == owner)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["data", "link.\(type)"],
                "nothing is written beside the link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path) == ["todo.\(type)"], "no temporary file is left")
        let reopened = try TestStack(model: try ModelFixtures.companyModel(), type: type, url: real)
        #expect(try reopened.context.count(for: FetchRequest(entityName: "Tag")) == 1)
    }

    @Test("a store file nobody may write is refused at the save, saying so, and kept as it was with the changes in memory", arguments: fileTypes)
    func readOnlyFile(type: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        let url = folder.appendingPathComponent("todo.\(type)")
        try populate(try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url).context)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let before = try Data(contentsOf: url)
        let stack = try TestStack(model: try ModelFixtures.companyModel(), type: type, url: url)
        let tag = try stack.context.insertObject(forEntityName: "Tag")
        tag["label"] = "refused"
        let error = try #require(throws: ObjectGraphError.self) { try stack.context.save() }
        #expect("\(error)".contains("read-only (mode 444)"), "\(error)")
        #expect(try Data(contentsOf: url) == before)
        #expect(stack.context.hasChanges && tag.isInserted)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["todo.\(type)"])
    }

    @Test("a temporary file left by a killed save is removed by the next save; one of a running process is not")
    func abandonedTemporaries() throws {
        let folder = try Fixtures.temporaryDirectory()
        let url = folder.appendingPathComponent("todo.xml")
        let stack = try TestStack(model: try ModelFixtures.toDoModel(), type: .xml, url: url)
        try stack.context.insertObject(forEntityName: "ToDo")["name"] = "first"
        try stack.context.save()
        // A process number no process has (above the kernel's limit), and this process's parent.
        let abandoned = ".todo.xml.99999999.\(UUID().uuidString).tmp"
        let running = ".todo.xml.\(getppid()).\(UUID().uuidString).tmp"
        let unrelated = ".other.xml.99999999.\(UUID().uuidString).tmp"
        for name in [abandoned, running, unrelated] {
            try Data("half a save".utf8).write(to: folder.appendingPathComponent(name))
        }
        try stack.context.insertObject(forEntityName: "ToDo")["name"] = "second"
        try stack.context.save()
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["todo.xml", running, unrelated])
    }

    @Test("two stacks on one file: each one's new objects survive the other's save", arguments: fileTypes)
    func twoWritersKeepBothInserts(type: StoreType) throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("todo.\(type)")
        let model = try ModelFixtures.toDoModel()
        let first = try TestStack(model: model, type: type, url: url)
        try first.context.insertObject(forEntityName: "ToDo")["name"] = "before"
        try first.context.save()
        let second = try TestStack(model: model, type: type, url: url)   // another process, say
        try second.context.insertObject(forEntityName: "ToDo")["name"] = "from the second"
        try second.context.save()
        let mine = try first.context.insertObject(forEntityName: "ToDo")
        mine["name"] = "from the first"
        try first.context.save()
        let reader = try TestStack(model: model, type: type, url: url)
        let names = try reader.context.fetch(FetchRequest(entityName: "ToDo")).compactMap { $0.string("name") }
        #expect(names.sorted() == ["before", "from the first", "from the second"])
        #expect(Set(try reader.context.fetch(FetchRequest(entityName: "ToDo")).map(\.objectID.primaryKey)).count == 3,
                "new keys continue after the other's")
        #expect(try first.context.count(for: FetchRequest(entityName: "ToDo")) == 3, "the first now sees the second's object")
    }

    @Test("one object changed by two stacks on one file: the later save meets a conflict, and a merge policy merges", arguments: fileTypes)
    func twoWritersConflict(type: StoreType) throws {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("company.\(type)")
        let model = try ModelFixtures.companyModel()
        let first = try TestStack(model: model, type: type, url: url)
        let ada = try first.context.insertObject(forEntityName: "Employee")
        ada["name"] = "Ada"
        ada["salary"] = 10
        try first.context.save()
        let second = try TestStack(model: model, type: type, url: url)
        let theirs = try #require(try second.context.fetch(FetchRequest(entityName: "Employee")).first)
        theirs["salary"] = 20
        try second.context.save()

        ada["name"] = "Ada (mine)"
        #expect(throws: MergeConflictError.self) { try first.context.save() }
        #expect(ada.isUpdated && ada.string("name") == "Ada (mine)", "the edit stays in memory")
        let unchanged = try TestStack(model: model, type: type, url: url)
        #expect(try unchanged.context.fetch(FetchRequest(entityName: "Employee")).first?.int("salary") == 20, "the refused save wrote nothing")

        first.context.mergePolicy = .mergeByPropertyObjectTrump
        try first.context.save()
        let reader = try TestStack(model: model, type: type, url: url)
        let merged = try #require(try reader.context.fetch(FetchRequest(entityName: "Employee")).first)
        #expect(merged.string("name") == "Ada (mine)")
        #expect(merged.int("salary") == 20, "the other's change to another property survives")
    }

    @Test("configurations send each entity to its own store")
    func configurations() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ModelFixtures.companyModel()
        let coordinator = PersistentStoreCoordinator(model: model)
        let people = try coordinator.addStore(type: .xml, configuration: "People", at: folder.appendingPathComponent("people.xml"))
        let work = try coordinator.addStore(type: .binary, configuration: "Work", at: folder.appendingPathComponent("work.plist"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let e = try context.insertObject(forEntityName: "Employee")
        e["name"] = "Ada"
        let t = try context.insertObject(forEntityName: "Tag")
        t["label"] = "x"
        try context.save()
        #expect(e.objectID.storeIdentifier == people.identifier)
        #expect(t.objectID.storeIdentifier == work.identifier)
        let peopleText = try String(contentsOf: folder.appendingPathComponent("people.xml"), encoding: .utf8)
        #expect(peopleText.contains("<object entity=\"Employee\"") && !peopleText.contains("<object entity=\"Tag\""))
    }

    @Test("a store moves to another type and location with its objects", arguments: [StoreType.xml, .binary])
    func migrateStoreType(target: StoreType) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stack = try TestStack(model: try ModelFixtures.companyModel())
        try populate(stack.context)
        let moved = try stack.coordinator.migrateStore(stack.coordinator.stores[0], to: folder.appendingPathComponent("moved"), type: target)
        #expect(stack.coordinator.stores.count == 1 && stack.coordinator.stores[0] === moved)
        let reopened = try TestStack(model: try ModelFixtures.companyModel(), type: target, url: folder.appendingPathComponent("moved"))
        let dept = try #require(try reopened.context.fetch(FetchRequest(entityName: "Department")).first)
        #expect(dept.objects("employees").count == 4)
        #expect(dept.objects("projects").first?.objects("members").count == 1)
    }

    @Test("the container keeps its stores under XDG_DATA_HOME, or ~/.local/share when unset")
    func containerLocation() {
        #expect(PersistentContainer.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path == "/data/termdata")
        #expect(PersistentContainer.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/termdata")
        #expect(PersistentContainer.defaultDirectory(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u"]).path == "/home/u/.local/share/termdata")
        #expect(PersistentContainer.directory(xdg: "XDG_STATE_HOME", home: ".local/state",
                                              environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.local/state/termdata", "a relative path is not an XDG base directory")
    }

    @Test("the container builds the whole stack and saves through its view context")
    func container() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("nested/ToDo.xml")
        let container = PersistentContainer(name: "ToDo", model: try ModelFixtures.toDoModel(),
                                            storeDescriptions: [.init(type: .xml, url: url)])
        try container.loadPersistentStores()
        try container.viewContext.insertObject(forEntityName: "ToDo")
        try container.viewContext.save()
        #expect(FileManager.default.fileExists(atPath: url.path))
        let background = container.newBackgroundContext()
        #expect(try background.performAndWait { try background.count(for: FetchRequest(entityName: "ToDo")) } == 1)
    }
}
