import Foundation

/// Reads the models Xcode compiles into an app: a `.mom` file (one version) or a `.momd`
/// folder (every version, with `VersionInfo.plist` naming the current one).
///
/// ```swift
/// let versions = try CompiledModelFile.read(URL(fileURLWithPath: "Model.momd"))
/// versions.current.entityNames
/// ```
///
/// A `.mom` is an `NSKeyedArchiver` archive of the model in a binary property list;
/// docs/StoreFormats.md ("Compiled models") describes what is read from it. Xcode's `.omo`
/// files (the same model, optimised for loading) are not needed and not read.
public enum CompiledModelFile {
    /// The largest `.mom` read: models are kilobytes; a file far larger is not one.
    public static let maximumSize = 32 * 1_048_576

    /// Reads a `.momd` folder (every version) or a `.mom` file (one version).
    ///
    /// - Throws: `ModelError` naming the file and what in it is wrong.
    public static func read(_ url: URL) throws -> ModelVersions {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, file: url.path)
        }
        if isDirectory.boolValue { return try readFolder(url) }
        let name = url.deletingPathExtension().lastPathComponent
        return try ModelVersions(versions: [.init(name: name, model: readVersion(url))], currentVersionName: name)
    }

    /// Reads one compiled version: a `.mom` file.
    public static func readVersion(_ url: URL) throws -> ManagedObjectModel {
        let fm = FileManager.default
        if let size = (try? fm.attributesOfItem(atPath: url.path))?[.size] as? Int, size > maximumSize {
            throw ModelError(.unreadable("it is \(size) bytes long, and a compiled model is at most \(maximumSize / 1_048_576) MB"),
                             file: url.path)
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            guard fm.fileExists(atPath: url.path) else { throw ModelError(.fileNotFound, file: url.path) }
            let reason = access(url.path, R_OK) != 0 ? "you may not read it (permission denied)" : error.localizedDescription
            throw ModelError(.unreadable(reason), file: url.path)
        }
        return try model(archive: data, file: url.path)
    }

    /// A model from the bytes of its keyed archive: a `.mom` file's contents, or a store's
    /// cached model once inflated.
    ///
    /// - Parameter data: the keyed archive's bytes (a binary property list).
    /// - Parameter file: what to name in errors.
    public static func model(archive data: Data, file: String) throws -> ManagedObjectModel {
        guard BinaryPropertyList.looksLikeOne(data) else {
            let start = data.prefix(8).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw ModelError(.notAModel("a compiled model is a binary property list, and this file starts with \"\(start)\""), file: file)
        }
        let top: PropertyListValue
        do { top = try BinaryPropertyList.read(data) } catch let problem as BinaryPropertyList.Problem {
            throw ModelError(.malformedBinaryPropertyList(problem.description), file: file)
        }
        let archive: KeyedArchive
        do { archive = try KeyedArchive(top) } catch let problem as KeyedArchive.Problem {
            throw ModelError(.notAModel(problem.message), file: file)
        }
        return try CompiledModelReader(file: file, archive: archive).read()
    }

    private static func readFolder(_ url: URL) throws -> ModelVersions {
        let fm = FileManager.default
        let items: [String]
        do { items = try fm.contentsOfDirectory(atPath: url.path) } catch {
            throw ModelError(.unreadable(error.localizedDescription), file: url.path)
        }
        let names = items.filter { $0.hasSuffix(".mom") }
            .map { String($0.dropLast(".mom".count)) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        guard !names.isEmpty else { throw ModelError(.noVersions, file: url.path) }
        var versions: [ModelVersions.Version] = []
        for name in names {
            versions.append(.init(name: name, model: try readVersion(url.appendingPathComponent(name + ".mom"))))
        }
        let current = try currentVersionName(in: url, names: names)
        do {
            var result = try ModelVersions(versions: versions, currentVersionName: current)
            result.appleVersionHashes = appleVersionHashes(in: url)
            return result
        } catch let error as ModelError {
            throw error.located(file: url.appendingPathComponent("VersionInfo.plist").path, line: nil)
        }
    }

    /// `VersionInfo.plist`'s `NSManagedObjectModel_VersionHashes`: Apple's entity version
    /// hashes of each version, by version name; empty when the file lists none.
    public static func appleVersionHashes(in folder: URL) -> [String: [String: Data]] {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("VersionInfo.plist").path),
              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let byVersion = plist["NSManagedObjectModel_VersionHashes"] as? [String: Any] else { return [:] }
        var result: [String: [String: Data]] = [:]
        for (version, entities) in byVersion {
            guard let entities = entities as? [String: Any] else { continue }
            result[version] = entities.compactMapValues { $0 as? Data }
        }
        return result
    }

    /// `VersionInfo.plist`'s `NSManagedObjectModel_CurrentVersionName`; without the file, a
    /// folder of one version is unambiguous.
    private static func currentVersionName(in folder: URL, names: [String]) throws -> String {
        let file = folder.appendingPathComponent("VersionInfo.plist")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            guard names.count == 1 else {
                throw ModelError(.notAModel("no VersionInfo.plist to say which of its \(names.count) versions is current"), file: folder.path)
            }
            return names[0]
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil),
              let dictionary = plist as? [String: Any],
              let name = dictionary["NSManagedObjectModel_CurrentVersionName"] as? String else {
            throw ModelError(.notAModel("no NSManagedObjectModel_CurrentVersionName string in the property list"), file: file.path)
        }
        return name
    }
}

/// Reads any model file by what it is: Xcode's `.xcdatamodeld` and `.xcdatamodel`, or a
/// compiled `.momd` or `.mom`.
///
/// ```swift
/// let versions = try ModelFile.read(URL(fileURLWithPath: "App.app/Model.momd"))
/// ```
public enum ModelFile {
    /// Reads every version of the model at `url`: a compiled one (see `isCompiled(_:)`) as
    /// `CompiledModelFile` reads it, anything else as `XcodeModelFile` does.
    ///
    /// - Throws: `ModelError` naming the file and what in it is wrong.
    public static func read(_ url: URL) throws -> ModelVersions {
        if isCompiled(url) { return try CompiledModelFile.read(url) }
        return try XcodeModelFile.read(url)
    }

    /// Whether the path names a compiled model: by its extension, or, for a file, by its
    /// first bytes.
    public static func isCompiled(_ url: URL) -> Bool {
        switch url.pathExtension {
        case "momd", "mom": return true
        case "xcdatamodeld", "xcdatamodel": return false
        default:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return false }
            if isDirectory.boolValue {
                return FileManager.default.fileExists(atPath: url.appendingPathComponent("VersionInfo.plist").path)
            }
            guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
            defer { try? handle.close() }
            return BinaryPropertyList.looksLikeOne((try? handle.read(upToCount: 8)) ?? Data())
        }
    }
}
