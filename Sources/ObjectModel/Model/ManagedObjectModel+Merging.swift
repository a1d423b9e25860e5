import Foundation

extension ManagedObjectModel {
    /// One model holding the entities, fetch request templates and configurations of
    /// several, as Core Data's `NSManagedObjectModel(byMerging:)` does: an app that keeps its
    /// model in parts (a framework's and its own) opens one store with all of them.
    ///
    /// Configurations of one name are joined; the merged model has no version identifier.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(merging: [("Core.xcdatamodeld", core), ("App.xcdatamodeld", app)])
    /// ```
    ///
    /// - Parameter models: each model with the name it goes by in messages (its file).
    /// - Throws: `ModelError` naming the entity or template two of them define, and both sources.
    public init(merging models: [(source: String, model: ManagedObjectModel)]) throws {
        var entities: [EntityDescription] = [], entitySources: [String: String] = [:]
        var templates: [FetchRequestTemplate] = [], templateSources: [String: String] = [:]
        var configurations: [ModelConfiguration] = []
        for (source, model) in models {
            for entity in model.entityDescriptions {
                // A SQLite store keeps entities that differ only in case in one table.
                let key = entity.name.uppercased()
                if let first = entitySources[key] {
                    throw ModelError(.definedInBoth(what: "entity", first: first, second: source), entity: entity.name)
                }
                entitySources[key] = source
                entities.append(entity)
            }
            for template in model.fetchRequestTemplates {
                if let first = templateSources[template.name] {
                    throw ModelError(.definedInBoth(what: "fetch request template '\(template.name)'", first: first, second: source))
                }
                templateSources[template.name] = source
                templates.append(template)
            }
            for configuration in model.configurations {
                if let i = configurations.firstIndex(where: { $0.name == configuration.name }) {
                    configurations[i].entityNames += configuration.entityNames
                } else {
                    configurations.append(configuration)
                }
            }
        }
        try self.init(entities: entities, fetchRequestTemplates: templates, configurations: configurations)
    }

    /// The models merged, each named by its position in messages ("model 1", ...).
    public init(merging models: [ManagedObjectModel]) throws {
        try self.init(merging: models.enumerated().map { ("model \($0.offset + 1)", $0.element) })
    }
}

extension ModelFile {
    /// The current versions of every model in some folders, merged (Core Data's
    /// `mergedModelFromBundles:`): each `.xcdatamodeld`, `.xcdatamodel`, `.momd` and `.mom`
    /// directly in each folder, in name order.
    ///
    /// - Throws: the `ModelError` of a model that cannot be read, or of two that define one
    ///   entity, naming both files; `fileNotFound` for a folder with no model at all.
    public static func mergedModel(inFolders folders: [URL]) throws -> ManagedObjectModel {
        var models: [(source: String, model: ManagedObjectModel)] = []
        for folder in folders {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                throw ModelError(.unreadable(error.localizedDescription), file: folder.path)
            }
            for name in names.sorted() where ["xcdatamodeld", "xcdatamodel", "momd", "mom"].contains((name as NSString).pathExtension) {
                let url = folder.appendingPathComponent(name)
                models.append((url.path, try read(url).current))
            }
        }
        guard !models.isEmpty else {
            throw ModelError(.notAModel("no .xcdatamodeld, .xcdatamodel, .momd or .mom in \(folders.map(\.path).joined(separator: ", "))"))
        }
        return try ManagedObjectModel(merging: models)
    }
}
