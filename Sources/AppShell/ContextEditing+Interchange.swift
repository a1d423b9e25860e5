import Foundation
import Interchange
import ObjectGraph
import TerminalUI

extension ContextEditing {
    /// File ▸ Import… and Export…, as commands named `<prefix>.import` and `.export`.
    package func interchangeCommands(prefix: String) -> [Command] {
        [
            Command("\(prefix).import", title: "Import objects from a graph JSON file") { [weak self] in
                self?.beginImport() ?? .ignored
            },
            Command("\(prefix).export", title: "Export every object to a graph JSON file") { [weak self] in
                self?.beginExport() ?? .ignored
            },
        ]
    }

    package func beginImport() -> EventResult {
        guard !isReadOnly else {
            app.showMessage("The store is open read-only", isError: true)
            return .redraw
        }
        guard !app.isWorking else {
            app.showMessage("Wait for the work in progress to end (Esc stops it) before importing", isError: true)
            return .redraw
        }
        app.beginPrompt("Import graph JSON from: ") { [weak self] path in
            guard !path.isEmpty else { return }
            self?.importGraph(from: Self.expanded(path))
        }
        return .redraw
    }

    /// Adds a graph file's objects to the context as unsaved changes, one step to undo. The
    /// file is read and parsed in the background, the application answering meanwhile (Esc
    /// stops it); its objects then go into the context on the loop, with the count so far in
    /// the status line. A file with problems adds nothing and a dialog lists them.
    package func importGraph(from path: String) {
        guard !app.isWorking else {
            app.showMessage("Wait for the work in progress to end (Esc stops it) before importing", isError: true)
            return
        }
        guard commitEdits() else {
            app.showMessage("Finish or cancel the edit (Esc) before importing", isError: true)
            return
        }
        let name = (path as NSString).lastPathComponent
        app.beginWork("Reading \(name)", start: { progress, finish in
            DispatchQueue.global(qos: .userInitiated).async {
                finish(Result { () throws -> GraphFile in
                    guard let data = FileManager.default.contents(atPath: path) else { throw ImportFailure("Cannot read \(path)") }
                    progress.report("\(data.count / 1024) KB read, parsing")
                    return try GraphFile(data: data)
                })
            }
        }, done: { [weak self] (result: Result<GraphFile, any Error>) in
            switch result {
            case .success(let graph): self?.insertGraph(graph, from: name)
            case .failure(let error as ImportFailure): self?.app.alert(title: "Nothing imported", message: error.description)
            case .failure(let error): self?.refusedImport(name, error)
            }
        })
    }

    /// The objects of a parsed graph file, into the context as one undoable change. While
    /// the user is typing in an editor or answering a dialog, the file waits: it goes in once
    /// they are done, so that no half-typed value is committed under them.
    private func insertGraph(_ graph: GraphFile, from name: String) {
        if isBusyWithUser {
            app.showMessage("Read \(name): its objects go in when the edit or dialog is done")
            var timer: TimerID?
            timer = app.schedule(after: 0.1, repeating: 0.1) { [weak self] app in
                guard let self, !self.isBusyWithUser else { return .ignored }
                if let timer { app.cancelTimer(timer) }
                self.insertGraph(graph, from: name)
                return .needsRedraw
            }
            return
        }
        guard commitEdits() else {
            app.showMessage("Finish or cancel the edit (Esc) before importing", isError: true)
            return
        }
        do {
            let total = graph.objectCount
            let count = try inOneUndoStep {
                try graph.importObjects(into: context, saving: false) { [weak self] done in
                    self?.app.showMessage("Importing… \(done) of \(total) objects")
                    self?.app.redraw()
                }
            }
            endEvent()
            app.showMessage("Imported \(count) object\(count == 1 ? "" : "s") — Ctrl-S saves, u takes them back")
        } catch {
            endEvent()
            refusedImport(name, error)
        }
    }

    /// Whether an editor has the keys or a dialog is open.
    private var isBusyWithUser: Bool {
        app.keyWindow?.isModal == true || app.keyWindow?.focusedView?.capturesTyping == true
    }

    private func refusedImport(_ name: String, _ error: any Error) {
        let text = "\(error)"
        app.alert(title: "Nothing imported", message: "\(name): "
                  + (text.hasPrefix("nothing imported:") ? String(text.dropFirst("nothing imported:".count)) : text))
    }

    package func beginExport() -> EventResult {
        app.beginPrompt("Export graph JSON to: ", text: "export.json") { [weak self] path in
            guard !path.isEmpty else { return }
            self?.exportGraph(to: Self.expanded(path))
        }
        return .redraw
    }

    /// Writes every object the context shows (saved and not) to a graph file, replacing the
    /// file whole or not at all, naming each entity in the status line as it is read.
    ///
    /// With nothing unsaved, the store alone has every object: the export is read and written
    /// on a background context, the application answering meanwhile (Esc stops it, and the
    /// file is left as it was). With unsaved changes only this context can, on the loop.
    package func exportGraph(to path: String) {
        if !context.hasChanges {
            let background = ManagedObjectContext(coordinator: context.coordinator, concurrencyType: .privateQueue)
            background.name = "export"
            app.beginWork("Exporting", cancel: { background.interruptWork() }, start: { progress, finish in
                background.perform {
                    finish(Result { () throws -> (objects: Int, problems: Int) in
                        let graph = try GraphFile.export(from: background) { entity, read in progress.report("\(entity), \(read) objects read") }
                        try ExportFile.write(graph, to: path)
                        return (graph.objectCount, graph.problems.count)
                    })
                }
            }, done: { [weak self] (result: Result<(objects: Int, problems: Int), any Error>) in
                switch result {
                case .success(let written): self?.app.showMessage(ExportFile.exported(written.objects, problems: written.problems, to: path))
                case .failure(let error): self?.app.alert(title: "Nothing exported", message: "\(path): \(error)")
                }
            })
            return
        }
        do {
            let graph = try GraphFile.export(from: context) { [weak self] entity, read in
                self?.app.showMessage("Exporting \(entity)… \(read) objects read")
                self?.app.redraw()
            }
            try ExportFile.write(graph, to: path)
            app.showMessage(ExportFile.exported(graph.objectCount, problems: graph.problems.count, to: path))
        } catch {
            app.alert(title: "Nothing exported", message: "\(path): \(error)")
        }
    }

    /// A path as typed: `~` is the home folder.
    static func expanded(_ path: String) -> String {
        (path.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
    }
}

/// Writing an export and saying so, from the loop or a background queue.
private enum ExportFile {
    /// Writes a graph file whole or not at all.
    static func write(_ graph: GraphFile, to path: String) throws {
        try Data((try JSONValue.text(graph.json) + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// What the status line says after an export.
    static func exported(_ count: Int, problems: Int, to path: String) -> String {
        let warnings = problems == 0 ? "" : " (\(problems) reference\(problems == 1 ? "" : "s") to missing rows written as null)"
        return "Exported \(count) object\(count == 1 ? "" : "s") to \(path)\(warnings)"
    }
}

/// A graph file that could not be read at all.
private struct ImportFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
