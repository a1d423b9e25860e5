import Foundation
import ObjectGraph
import ObjectModel
import Predicates

/// A model under Core Data's name: the entities, configurations and fetch request
/// templates of an Xcode model (`.xcdatamodeld`, `.xcdatamodel`) or a compiled one (`.momd`,
/// `.mom`).
///
/// ```swift
/// let url = Bundle.main.url(forResource: "Model", withExtension: "momd")!
/// let model = NSManagedObjectModel(contentsOf: url)!
/// model.entitiesByName["Item"]?.attributesByName.keys
/// ```
///
/// A model read from a file with several versions keeps them all, so that a coordinator
/// made with it migrates stores written with an earlier one. Read-only, as the model of a
/// coordinator in use is in Core Data.
///
/// `@unchecked Sendable`: its stored properties are `let`s of `Sendable` values.
public final class NSManagedObjectModel: NSObject, @unchecked Sendable {
    /// The model in the engine's terms.
    public let engineModel: ManagedObjectModel
    /// Every version of the model, when it was read from a file that has them.
    public let versions: ModelVersions?

    /// A model built in the engine's terms.
    public init(_ model: ManagedObjectModel) {
        engineModel = model
        versions = nil
        super.init()
    }

    /// The current version of a model with all its versions, for migration.
    public init(versions: ModelVersions) {
        engineModel = versions.current
        self.versions = versions
        super.init()
    }

    /// The model in a file, or nil when there is none or it cannot be read (the reason goes
    /// to standard error, as Core Data logs it).
    public convenience init?(contentsOf url: URL) {
        do {
            self.init(versions: try ModelFile.read(url))
        } catch {
            FileHandle.standardError.write(Data("CoreData: cannot read the model \(url.path): \(error)\n".utf8))
            return nil
        }
    }

    /// One model with the entities of several (Core Data's `init(byMerging:)`); nil when two
    /// define one entity.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        guard let merged = try? ManagedObjectModel(merging: (models ?? []).map(\.engineModel)) else { return nil }
        self.init(merged)
    }

    /// The current version of every model in the bundles' resources, merged (`nil`: the main
    /// bundle and the resource bundles beside the program); nil when there is none.
    public static func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        let folders = (bundles ?? ModelSearch.defaultBundles).compactMap(\.resourceURL)
        guard let merged = try? ModelFile.mergedModel(inFolders: folders) else { return nil }
        return NSManagedObjectModel(merged)
    }

    /// Every entity of the model, in model order.
    public var entities: [NSEntityDescription] {
        engineModel.entities.map { NSEntityDescription($0, in: engineModel) }
    }

    /// Every entity of the model, by name.
    public var entitiesByName: [String: NSEntityDescription] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.engineEntity.name, $0) })
    }

    /// The names of the model's configurations (besides the default one, which holds every entity).
    public var configurations: [String] { engineModel.configurations.map(\.name) }

    /// The entities of a configuration; every entity for nil or the default name.
    public func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        engineModel.entities(inConfiguration: configuration).map { NSEntityDescription($0, in: engineModel) }
    }

    /// The model's version identifiers (Xcode's "Model Version Identifier").
    public var versionIdentifiers: Set<AnyHashable> { Set(engineModel.versionIdentifier.map { [AnyHashable($0)] } ?? []) }

    /// A request from one of the model's templates, with `$VARIABLES` filled in; nil when
    /// there is no template of that name.
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any]) -> NSFetchRequest<NSFetchRequestResult>? {
        guard engineModel.fetchRequestTemplate(named: name) != nil else { return nil }
        do {
            let request = try FetchRequest<ManagedObject>.fromTemplate(named: name, in: engineModel,
                                                        variables: variables.mapValues(CocoaValue.objectValue))
            return NSFetchRequest(request)
        } catch {
            preconditionFailure("fetch request template \(name): \(error)")
        }
    }

    /// A template's request as it is, variables unfilled; nil when there is none.
    public func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let template = engineModel.fetchRequestTemplate(named: name) else { return nil }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: template.entityName)
        if let format = template.predicateFormat, !format.isEmpty, let predicate = try? ObjectPredicate(format: format) {
            request.predicate = NSPredicate(predicate)
        }
        request.fetchLimit = template.fetchLimit
        return request
    }

    /// The templates by name.
    public var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] {
        var templates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]
        for template in engineModel.fetchRequestTemplates {
            templates[template.name] = fetchRequestTemplate(forName: template.name)
        }
        return templates
    }

    /// Whether the other is an equal model: the same entities, fetch request templates,
    /// configurations and version identifier.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSManagedObjectModel)?.engineModel == engineModel
    }

    /// A hash of the entities and templates, the same for equal models.
    public override var hash: Int { engineModel.hashValue }
}

/// Where Core Data's API looks for a model by name when given none: the main bundle, and
/// the resource bundles SwiftPM puts beside the program (`Package_Target.resources`).
enum ModelSearch {
    static var defaultBundles: [Bundle] {
        var bundles = [Bundle.main]
        let folder = Bundle.main.executableURL?.deletingLastPathComponent() ?? Bundle.main.bundleURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".resources") || name.hasSuffix(".bundle") {
            if let bundle = Bundle(url: folder.appendingPathComponent(name)) { bundles.append(bundle) }
        }
        return bundles
    }

    /// The model file named `name` (`.momd`, `.mom`, `.xcdatamodeld`, in that order) in the
    /// bundles, and where else it was looked for.
    static func modelURL(named name: String, in bundles: [Bundle] = defaultBundles) -> (url: URL?, searched: [String]) {
        var searched: [String] = []
        for bundle in bundles {
            for ext in ["momd", "mom", "xcdatamodeld", "xcdatamodel"] {
                if let url = bundle.url(forResource: name, withExtension: ext) { return (url, searched) }
            }
            searched.append(bundle.resourceURL?.path ?? bundle.bundlePath)
        }
        return (nil, searched)
    }
}
