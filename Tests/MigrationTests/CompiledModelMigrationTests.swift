import Foundation
import Testing
import ObjectModel
import ObjectGraph
import Migration
import SQLiteStore
import TestSupport

/// A compiled `.momd` lists Apple's own version hashes of each version: they tell exactly
/// which version a store Apple's Core Data wrote was written with.
@Suite("Finding an Apple store's version by a compiled model's hashes")
struct CompiledModelMigrationTests {
    static let sampleMomd = Fixtures.corpusFile("coredataplus-samplemodel/SampleModel.momd")

    init() { SQLiteStore.register() }

    @Test("SampleModel's stores are recognised as versions 1 and 2 by the hashes VersionInfo.plist lists",
          arguments: [(ModelFixtures.sampleStoreV1, "SampleModel"), (ModelFixtures.sampleStoreV2, "SampleModel2")])
    func byAppleHashes(store: URL, version: String) throws {
        let url = try Fixtures.copyOfCorpusFile(store)
        let versions = try CompiledModelFile.read(Self.sampleMomd)
        let metadata = try PersistentStoreCoordinator.metadataForStore(ofType: .sqlite, at: url)
        #expect(metadata.versionHashes.isEmpty, "Apple's hashes are not this project's")
        #expect(versions.versionName(forAppleHashes: metadata.appleVersionHashes) == version)
        #expect(try StoreMigrator(versions: versions).sourceVersion(forStoreAt: url, type: .sqlite) == version)
    }

    @Test("where two versions share a schema, the hashes pick the right one; the schema alone takes the newest")
    func hashesDecideWhereSchemasAgree() throws {
        let url = try Fixtures.copyOfCorpusFile(ModelFixtures.sampleStoreV2)
        let compiled = try CompiledModelFile.read(Self.sampleMomd)
        let two = try #require(compiled.version(named: "SampleModel2"))
        var versions = try ModelVersions(versions: [.init(name: "A", model: two), .init(name: "B", model: two)], currentVersionName: "B")
        #expect(try StoreMigrator(versions: versions).sourceVersion(forStoreAt: url, type: .sqlite) == "B")
        versions.appleVersionHashes = ["A": compiled.appleVersionHashes["SampleModel2"]!, "B": compiled.appleVersionHashes["SampleModel3"]!]
        #expect(try StoreMigrator(versions: versions).sourceVersion(forStoreAt: url, type: .sqlite) == "A")
    }
}
