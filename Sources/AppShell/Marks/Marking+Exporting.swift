import Foundation
import Interchange
import ObjectGraph
import Predicates
import TerminalUI

/// `X`: the rows a table shows — its filter, its sort, its visible columns — or else the
/// marked objects among them, written to a CSV or JSON file (by the name's ending), in the
/// background with the rows counted in the status bar; Esc stops it and leaves the file as
/// it was.
extension Marking {
    /// `X`, named `<prefix>.exportView`, for the marked table's `extraCommands`.
    package func exportViewCommand(prefix: String) -> Command {
        Command("\(prefix).exportView", title: "Export the rows shown or marked (CSV, JSON)", keys: [.character("X")]) { [weak self] in
            self?.beginExportView() ?? .ignored
        }
    }

    private func beginExportView() -> EventResult {
        guard let controller = markedController else { return .handled }
        guard !app.isWorking else {
            app.showMessage("Wait for the work in progress to end (Esc stops it) before exporting", isError: true)
            return .redraw
        }
        let marked = markedIDs(of: controller.entityName)
        let what = marked.map { "\($0.count) marked" } ?? "the \(controller.arrangedCount) \(controller.entityName) shown"
        app.beginPrompt("Export \(what) to (.csv or .json): ", text: "\(controller.entityName).csv") { [weak self] path in
            guard !path.isEmpty else { return }
            self?.exportView(to: Self.expanded(path))
        }
        return .redraw
    }

    /// The marked objects of the entity (or its sub-entities); nil without marks there.
    private func markedIDs(of entityName: String) -> [ManagedObjectID]? {
        let model = context.model
        let ids = marks.ids.filter { model.entity(named: $0.entityName)?.isKind(of: entityName) == true }
        return ids.isEmpty ? nil : Array(ids)
    }

    /// Writes the view, or its marks, to `path`. With unsaved changes only this context
    /// has the rows as shown, so it writes them here and now; otherwise the store does, and
    /// the rows are read and written on a context of their own while the keys answer.
    package func exportView(to path: String) {
        guard let controller = markedController, commitEdits() else { return }
        let fetch = controller.arrangedObjectsRequest
        let request = ViewRows(entityName: fetch.entityName, predicate: fetch.predicate, sortDescriptors: fetch.sortDescriptors,
                               marked: markedIDs(of: controller.entityName),
                               keys: markedTable.columns.filter { !$0.isHidden }.map(\.id))
        let name = (path as NSString).lastPathComponent
        if context.hasChanges {
            do {
                let count = try request.write(to: path, in: context) { _ in }
                app.showMessage(Self.exported(count, to: path))
            } catch {
                app.alert(title: "Nothing exported", message: "\(name): \(error)")
            }
            return
        }
        let background = ManagedObjectContext(coordinator: context.coordinator, concurrencyType: .privateQueue)
        background.name = "export"
        let stop = WorkStop()
        app.beginWork("Exporting to \(name)", cancel: { background.interruptWork() }, canStop: { stop.stop() }, start: { progress, finish in
            background.perform {
                finish(Result {
                    try request.write(to: path, in: background) { written in
                        try stop.check()
                        progress.report("\(written) rows written")
                    }
                })
                background.reset()
            }
        }, done: { [weak self] (result: Result<Int, any Error>) in
            switch result {
            case .success(let count): self?.app.showMessage(Self.exported(count, to: path))
            case .failure(is CancellationError): self?.app.showMessage("Export stopped: \(name) is as it was")
            case .failure(let error): self?.app.alert(title: "Nothing exported", message: "\(name): \(error)")
            }
        })
    }

    private static func exported(_ count: Int, to path: String) -> String {
        "Exported \(count) row\(count == 1 ? "" : "s") to \(path)"
    }
}

/// What an export of a view writes: the objects of the entity the predicate matches (or the
/// marked ones), in the view's order, with the view's columns.
struct ViewRows: Sendable {
    let entityName: String
    let predicate: ObjectPredicate?
    let sortDescriptors: [ObjectSortDescriptor]
    let marked: [ManagedObjectID]?
    let keys: [String]

    /// How many objects are read at a time.
    static let batch = 500

    /// Writes the rows, calling `progress` with the count so far every batch (it throws to
    /// stop); the file is replaced only when all are written. Returns how many were.
    func write(to path: String, in context: ManagedObjectContext, progress: (Int) throws -> Void) throws -> Int {
        var file = try ObjectRowsFile(path: path, keys: keys)
        do {
            for object in try objects(in: context) {
                try file.write(object)
                if file.count % Self.batch == 0 { try progress(file.count) }
            }
            try file.finish()
        } catch {
            file.discard()
            throw error
        }
        return file.count
    }

    /// The objects in order: fetched in batches as they are written, or, for marks, fetched
    /// a batch of IDs at a time and sorted as the view is.
    private func objects(in context: ManagedObjectContext) throws -> [ManagedObject] {
        guard let marked else {
            var request = FetchRequest(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
            request.fetchBatchSize = Self.batch
            return Array(try context.fetch(request))
        }
        var objects: [ManagedObject] = []
        for start in stride(from: 0, to: marked.count, by: Self.batch) {
            let ids = marked[start..<min(marked.count, start + Self.batch)].map { ObjectValue.object($0) }
            objects += try context.fetch(FetchRequest(entityName: entityName, predicate: try ObjectPredicate(format: "SELF IN %@", ObjectValue.array(ids))))
        }
        // Unsorted, a view is in the store's order, which is the keys'.
        return try sortDescriptors.isEmpty ? objects.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
                                           : sortDescriptors.sorted(objects)
    }
}
