import ArgumentParser
import Foundation
import Interchange
import ObjectGraph
import ObjectModel

/// `termdata import --store PATH --model MODEL [--type T] FILE`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the objects of a graph JSON file to a store, creating the store when missing.",
        discussion: """
            The file lists objects under their concrete entity, each with an @id; a to-one \
            relationship holds an @id, a to-many one an array of them; dates are ISO-8601 \
            strings, binary data is base64, null is no value:

              {"format": "termdata-graph", "version": 1, "entities": {
                "Category": [{"@id": "c1", "name": "Home"}],
                "ToDo": [{"@id": "t1", "name": "Buy milk", "category": "c1",
                          "dueDate": "2024-05-01T10:00:00Z"}]}}

            `termdata export` writes the same format. Invalid input (an unknown entity or \
            key, a value of the wrong type, a dangling reference, relationship sides that \
            disagree) is reported with each object's @id, and nothing is written.
            """
    )

    @OptionGroup var storeArguments: StoreArguments

    @Argument(help: "The graph JSON file (format \"termdata-graph\", version 1).")
    var file: String

    func run() throws {
        let model = try storeArguments.loadModel()
        // Read in passes, never held whole: checked first, before the store is opened, so
        // that a file with problems makes no store.
        let stream: GraphFileStream
        do {
            stream = try GraphFileStream(path: file)
            try stream.check(against: model)
        } catch let error as GraphFileStreamError {
            throw CommandFailure("\(error)")
        } catch let error as GraphFileError {
            throw CommandFailure("\(file): \(error)")
        } catch let error as GraphImportError {
            throw CommandFailure("\(file): \(error)")
        }
        let url = storeArguments.storeURL
        let existed = !url.isFileURL || FileManager.default.fileExists(atPath: url.path)
        let context = try storeArguments.open(model: model, creating: true)
        context.transactionAuthor = "termdata import"
        do {
            do {
                // Written as rows, in parts, in one transaction.
                try stream.importObjects(into: context.coordinator, transaction: TransactionInfo(author: context.transactionAuthor))
            } catch GraphFileStreamError.cannotWriteRows {
                // A store that keeps its objects in memory anyway (XML, binary), or a file
                // whose objects need a context: through the context, the file read whole.
                try stream.wholeFile().importObjects(into: context, checked: true)
            }
        } catch {
            for store in context.coordinator.stores { context.coordinator.removeStore(store) }
            if !existed {
                for file in StoreFiles.databaseFiles(forStoreAt: url) { try? FileManager.default.removeItem(at: file) }
                // The failed save removed the files it wrote; the folder may be another store's too.
                StoreFiles.removeEmptySupportDirectory(forStoreAt: url)
            }
            if error is GraphImportError { throw CommandFailure("\(file): \(error)") }
            throw CommandFailure("\(file): nothing imported: \(error)")
        }
        try StandardOutput.line("imported \(stream.objectCount) object(s) into \(storeArguments.storeName)")
    }
}
