import Foundation
import PackagePlugin

/// Generates a Swift class for each entity of the Core Data models in a target (an
/// `.xcdatamodeld` or `.xcdatamodel` among its files or, when it has none, among those of the
/// targets it depends on, such as a resources target), at build time, as Xcode's code
/// generation does: the classes always follow the model.
///
/// ```swift
/// .target(name: "App", dependencies: [.product(name: "TermData", package: "termdata")],
///         plugins: [.plugin(name: "TermDataClasses", package: "termdata")])
/// ```
@main
struct TermDataClasses: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        var models = Self.models(in: module)
        if models.isEmpty {
            models = module.dependencies.flatMap { dependency -> [URL] in
                guard case .target(let other) = dependency, let source = other as? SourceModuleTarget else { return [] }
                return Self.models(in: source)
            }
        }
        let tool = try context.tool(named: "termdata-classes")
        return models.map { model in
            let output = context.pluginWorkDirectoryURL.appending(path: "\(model.deletingPathExtension().lastPathComponent)+Classes.swift")
            return .buildCommand(displayName: "Generating the classes of \(model.lastPathComponent)",
                                 executable: tool.url, arguments: [model.path, output.path],
                                 inputFiles: [model] + Self.files(under: model), outputFiles: [output])
        }
    }

    /// The model bundles and folders among a target's files.
    static func models(in module: SourceModuleTarget) -> [URL] {
        module.sourceFiles.map(\.url).filter { ["xcdatamodeld", "xcdatamodel"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
    }

    /// Every file inside a model, so that an edit to any version rebuilds the classes.
    static func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
    }
}
