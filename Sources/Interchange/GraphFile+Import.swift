import Foundation
import ObjectGraph
import ObjectModel

extension GraphFile {
    /// Checks the file against the context's model, inserts its objects and saves them: all
    /// of them or, on any problem, none. A failed import takes back what it inserted and
    /// leaves the context's other changes as they were.
    ///
    /// ```swift
    /// let count = try GraphFile(data: data).importObjects(into: context)
    /// ```
    ///
    /// - Parameters:
    ///   - context: the context the objects are inserted into (and saved through).
    ///   - saving: save after inserting; without it the objects are left as unsaved
    ///     changes of the context (the apps let the user look, then save or undo).
    ///   - checked: the caller found no `problems(for:)` with the context's model already
    ///     (to say so before opening a store): the check, a pass over every value, is not
    ///     made twice.
    ///   - progress: called now and then with the objects inserted so far, and once more
    ///     with all of them before the save. An error it throws (the user gave up) takes back
    ///     what was inserted, saves nothing, and is thrown.
    ///   - willSave: called once everything is inserted and checked, just before the save;
    ///     an error it throws takes everything back as `progress`'s does.
    /// - Returns: how many objects were imported.
    /// - Throws: `GraphImportError` with every problem of the file, or with the objects the
    ///   model's validation refused (named by their `@id`); a store's own error as it is.
    @discardableResult
    public func importObjects(into context: ManagedObjectContext, saving: Bool = true, checked: Bool = false,
                              progress: ((Int) throws -> Void)? = nil,
                              willSave: (() throws -> Void)? = nil) throws -> Int {
        if !checked {
            let problems = problems(for: context.model)
            guard problems.isEmpty else { throw GraphImportError(problems: problems) }
        }
        var ids: [ObjectIdentifier: String] = [:]
        let before = context.insertedObjects
        func takeBack() {
            for object in context.insertedObjects.subtracting(before) { context.delete(object) }
            context.processPendingChanges()
        }
        do {
            ids = try insert(into: context, progress: progress)
            try progress?(objectCount)
            if saving {
                try willSave?()
                try context.save()
            } else {
                try context.validateForSave()
            }
        } catch let invalid as ValidationError {
            takeBack()
            // Each problem names the object by the file's @id, as the checks before do.
            throw GraphImportError(problems: invalid.failures.map { failure in
                GraphProblem(ids[ObjectIdentifier(failure.object)].map { "\(failure.entityName) \($0)" } ?? failure.subject,
                             failure.message, key: failure.key)
            })
        } catch {
            takeBack()
            throw error
        }
        return objectCount
    }
}
