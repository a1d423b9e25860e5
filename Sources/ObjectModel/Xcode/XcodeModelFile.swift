import Foundation
import Predicates

/// Reads and writes the model files Xcode keeps: a versioned `.xcdatamodeld` bundle or a
/// single `.xcdatamodel` (each a folder holding a `contents` XML file).
///
/// ```swift
/// let versions = try XcodeModelFile.read(URL(fileURLWithPath: "ToDo.xcdatamodeld"))
/// try XcodeModelFile.write(versions, to: URL(fileURLWithPath: "Copy.xcdatamodeld"))
/// ```
public enum XcodeModelFile {
    /// Reads a `.xcdatamodeld` bundle (every version) or a `.xcdatamodel` (one version).
    ///
    /// - Throws: `ModelError` naming the file, the line, the entity and the property.
    public static func read(_ url: URL) throws -> ModelVersions {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, file: url.path)
        }
        if url.pathExtension == "xcdatamodeld" {
            return try readBundle(url)
        }
        let name = url.deletingPathExtension().lastPathComponent
        let model = try readVersion(url)
        return try ModelVersions(versions: [.init(name: name, model: model)], currentVersionName: name)
    }

    /// The largest `contents` file read: 10 MB.
    public static let maximumSize = 10 * 1_048_576

    /// Reads one version's model: a `.xcdatamodel` folder, or the `contents` file in one.
    ///
    /// - Throws: `ModelError` for a file that is missing, larger than `maximumSize`, unreadable,
    ///   or not a model.
    public static func readVersion(_ url: URL) throws -> ManagedObjectModel {
        var isDirectory: ObjCBool = false
        let fm = FileManager.default
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, file: url.path)
        }
        let contents = isDirectory.boolValue ? url.appendingPathComponent("contents") : url
        guard fm.fileExists(atPath: contents.path) else {
            throw ModelError(.notAModel("no 'contents' file in the .xcdatamodel folder"), file: url.path)
        }
        // Xcode's models are a few hundred kilobytes at most; a file far larger is not one,
        // and is not read into memory to find that out.
        if let size = (try? fm.attributesOfItem(atPath: contents.path))?[.size] as? Int, size > maximumSize {
            throw ModelError(.unreadable("it is \(size) bytes long, and a model file is at most \(maximumSize / 1_048_576) MB"),
                             file: contents.path)
        }
        let data: Data
        do { data = try Data(contentsOf: contents) } catch {
            let reason = access(contents.path, R_OK) != 0 ? "you may not read it (permission denied)" : error.localizedDescription
            throw ModelError(.unreadable(reason), file: contents.path)
        }
        return try XcodeModelReader(file: contents.path).read(data)
    }

    private static func readBundle(_ url: URL) throws -> ModelVersions {
        let fm = FileManager.default
        let items: [String]
        do { items = try fm.contentsOfDirectory(atPath: url.path) } catch {
            throw ModelError(.unreadable(error.localizedDescription), file: url.path)
        }
        let versionFolders = items.filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            .map { $0 + ".xcdatamodel" }
        guard !versionFolders.isEmpty else { throw ModelError(.noVersions, file: url.path) }
        var versions: [ModelVersions.Version] = []
        for folder in versionFolders {
            let model = try readVersion(url.appendingPathComponent(folder))
            versions.append(.init(name: String(folder.dropLast(".xcdatamodel".count)), model: model))
        }
        let current = try currentVersionName(in: url, versions: versions)
        do {
            return try ModelVersions(versions: versions, currentVersionName: current)
        } catch let error as ModelError {
            throw error.located(file: url.appendingPathComponent(".xccurrentversion").path, line: nil)
        }
    }

    private static func currentVersionName(in bundle: URL, versions: [ModelVersions.Version]) throws -> String {
        let file = bundle.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            // Without the marker a bundle of one version is unambiguous; Xcode takes the last otherwise.
            return versions.last!.name
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil),
              let dict = plist as? [String: Any], let name = dict["_XCCurrentVersionName"] as? String else {
            throw ModelError(.notAModel("no _XCCurrentVersionName string in the property list"), file: file.path)
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    /// Writes every version into a `.xcdatamodeld` bundle with its `.xccurrentversion`.
    public static func write(_ versions: ModelVersions, to url: URL) throws {
        // Every version's text first: a model that XML cannot hold is refused before a file is made.
        let contents = try versions.versions.map { try Self.contents(of: $0.model, file: $0.name + ".xcdatamodel") }
        let fm = FileManager.default
        try fm.createDirectory(at: url, withIntermediateDirectories: true)
        for (version, xml) in zip(versions.versions, contents) {
            let folder = url.appendingPathComponent(version.name + ".xcdatamodel")
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"), options: .atomic)
        }
        let plist: [String: Any] = ["_XCCurrentVersionName": versions.currentVersionName + ".xcdatamodel"]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try data.write(to: url.appendingPathComponent(".xccurrentversion"), options: .atomic)
    }

    /// Writes one version as a `.xcdatamodel` folder with its `contents` file.
    public static func writeVersion(_ model: ManagedObjectModel, to url: URL) throws {
        let xml = try contents(of: model, file: url.lastPathComponent)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: url.appendingPathComponent("contents"), options: .atomic)
    }

    /// A version's `contents` file, or the error naming the element (and its line) that
    /// holds text XML cannot hold: a model read from a compiled file or a store may carry
    /// any character, and a file that nothing could read back must not be written.
    static func contents(of model: ManagedObjectModel, file: String) throws -> String {
        let xml = XcodeModelWriter().write(model)
        guard XMLText.firstUnwritable(in: xml) != nil else { return xml }
        for (number, line) in xml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let character = XMLText.firstUnwritable(in: String(line)) else { continue }
            // The element as far as its name: `<attribute name="title"`.
            let trimmed = line.drop { $0 == " " }
            var element = String(trimmed.prefix { $0 != " " && $0 != ">" })
            if let name = trimmed.range(of: " name=\"") {
                element += " " + trimmed[name.lowerBound...].dropFirst().prefix { $0 != " " && $0 != ">" }
            }
            throw ModelError(.unwritableInXML(element: element + ">", character: character), file: file, line: number + 1)
        }
        return xml
    }
}
