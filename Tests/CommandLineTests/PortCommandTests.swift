import Foundation
import Testing
import TestSupport

@Suite("termdata port")
struct PortCommandTests {
    static let generated = """
        import Foundation
        import CoreData

        @objc(Item)
        public class Item: NSManagedObject {
            @NSManaged public var title: String?
        }
        """

    @Test("prints the edits as a diff and changes nothing; --write makes them, and a second port finds nothing")
    func diffThenWrite() throws {
        let session = try CommandLineSession()
        let folder = session.file("AppData")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".build"), withIntermediateDirectories: true)
        try Data(Self.generated.utf8).write(to: folder.appendingPathComponent("Item.swift"))
        try Data("let ignored = 1 // no Core Data here\n".utf8).write(to: folder.appendingPathComponent("Plain.swift"))
        // A build folder's sources are not the package's own.
        try Data(Self.generated.utf8).write(to: folder.appendingPathComponent(".build/Copy.swift"))

        let shown = try session.run(["port", folder.path])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("--- a/Item.swift\n+++ b/Item.swift\n@@ -1,7 +1,5 @@\n-import Foundation\n import CoreData\n \n-@objc(Item)\n"))
        #expect(shown.stdout.contains("-    @NSManaged public var title: String?\n+    @Managed public var title: String?\n"))
        #expect(shown.stderr == "3 edits in 1 of 2 Swift files; --write makes the edits\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("Item.swift"), encoding: .utf8) == Self.generated)

        let written = try session.run(["port", folder.path, "--write"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout == "ported Item.swift: 3 edits\n")
        #expect(try String(contentsOf: folder.appendingPathComponent("Item.swift"), encoding: .utf8) == """
            import CoreData

            public class Item: NSManagedObject {
                @Managed public var title: String?
            }
            """)
        #expect(try String(contentsOf: folder.appendingPathComponent(".build/Copy.swift"), encoding: .utf8) == Self.generated)

        let again = try session.run(["port", folder.path])
        #expect(again.stdout.isEmpty)
        #expect(again.stderr == "0 edits in 0 of 2 Swift files\n")
    }

    @Test("what has no rule is listed with its file and line; a path that is not there is refused")
    func notesAndRefusals() throws {
        let session = try CommandLineSession()
        let file = try session.write("import CoreData\n\nlet recent = NSPredicate(block: { _, _ in true })\n", to: "Recent.swift")
        let result = try session.run(["port", file])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Recent.swift:3:14: note: NSPredicate(block:) is not there on Linux"))
        #expect(result.stderr.hasSuffix("0 edits in 0 of 1 Swift file; 1 place to change by hand, listed above\n"))

        let missing = try session.run(["port", session.file("Nowhere").path])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("Nowhere: there is no such file or folder"))
    }
}
