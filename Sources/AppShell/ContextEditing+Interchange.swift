import Foundation
import Synchronization
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

    /// Adds a graph file's objects to the store: read, parsed, checked, inserted and saved
    /// on a background context, all or nothing, the application answering meanwhile (Esc
    /// stops it, and nothing is saved). The status line counts the objects as they go in.
    /// The import is saved on its own: the context's unsaved changes stay unsaved, and an
    /// edit in progress stays open. When it is saved, the context merges it, and the tables
    /// read their rows again from the store. A file with problems adds nothing and a dialog
    /// lists them.
    package func importGraph(from path: String) {
        guard !app.isWorking else {
            app.showMessage("Wait for the work in progress to end (Esc stops it) before importing", isError: true)
            return
        }
        let name = (path as NSString).lastPathComponent
        saveInBackground("Importing \(name)", contextName: "import") { background, progress, stop in
            guard let data = FileManager.default.contents(atPath: path) else { throw ImportFailure("Cannot read \(path)") }
            progress.report("\(data.count / 1024) KB read, parsing")
            let graph = try GraphFile(data: data)
            try stop.check()
            let total = graph.objectCount
            return try graph.importObjects(into: background, saving: true, progress: { done in
                try stop.check()
                progress.report("\(done) of \(total) objects")
            }, willSave: {
                try stop.beginSaving()
                progress.reportFinishing("saving \(total) objects")
            })
        } done: { [weak self] (result: Result<SavedInBackground<Int>, any Error>) in
            switch result {
            case .success(let imported): self?.didImport(imported)
            case .failure(let error as ImportFailure): self?.app.alert(title: "Nothing imported", message: error.description)
            case .failure(let error): self?.refusedImport(name, error)
            }
        }
    }

    /// Work that changes the store on a background context of its own and saves there, all
    /// or nothing, the application answering meanwhile; `done` gets `body`'s value and what
    /// the save wrote, for the context to merge. Esc stops the work (it is interrupted, and
    /// `stop.check()` throws) until `body` calls `stop.beginSaving()` just before its save:
    /// from then it runs to its end, so that the store and the screen agree. Other programs'
    /// news waits for it, so that its save is not announced as theirs.
    package func saveInBackground<T: Sendable>(_ title: String, contextName: String,
                                               _ body: @escaping @Sendable (ManagedObjectContext, WorkProgress, WorkStop) throws -> T,
                                               done: @escaping (Result<SavedInBackground<T>, any Error>) -> Void) {
        let background = ManagedObjectContext(coordinator: context.coordinator, concurrencyType: .privateQueue)
        background.name = contextName
        background.transactionAuthor = context.transactionAuthor
        let stop = WorkStop()
        let work = app.beginWork(title, cancel: { background.interruptWork() }, canStop: { stop.stop() },
                                 start: { progress, finish in
            background.perform {
                finish(Result { () throws -> SavedInBackground<T> in
                    var saved: ContextDidSave?
                    let observation = background.observe { if case .didSave(let save) = $0 { saved = save } }
                    defer { observation.cancel() }
                    let value = try body(background, progress, stop)
                    return SavedInBackground(value: value, save: saved ?? ContextDidSave(inserted: [], updated: [], deleted: []))
                })
                // What the work brought into memory goes with it.
                background.reset()
            }
        }, done: done)
        live?.pause(while: work)
    }

    /// A saved import, merged: its objects appear in the tables.
    private func didImport(_ imported: SavedInBackground<Int>) {
        context.mergeChanges(fromContextDidSave: imported.save)
        endEvent()
        let count = imported.value
        app.showMessage("Imported and saved \(count) object\(count == 1 ? "" : "s")")
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
        var bytes = try JSONValue.bytes(graph.json)
        bytes.append(0x0A)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// What the status line says after an export.
    static func exported(_ count: Int, problems: Int, to path: String) -> String {
        let warnings = problems == 0 ? "" : " (\(problems) reference\(problems == 1 ? "" : "s") to missing rows written as null)"
        return "Exported \(count) object\(count == 1 ? "" : "s") to \(path)\(warnings)"
    }
}

/// What work on a background context returned, and what its save wrote, for the loop to merge.
package struct SavedInBackground<Value: Sendable>: Sendable {
    package let value: Value
    package let save: ContextDidSave
}

/// The user's Esc, seen by work on another thread, until the work starts saving: from then
/// on it finishes, so that what the store holds and what the screen says agree.
package final class WorkStop: Sendable {
    private static let running = 0, stopped = 1, saving = 2
    private let state = Atomic<Int>(WorkStop.running)

    package init() {}

    /// Asks the work to stop: true when it will, false when it is saving already (for
    /// `Application.beginWork`'s `canStop`).
    package func stop() -> Bool {
        let (exchanged, original) = state.compareExchange(expected: Self.running, desired: Self.stopped, ordering: .acquiringAndReleasing)
        return exchanged || original == Self.stopped
    }

    /// Throws once the user gave up.
    package func check() throws {
        if state.load(ordering: .acquiring) == Self.stopped { throw CancellationError() }
    }

    /// Marks the start of the save, after which a stop is refused; throws when the user gave
    /// up before it.
    package func beginSaving() throws {
        let (exchanged, original) = state.compareExchange(expected: Self.running, desired: Self.saving, ordering: .acquiringAndReleasing)
        guard exchanged || original == Self.saving else { throw CancellationError() }
    }
}

/// A graph file that could not be read at all.
private struct ImportFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
