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
        /// The version's name: its `.xcdatamodel` folder (or compiled `.mom` file) without extension.
        public var name: String
        /// The model as this version defines it.
        public var model: ManagedObjectModel

        /// A version of this name with this model.
        public init(name: String, model: ManagedObjectModel) {
            self.name = name
            self.model = model
        }
    }

    /// Every version, in name order (Xcode's "ToDo", "ToDo 2", ... sort naturally).
    public var versions: [Version]
    /// The name of the current version.
    public var currentVersionName: String
    /// Apple's own entity version hashes of each version, by version name, where a compiled
    /// `.momd` lists them (`VersionInfo.plist`): they tell which version a store Apple's Core
    /// Data wrote was written with. Not part of equality: they describe the same versions.
    public var appleVersionHashes: [String: [String: Data]] = [:]

    /// The versions, in order, with the name of the current one.
    ///
    /// - Throws: `ModelError` when there is no version, or none has the current version's name.
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

    /// The version whose Apple hashes are these (a store's `NSStoreModelVersionHashes`).
    public func versionName(forAppleHashes hashes: [String: Data]) -> String? {
        guard !hashes.isEmpty else { return nil }
        return versions.map(\.name).last { appleVersionHashes[$0] == hashes }
    }

    /// Whether two sets of versions have the same versions and current version; Apple's version
    /// hashes are not compared.
    public static func == (lhs: ModelVersions, rhs: ModelVersions) -> Bool {
        lhs.versions == rhs.versions && lhs.currentVersionName == rhs.currentVersionName
    }

    /// Hashes the versions and the current version's name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(versions)
        hasher.combine(currentVersionName)
    }
}
