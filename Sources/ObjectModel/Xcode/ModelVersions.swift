import Foundation

/// The versions of a model, as an `.xcdatamodeld` bundle holds them, and which is current.
///
/// ```swift
/// let versions = try XcodeModelFile.read(url)
/// versions.current.entityNames
/// versions.version(named: "ToDo")          // version 1
/// ```
public struct ModelVersions: Sendable, Hashable {
    /// One version: its name (the `.xcdatamodel` folder without extension) and model.
    public struct Version: Sendable, Hashable {
        public var name: String
        public var model: ManagedObjectModel

        public init(name: String, model: ManagedObjectModel) {
            self.name = name
            self.model = model
        }
    }

    /// Every version, in name order (Xcode's "ToDo", "ToDo 2", ... sort naturally).
    public var versions: [Version]
    /// The name of the current version.
    public var currentVersionName: String

    public init(versions: [Version], currentVersionName: String) throws {
        guard !versions.isEmpty else { throw ModelError(.noVersions) }
        guard versions.contains(where: { $0.name == currentVersionName }) else {
            throw ModelError(.missingCurrentVersion(currentVersionName))
        }
        self.versions = versions
        self.currentVersionName = currentVersionName
    }

    /// The current version's model.
    public var current: ManagedObjectModel {
        versions.first { $0.name == currentVersionName }!.model
    }

    /// The version of this name.
    public func version(named name: String) -> ManagedObjectModel? {
        versions.first { $0.name == name }?.model
    }
}
