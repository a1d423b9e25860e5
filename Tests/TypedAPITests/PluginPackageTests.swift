import Foundation
import Testing
import TestSupport

/// Another package that depends on TermData, as an app would, and uses the TermDataClasses
/// plugin on the all-features corpus model: it builds, and its classes work.
@Suite("The build plugin in another package")
struct PluginPackageTests {
    @Test("a package using the TermDataClasses plugin on the all-features model builds and runs with its classes")
    func pluginInAnotherPackage() throws {
        let root = Fixtures.packageRoot
        let folder = try Fixtures.temporaryDirectory("plugin-package")
        let fm = FileManager.default
        try fm.copyItem(at: root.appendingPathComponent("Tests/TestSupport/Fixtures/PluginPackage/Sources"),
                        to: folder.appendingPathComponent("Sources"))
        try fm.copyItem(at: ModelFixtures.allFeatures, to: folder.appendingPathComponent("Sources/AllFeatures/model.xcdatamodeld"))
        // A package at a path goes by its folder's name.
        let identity = root.standardizedFileURL.lastPathComponent.lowercased()
        let template = try String(contentsOf: root.appendingPathComponent("Tests/TestSupport/Fixtures/PluginPackage/Package.swift.in"),
                                  encoding: .utf8)
        try template.replacingOccurrences(of: "@ROOT@", with: root.standardizedFileURL.path)
            .replacingOccurrences(of: "@IDENTITY@", with: identity)
            .write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // The versions this package resolved, so that the fixture needs no registry.
        let resolved = root.appendingPathComponent("Package.resolved")
        if fm.fileExists(atPath: resolved.path) { try fm.copyItem(at: resolved, to: folder.appendingPathComponent("Package.resolved")) }

        let build = try TermDataProcess.run(["swift", "build", "--package-path", folder.path],
                                            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(build.status == 0, "\(build.stdout)\n\(build.stderr)")
        guard build.status == 0 else { return }
        let generated = try fm.subpathsOfDirectory(atPath: folder.appendingPathComponent(".build/plugins/outputs").path)
        #expect(generated.contains { $0.hasSuffix("TermDataClasses/model+Classes.swift") }, "\(generated)")

        let run = try TermDataProcess.run([ModelFixtures.allFeatures.path],
                                          executable: folder.appendingPathComponent(".build/debug/AllFeatures"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "abstract=true found=1 values=2,true,1.25,0.25,16,64 ordered=true inverse=true fetchedProperty=Array<FetchedProperties>")
    }
}
