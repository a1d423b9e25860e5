import Foundation
import Testing

/// `@Managed` and `@ManagedAccessor` as a package that uses them meets them: source that
/// imports CoreData, compiled by the compiler with the built macro plugin, and what the
/// compiler expands and reports.
///
/// The test target does not depend on the macro target to call it in process
/// (swift-syntax's `assertMacroExpansion`): with SwiftPM 6, a test target that depends on a
/// macro makes every test target, and all they use, build a second time for the host.
@Suite("@Managed and @ManagedAccessor, the macros that stand for @NSManaged, through the compiler")
struct ManagedMacroTests {
    @Test("a property gets accessors that read and write the object's value by the property's name")
    func property() throws {
        let result = try MacroCompiler.typecheck("""
            import CoreData

            final class Item: NSManagedObject {}
            extension Item {
                @Managed public var title: String?
                @Managed var `default`: Int64
            }
            """)
        #expect(result.errors == [])
        #expect(result.expansions == [
            """
            {
                get {
                    managedValue(forKey: "title")
                }
                set {
                    setManagedValue(newValue, forKey: "title")
                }
            }
            """,
            """
            {
                get {
                    managedValue(forKey: "default")
                }
                set {
                    setManagedValue(newValue, forKey: "default")
                }
            }
            """,
        ])
    }

    @Test("Xcode's to-many accessors get bodies that change the relationship their name ends with")
    func accessors() throws {
        let result = try MacroCompiler.typecheck("""
            import CoreData
            import Foundation

            final class Tag: NSManagedObject {}
            final class Item: NSManagedObject {}
            extension Item {
                @Managed var tags: NSSet?
                @Managed var items: NSOrderedSet?
                @ManagedAccessor public func addToTags(_ value: Tag)
                @ManagedAccessor public func removeFromTags(_ values: NSSet)
                @ManagedAccessor public func insertIntoItems(_ value: Item, at idx: Int)
                @ManagedAccessor public func removeFromItems(at idx: Int)
                @ManagedAccessor public func replaceItems(at indexes: NSIndexSet, with values: [Item])
            }
            """)
        #expect(result.errors == [])
        #expect(Array(result.expansions.dropFirst(2)) == [
            "{\n    addToManagedRelationship(\"tags\", value)\n}",
            "{\n    removeFromManagedRelationship(\"tags\", values)\n}",
            "{\n    insertIntoManagedRelationship(\"items\", value, at: idx)\n}",
            "{\n    removeFromManagedRelationship(\"items\", at: idx)\n}",
            "{\n    replaceInManagedRelationship(\"items\", at: indexes, with: values)\n}",
        ])
    }

    @Test("misuses are refused at the attribute, saying what @NSManaged allows")
    func misuses() throws {
        let result = try MacroCompiler.typecheck("""
            import CoreData

            final class Item: NSManagedObject {
                @Managed let title: String? = nil
                @Managed var count: Int = 0
                @ManagedAccessor func tidyTags()
                @ManagedAccessor func addToTags(_ value: Item) { print(value) }
            }
            """)
        let expected: [MacroCompiler.Diagnostic] = [
            .init(line: 4, column: 5, message: "@Managed goes on one 'var' with a name, as @NSManaged does"),
            .init(line: 5, column: 5, message: "@Managed var count has no value or accessors of its own: the managed object keeps it"),
            .init(line: 6, column: 5, message: "@ManagedAccessor func tidyTags is none of the to-many accessors Xcode generates "
                  + "(addToX(_:), removeFromX(_:), insertIntoX(_:at:), removeFromX(at:), replaceX(at:with:))"),
            // The compiler's own, as the macro gave the function no body.
            .init(line: 6, column: 27, message: "expected '{' in body of function declaration"),
            .init(line: 7, column: 5, message: "@ManagedAccessor func addToTags has no body of its own: the managed object provides it"),
        ]
        #expect(result.errors == expected)
    }
}

/// The compiler, run as SwiftPM ran it on this test target: the same module search paths,
/// C module maps and macro plugin, read from the build's own plan (`debug.yaml`).
enum MacroCompiler {
    struct Diagnostic: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var message: String
        var description: String { "\(line):\(column): \(message)" }
    }

    struct Result {
        /// The bodies the macros expanded to, in source order.
        var expansions: [String]
        /// The errors, with the suffix naming the macro they came from taken off.
        var errors: [Diagnostic]
    }

    struct NoBuildPlan: Error, CustomStringConvertible {
        var description: String
    }

    /// Type-checks `source` as one file of a module that imports CoreData.
    static func typecheck(_ source: String) throws -> Result {
        let (compiler, flags) = try buildFlags()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-macro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-typecheck"] + flags
            + ["-module-name", "Snippet", "-Xfrontend", "-dump-macro-expansions", "-diagnostic-style", "llvm", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return parse(String(decoding: data, as: UTF8.self), file: file.path)
    }

    /// The compiler's output: expansions are dumped between two rules under the expansion's
    /// buffer name; errors are `file:line:column: error: message`.
    static func parse(_ output: String, file: String) -> Result {
        let rule = "------------------------------"
        var result = Result(expansions: [], errors: [])
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("@__swiftmacro_"), index + 1 < lines.count, lines[index + 1] == rule {
                var body: [String] = []
                index += 2
                while index < lines.count, lines[index] != rule {
                    body.append(lines[index])
                    index += 1
                }
                result.expansions.append(body.joined(separator: "\n"))
            } else if line.hasPrefix(file + ":"), let diagnostic = error(in: String(line.dropFirst(file.count + 1))) {
                result.errors.append(diagnostic)
            }
            index += 1
        }
        return result
    }

    private static func error(in text: String) -> Diagnostic? {
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, let line = Int(parts[0]), let column = Int(parts[1]),
              parts[2].trimmingCharacters(in: .whitespaces) == "error" else { return nil }
        var message = parts[3].trimmingCharacters(in: .whitespaces)
        if let from = message.range(of: " (from macro '", options: .backwards) { message = String(message[..<from.lowerBound]) }
        return Diagnostic(line: line, column: column, message: message)
    }

    /// The compiler and the flags SwiftPM compiled this target with, less what names its
    /// sources and outputs: the module search paths, the C module maps, the plugins.
    static func buildFlags() throws -> (compiler: String, flags: [String]) {
        let arguments = try compileCommand(ofModule: "CoreDataTests")
        var flags: [String] = []
        var index = 1
        func next() -> String? { index + 1 < arguments.count ? arguments[index + 1] : nil }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-I", "-target", "-module-cache-path", "-swift-version", "-sdk", "-resource-dir":
                if let value = next() { flags += [argument, value] }
                index += 2
            case "-Xcc":
                if let value = next() { flags += [argument, value] }
                index += 2
            case "-Xfrontend" where next() == "-load-plugin-executable" || next() == "-load-plugin-library":
                if index + 3 < arguments.count { flags += Array(arguments[index...(index + 3)]) }
                index += 4
            default:
                if argument.hasPrefix("-D") || argument.hasPrefix("-F") { flags.append(argument) }
                index += 1
            }
        }
        return (arguments[0], flags)
    }

    /// The compile command of `module` in the build plan beside the test bundle.
    static func compileCommand(ofModule module: String) throws -> [String] {
        let plan = try buildPlan()
        let marker = "\"-module-name\",\"\(module)\""
        let text = try String(contentsOf: plan, encoding: .utf8)
        for line in text.split(separator: "\n") where line.contains(marker) {
            guard let start = line.firstIndex(of: "[") else { continue }
            if let arguments = try? JSONDecoder().decode([String].self, from: Data(line[start...].utf8)), !arguments.isEmpty {
                return arguments
            }
        }
        throw NoBuildPlan(description: "\(plan.path) holds no compile command for \(module)")
    }

    /// SwiftPM's plan of the build the tests come from: `<scratch>/<configuration>.yaml`, two
    /// folders above the folder that holds the test bundle (`<scratch>/<triple>/<configuration>`).
    static func buildPlan() throws -> URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        let configuration = folder.lastPathComponent
        var scratch = folder
        for _ in 0..<3 {
            scratch.deleteLastPathComponent()
            let plan = scratch.appendingPathComponent("\(configuration).yaml")
            if FileManager.default.fileExists(atPath: plan.path) { return plan }
        }
        throw NoBuildPlan(description: "no \(configuration).yaml above \(folder.path): the tests run from a SwiftPM build")
    }
}
