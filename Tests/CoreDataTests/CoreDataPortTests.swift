import Foundation
import ModelCodegen
import Testing

/// `termdata port`'s edits, on source written as Xcode and Core Data apps write it: what the
/// edits are, that the ported source compiles against CoreData where the original does not,
/// and that the diff shown is the edit made.
@Suite("Porting Core Data source: the mechanical edits, checked by the compiler")
struct CoreDataPortTests {
    /// Xcode's two generated files for an entity with an attribute and a to-many relationship.
    static let generatedClass = """
        //
        //  Item+CoreDataClass.swift
        //

        import Foundation
        import CoreData

        @objc(Item)
        public class Item: NSManagedObject {

        }

        @objc(Tag)
        public class Tag: NSManagedObject {
            @NSManaged public var name: String?
        }
        """

    static let generatedProperties = """
        import Foundation
        import CoreData


        extension Item {

            @nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {
                return NSFetchRequest<Item>(entityName: "Item")
            }

            @NSManaged public var title: String?
            @NSManaged public var tags: NSSet?

        }

        // MARK: Generated accessors for tags
        extension Item {

            @objc(addTagsObject:)
            @NSManaged public func addToTags(_ value: Tag)

            @objc(removeTagsObject:)
            @NSManaged public func removeFromTags(_ value: Tag)

        }

        extension Item : Identifiable {

        }
        """

    @Test("Xcode's generated files lose @objc, their @NSManaged becomes @Managed or @ManagedAccessor, and they then compile")
    func generatedFiles() throws {
        let classPort = CoreDataPort(source: Self.generatedClass)
        let propertiesPort = CoreDataPort(source: Self.generatedProperties)
        #expect(propertiesPort.ported == """
            import CoreData


            extension Item {

                @nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {
                    return NSFetchRequest<Item>(entityName: "Item")
                }

                @Managed public var title: String?
                @Managed public var tags: NSSet?

            }

            // MARK: Generated accessors for tags
            extension Item {

                @ManagedAccessor public func addToTags(_ value: Tag)

                @ManagedAccessor public func removeFromTags(_ value: Tag)

            }

            extension Item : Identifiable {

            }
            """)
        #expect(classPort.edits.map(\.line) == [5, 8, 13, 15])
        #expect(propertiesPort.edits.map(\.summary).contains("@NSManaged on a to-many accessor becomes @ManagedAccessor"))

        let before = try MacroCompiler.typecheck(Self.generatedClass + "\n" + Self.generatedProperties)
        #expect(before.errors.contains { $0.message.contains("Objective-C interoperability is disabled") })
        let after = try MacroCompiler.typecheck(classPort.ported + "\n" + propertiesPort.ported)
        #expect(after.errors == [])
    }

    static let dataLayer = #"""
        import Foundation
        import CoreData

        /// Fetches for the list screen. Keys: #keyPath(Item.title) is not edited in a comment.
        final class ItemStore {
            let context: NSManagedObjectContext
            init(context: NSManagedObjectContext) { self.context = context }

            func items(titled prefix: String) throws -> [Item] {
                let request = NSFetchRequest<Item>(entityName: "Item")
                request.predicate = NSPredicate(format: "%K BEGINSWITH[c] %@", #keyPath(Item.title), prefix)
                request.sortDescriptors = [
                    NSSortDescriptor(keyPath: \Item.title, ascending: true),
                    NSSortDescriptor(key: #keyPath(Item.tags.name), ascending: false,
                                     selector: #selector(NSString.localizedStandardCompare(_:))),
                ]
                return try context.fetch(request)
            }

            func label() -> String { "@NSManaged and #keyPath(Item.title) stay in strings; \(#keyPath(Item.title)) is code" }
        }
        """#

    @Test("key paths and selectors become the strings Core Data reads from them, in code but never in comments or strings")
    func keysAndSelectors() throws {
        let port = CoreDataPort(source: Self.dataLayer)
        #expect(port.ported == #"""
            import CoreData

            /// Fetches for the list screen. Keys: #keyPath(Item.title) is not edited in a comment.
            final class ItemStore {
                let context: NSManagedObjectContext
                init(context: NSManagedObjectContext) { self.context = context }

                func items(titled prefix: String) throws -> [Item] {
                    let request = NSFetchRequest<Item>(entityName: "Item")
                    request.predicate = NSPredicate(format: "%K BEGINSWITH[c] %@", "title", prefix)
                    request.sortDescriptors = [
                        NSSortDescriptor(key: "title", ascending: true),
                        NSSortDescriptor(key: "tags.name", ascending: false,
                                         selector: Selector("localizedStandardCompare:")),
                    ]
                    return try context.fetch(request)
                }

                func label() -> String { "@NSManaged and #keyPath(Item.title) stay in strings; \("title") is code" }
            }
            """#)
        #expect(port.notes == [])
        // Porting what was ported finds nothing more.
        #expect(CoreDataPort(source: port.ported).isUnchanged)

        let before = try MacroCompiler.typecheck(Self.generatedClass + "\n" + Self.generatedProperties + "\n" + Self.dataLayer)
        #expect(before.errors.contains { $0.message.contains("'#keyPath' can only be used with the Objective-C runtime") })
        let classes = CoreDataPort(source: Self.generatedClass).ported + "\n" + CoreDataPort(source: Self.generatedProperties).ported
        let after = try MacroCompiler.typecheck(classes + "\n" + port.ported)
        #expect(after.errors == [])
    }

    @Test("what no rule can port is left as it was and named with its line")
    func notes() {
        let source = #"""
            import CoreData

            let recent = NSPredicate(block: { item, _ in true })
            let byOwner = NSSortDescriptor(keyPath: \Item.owner?.name, ascending: true)
            let getter = #selector(getter: Item.title)
            let bare = #selector(NSString.compare)
            """#
        let port = CoreDataPort(source: source)
        #expect(port.isUnchanged)
        #expect(port.notes.map(\.line) == [3, 4, 5, 6])
        #expect(port.notes[0].message.hasPrefix("NSPredicate(block:) is not there on Linux"))
        #expect(port.notes[1].message == "a key path with ? in it has no rule: write the key as a string")
        #expect(port.notes[3].message.contains("without argument labels"))
    }

    @Test("catch let error as NSError, which never matches on Linux, becomes a catch that binds the error as NSError")
    func catchAsNSError() throws {
        let source = """
            import CoreData

            func save(_ context: NSManagedObjectContext) -> Int {
                do {
                    try context.save()
                } catch let error as NSError where error.code == NSValidationMultipleErrorsError {
                    return (error.userInfo[NSDetailedErrorsKey] as? [NSError])?.count ?? 0
                } catch let nsError as NSError { print(nsError.code); return 1 }
                return 0
            }

            func describe(_ error: Error) -> Int { (error as? NSError)?.code ?? 0 }
            """
        let port = CoreDataPort(source: source)
        #expect(port.ported == """
            import CoreData

            func save(_ context: NSManagedObjectContext) -> Int {
                do {
                    try context.save()
                } catch where (error as NSError).code == NSValidationMultipleErrorsError {
                    let error = error as NSError
                    return (error.userInfo[NSDetailedErrorsKey] as? [NSError])?.count ?? 0
                } catch { let nsError = error as NSError; print(nsError.code); return 1 }
                return 0
            }

            func describe(_ error: Error) -> Int { (error as? NSError)?.code ?? 0 }
            """)
        #expect(port.notes.map(\.line) == [12])
        #expect(CoreDataPort(source: port.ported).edits.isEmpty)
        let compiled = try MacroCompiler.typecheck(port.ported)
        #expect(compiled.errors == [])
    }

    @Test("a file that makes predicates but imports only Foundation is given CoreData's: Foundation's traps on Linux")
    func foundationOnly() {
        let port = CoreDataPort(source: "import Foundation\n\nlet open = NSPredicate(format: \"done == NO\")\n")
        #expect(port.ported == "import CoreData\n\nlet open = NSPredicate(format: \"done == NO\")\n")
        // A file with no predicate keeps Foundation.
        #expect(CoreDataPort(source: "import Foundation\nlet now = Date()\n").isUnchanged)
    }

    @Test("the diff shown is the edit made: git apply turns the original into the ported source")
    func diffApplies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-port-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Model"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A long file: hunks far apart stay apart, and the file's last line has no line break.
        let source = Self.generatedProperties + String(repeating: "\n// filler", count: 20) + "\n@objc public class Late: NSManagedObject {}"
        let file = folder.appendingPathComponent("Model/Item+CoreDataProperties.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let sources = try PortedSource.sources(at: folder)
        #expect(sources.map(\.path) == ["Model/Item+CoreDataProperties.swift"])
        let diff = sources[0].port.diff(path: sources[0].path)
        #expect(diff.components(separatedBy: "\n@@ ").count == 4)
        let patch = folder.appendingPathComponent("port.diff")
        try diff.write(to: patch, atomically: true, encoding: .utf8)

        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "apply", patch.path]
        git.currentDirectoryURL = folder
        let errors = Pipe()
        git.standardError = errors
        try git.run()
        git.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(git.terminationStatus == 0, "git apply: \(message)")
        #expect(try String(contentsOf: file, encoding: .utf8) == sources[0].port.ported)
        #expect(sources[0].port.ported.hasSuffix("\npublic class Late: NSManagedObject {}"))
    }
}
